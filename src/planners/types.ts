import type { PlanAttempt } from '../model/index.js'
import type { PlanError } from '../plan/schema-errors.js'
import type { Epic } from './epic.js'

/** A GitHub issue (or a local markdown file standing in for one), as the planners read it. */
export interface IssueDocument {
  number: number
  title: string
  body: string
  labels: string[]
  author?: string
  url?: string
}

export type PlannerName = 'explicit' | 'builtin' | 'command'

/**
 * What a planner produced. `raw` is the solution before validation: run it through `analysePlan`
 * (or `analysePlannerOutput`, which also reports `error`).
 *
 * `error` is set when no plan could be produced at all — a ```json block that is not valid JSON
 * (the message gives the line and column in the issue or comment), or `planner: explicit` with no
 * block, or `planner: command` whose last attempt wrote no readable JSON. `raw` is then `undefined`.
 */
export interface PlannerOutput {
  planner: PlannerName
  raw: unknown
  /** What the planner inferred or could not find, in plain words, for the report. */
  notes: string[]
  /** What the issue does not say and a careful engineer would ask the reporter for (expected behaviour, steps, where). */
  questions?: string[]
  /** Items the issue marks done (ticked), epic children included as `#n …`: recorded, not planned. */
  alreadyDone?: string[]
  /** The issue is an epic: the issues its task list references, each planned as its own issue. */
  epic?: Epic
  error?: PlanError
  /** `planner: command`: every run of the planner command, in order; the last one produced `raw` / `error`. */
  attempts?: PlanAttempt[]
  /** `planner: command`: the directory holding each attempt's prompt, feedback and plan. */
  workDir?: string
}
