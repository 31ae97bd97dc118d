import type { ExecutionRecord, IssueStatus, LoopState, Solution } from '../model/index.js'
import type { PlanAnalysis } from '../plan/analyse.js'

/**
 * Everything a report about one issue can show, as data. The sticky comment, the check run, the job
 * summary and the CLI all render from this one shape (rendering is pure: data in, markdown out).
 */
export interface RunReport {
  issue: { number: number; title: string }
  status: IssueStatus
  /** Why the issue failed, as recorded (`Stopped by @alice`, what did not converge, a cancelled run). */
  error?: string
  /** What just happened, in one line, said in terms of the state ("Planned with the builtin planner …"). */
  headline?: string
  solution?: Solution
  /** The plan's validation, DAG (waves) and quality; recomputed from `solution` when absent. */
  analysis?: PlanAnalysis
  /** What Converge did to keep the run's credentials from its commands (credentials removed from the checkout). */
  security?: string[]
  /** What the planner inferred or could not find. */
  notes?: string[]
  /** What the issue does not say and the reporter is asked for (the planner's questions). */
  questions?: string[]
  /** Results recorded so far: a task absent from `execution.tasks` has not finished. */
  execution?: ExecutionRecord
  /** Tasks running right now. */
  running?: string[]
  loop?: LoopState
  commandPrefix: string
  links: { stateBranch?: string; run?: string; checkRun?: string; pullRequest?: string }
  /** Values that must never appear in a report (tokens, secrets printed by a command). */
  secrets?: string[]
}
