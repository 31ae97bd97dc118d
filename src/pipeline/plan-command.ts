import { trackedPathLookup } from '../git/read-files.js'
import { IssueStateSchema } from '../model/index.js'
import { choosePlanner, commandPlan, type CommandPlannerOptions, type IssueDocument, type PlannerMode, type PlannerOutput } from '../planners/index.js'
import { statePaths } from '../model/state-layout.js'
import { readStateJson } from '../state/state-files.js'
import type { StateStore } from '../state/store.js'
import type { GitHubRelations } from './epic.js'
import { issueRelations, planIfEpic, type EpicPlanResult } from './plan-epic.js'
import { planIssue, type PlanIssueResult } from './plan-issue.js'

export interface PipelinePlanOptions {
  /** `planner: command`: how to run the planner command (required in that mode). */
  command?: Omit<CommandPlannerOptions, 'comment' | 'earlier'>
  /** What GitHub says of the issue's sub-issues, parent and dependencies (the CLI has only the text). */
  relations?: GitHubRelations
  /** The checkout the plan is for: a task that modifies a file it does not have is a finding (`missing-file`). */
  repoDir?: string
}

/**
 * The `plan` command on any store: choose the planner, then validate and record (see `planIssue`). With `command`
 * the agent planner runs first, shown the comment and the problems recorded on the issue so far; its attempts are
 * recorded with the plan.
 */
export async function pipelinePlan(
  store: StateStore, issue: IssueDocument, mode: PlannerMode, now: string, comment?: string, options: PipelinePlanOptions = {},
): Promise<{ output: PlannerOutput; result: PlanIssueResult; epic?: EpicPlanResult }> {
  // An epic is recorded with its children, not planned as tasks (src/pipeline/plan-epic.ts).
  const epic = await planIfEpic(store, issue, now, options.relations)
  if (epic) return epic
  let output: PlannerOutput
  if (mode === 'command') {
    if (!options.command?.command.trim()) throw new Error('planner: command needs a planner command (planner-command, or --planner-command in the CLI)')
    const path = statePaths.issue(issue.number)
    const previous = await readStateJson(await store.snapshot([path]), path, IssueStateSchema)
    output = await commandPlan(issue, {
      ...options.command,
      ...(comment !== undefined ? { comment } : {}),
      ...(previous?.feedback.length ? { earlier: previous.feedback } : {}),
    })
  } else {
    output = choosePlanner(mode, issue, comment)
  }
  const exists = options.repoDir ? await trackedPathLookup(options.repoDir) : undefined
  return { output, result: await planIssue(store, issue, output, now, issueRelations(issue, options.relations), exists) }
}
