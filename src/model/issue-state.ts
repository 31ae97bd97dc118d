import { z } from 'zod'
import { ISSUE_ID } from './ids.js'
import { QUALITY_GATES } from './quality.js'

export const ISSUE_STATUSES = [
  'registered', 'planning', 'planned', 'queued', 'executing', 'completed', 'failed', 'paused',
] as const
export type IssueStatus = (typeof ISSUE_STATUSES)[number]

/** The error `/converge stop` records on the issue it stops; `/converge resume` is what continues such an issue. */
export function stoppedBy(actor: string): string {
  return `Stopped by @${actor}`
}

/** Whether the issue was stopped by `/converge stop` (and not failed otherwise). */
export function wasStopped(issue: { status: IssueStatus; error?: string | null | undefined }): boolean {
  return issue.status === 'failed' && (issue.error?.startsWith('Stopped by @') ?? false)
}

/** An earlier failure, fed back into the next planning attempt. */
export const FeedbackSchema = z.object({
  at: z.string(),
  source: z.enum(['validation', 'quality', 'execution', 'review']),
  message: z.string(),
})

/** `changed_checkout`: the planner command changed the checkout's files (they were put back, and planning stopped). */
export const PLAN_ATTEMPT_OUTCOMES = ['accepted', 'no_plan', 'invalid_json', 'schema_errors', 'dag_errors', 'gate_fail', 'changed_checkout'] as const

/** One run of `planner-command` (planner: command) and what became of the plan it wrote. */
export const PlanAttemptSchema = z.object({
  attempt: z.number().int().positive(),
  /** When the command started. */
  at: z.string(),
  outcome: z.enum(PLAN_ATTEMPT_OUTCOMES),
  /** null when the command was ended by a signal (a timeout among them). */
  exit_code: z.number().int().nullable(),
  timed_out: z.boolean(),
  duration_ms: z.number().nonnegative(),
  /** Why the plan was not accepted, as `path: message`; empty for `accepted`. */
  errors: z.array(z.string()),
  /** The quality gate of a plan that could be read. */
  gate: z.enum(QUALITY_GATES).optional(),
  quality_score: z.number().int().min(0).max(100).optional(),
})

export const IssueStateSchema = z.object({
  id: z.string().regex(ISSUE_ID),
  number: z.number().int().positive(),
  title: z.string(),
  status: z.enum(ISSUE_STATUSES),
  solution_id: z.string().nullable(),
  planned_at: z.string().nullable(),
  executed_at: z.string().nullable(),
  error: z.string().nullable(),
  // Fields below were added to the seed's IssueState; defaults let state written without them load.
  labels: z.array(z.string()).default([]),
  author: z.string().nullable().default(null),
  url: z.string().nullable().default(null),
  /** `sha256:` of the issue body the current plan was made from. */
  body_sha: z.string().nullable().default(null),
  feedback: z.array(FeedbackSchema).default([]),
  updated_at: z.string().nullable().default(null),
  /** The attempts of the last planning by `planner-command`; absent when another planner made the plan. */
  plan_attempts: z.array(PlanAttemptSchema).optional(),
  /** An epic's children (issue numbers, in its order): GitHub sub-issues, or the issues its task list references. */
  children: z.array(z.number().int().positive()).optional(),
  /** The epic this issue is a child of. */
  parent: z.number().int().positive().optional(),
  /** Issues that must be done (completed, or closed on GitHub) before this one executes. */
  blocked_by: z.array(z.number().int().positive()).optional(),
  /** The command that prepares a checkout of the work for verify (installs the project's dependencies: `npm ci`), given once. */
  setup_command: z.string().min(1).optional(),
})

export type Feedback = z.infer<typeof FeedbackSchema>
export type PlanAttempt = z.infer<typeof PlanAttemptSchema>
export type PlanAttemptOutcome = (typeof PLAN_ATTEMPT_OUTCOMES)[number]
export type IssueState = z.infer<typeof IssueStateSchema>
