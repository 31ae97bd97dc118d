/** `plan` on an epic, and the relations planning records on any issue: the pipeline side of issue 16's epics. */
import type { PlannerOutput } from '../planners/types.js'
import type { IssueDocument } from '../planners/types.js'
import { statePaths } from '../model/state-layout.js'
import type { StateStore } from '../state/store.js'
import { epicOf, recordEpic, type EpicResult, type EpicSource, type GitHubRelations } from './epic.js'
import type { IssueRelations, PlanIssueResult } from './plan-issue.js'

export interface EpicPlanResult extends EpicResult {
  source: EpicSource
}

/**
 * When `issue` is an epic with no open work of its own, records it (see `recordEpic`) instead of planning it:
 * the result then has no solution, the planner output says why, and `epic` holds the children. Undefined for
 * any other issue.
 */
export async function planIfEpic(
  store: StateStore, issue: IssueDocument, now: string, relations: GitHubRelations = {},
): Promise<{ output: PlannerOutput; result: PlanIssueResult; epic: EpicPlanResult } | undefined> {
  const source = epicOf(issue, relations)
  if (!source || source.openWork) return undefined
  const recorded = await recordEpic(store, issue, source, now, relations)
  const list = source.children.map((c) => `#${c.number}`).join(', ')
  return {
    output: {
      planner: 'builtin',
      raw: undefined,
      notes: [`ISS-${issue.number} is an epic of ${list}${source.ordered ? ', in this order' : ''}: its own text is not planned as tasks; each child is planned as its own issue, and the epic is completed when they all are.`],
    },
    // Nothing to validate: no plan was made, and no gate holds anything back.
    result: { analysis: { errors: [], warnings: [], gate: 'review' }, issueState: recorded.issueState, commit: recorded.commit, unchanged: recorded.commit === null, planPath: statePaths.plan(issue.number) },
    epic: { source, ...recorded },
  }
}

/** What planning records beside the plan: GitHub's parent and dependencies, and the children of an epic with work of its own. */
export function issueRelations(issue: IssueDocument, relations: GitHubRelations = {}): IssueRelations {
  const children = epicOf(issue, relations)?.children.map((c) => c.number)
  return {
    ...(relations.parent ? { parent: relations.parent } : {}),
    ...(relations.blockedBy?.length ? { blockedBy: relations.blockedBy } : {}),
    ...(children?.length ? { children } : {}),
  }
}
