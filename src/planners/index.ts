import { analysePlan, type PlanAnalysis } from '../plan/analyse.js'
import { builtinPlan, type BuiltinOptions } from './builtin.js'
import { explicitPlan, findExplicitPlan, noPlanBlock } from './explicit.js'
import { MarkdownTooDeepError } from './markdown.js'
import type { IssueDocument, PlannerOutput } from './types.js'

export { builtinPlan, type BuiltinOptions } from './builtin.js'
export { explicitPlan, findExplicitPlan, type ExplicitPlanBlock } from './explicit.js'
export type { IssueDocument, PlannerName, PlannerOutput } from './types.js'
export { commandPlan, PlanningCancelled, type CommandPlannerOptions, type CommandPlannerOutput } from './command.js'

/** `command` runs an agent CLI (asynchronous, see `commandPlan`); the others are pure functions of the issue. */
export type PlannerMode = 'auto' | 'explicit' | 'builtin' | 'command'
export const PLANNER_MODES: readonly PlannerMode[] = ['auto', 'explicit', 'builtin', 'command']

/**
 * Picks where the plan comes from.
 * - `explicit`: the ```json block of the comment if it has one, else of the issue body; with neither,
 *   an output whose `error` says so (never an exception).
 * - `builtin`: the built-in planner on the issue.
 * - `auto`: `explicit` when the comment or the body holds a plan block, else `builtin`.
 */
/** How the planners are chosen: the built-in planner's options, and what the `comment` argument is called in notes and errors. */
export interface ChooseOptions extends BuiltinOptions {
  /** Default `the comment` (a `/converge plan` comment); the CLI's `--plan-file <path>` names its file. */
  commentName?: string
}

export function choosePlanner(mode: Exclude<PlannerMode, 'command'>, issue: IssueDocument, comment?: string, options: ChooseOptions = {}): PlannerOutput {
  try {
    return pickPlanner(mode, issue, comment, options)
  } catch (error) {
    if (!(error instanceof MarkdownTooDeepError)) throw error
    return {
      planner: mode === 'builtin' ? 'builtin' : 'explicit',
      raw: undefined,
      notes: [],
      error: { code: 'markdown_too_deep', path: '(root)', message: `${error.message}: ${comment !== undefined ? `the issue or ${options.commentName ?? 'the comment'}` : 'the issue'} cannot be planned`, hint: 'Flatten the deeply nested quotes or lists, then plan again' },
    }
  }
}

function pickPlanner(mode: Exclude<PlannerMode, 'command'>, issue: IssueDocument, comment: string | undefined, options: ChooseOptions): PlannerOutput {
  if (mode === 'builtin') return builtinPlan(issue, options)
  const seq = options.seq ?? 1
  const commentName = options.commentName ?? 'the comment'
  if (comment !== undefined && findExplicitPlan(comment).found) return explicitPlan(issue, comment, seq, commentName)
  if (findExplicitPlan(issue.body).found) return explicitPlan(issue, undefined, seq)
  const searched = comment !== undefined ? `${commentName} or the issue body` : 'the issue body'
  if (mode === 'explicit') return noPlanBlock(searched)
  const output = builtinPlan(issue, options)
  return { ...output, notes: [`no \`\`\`json plan block in ${searched}: used the built-in planner`, ...output.notes] }
}

/** `analysePlan` for a planner's output; an output with `error` (no plan could be read) fails with that error. */
export function analysePlannerOutput(output: PlannerOutput): PlanAnalysis {
  if (output.error) return { errors: [output.error], warnings: [], gate: 'fail' }
  return analysePlan(output.raw)
}
