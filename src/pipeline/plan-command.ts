import { choosePlanner, type IssueDocument, type PlannerMode, type PlannerOutput } from '../planners/index.js'
import type { StateStore } from '../state/store.js'
import { planIssue, type PlanIssueResult } from './plan-issue.js'

/** The `plan` command on any store: choose the planner, then validate and record (see `planIssue`). */
export async function pipelinePlan(
  store: StateStore, issue: IssueDocument, mode: PlannerMode, now: string, comment?: string,
): Promise<{ output: PlannerOutput; result: PlanIssueResult }> {
  const output = choosePlanner(mode, issue, comment)
  return { output, result: await planIssue(store, issue, output, now) }
}
