import { z } from 'zod'
import { AgentReportSchema } from './agent-report.js'
import { TaskEvidenceSchema } from './evidence.js'

/** One criterion or one command, with how and whether it was verified. */
export const ConvergenceCheckSchema = z.object({
  kind: z.enum(['criterion', 'command']),
  text: z.string(),
  verdict: z.enum(['pass', 'fail', 'pending']),
  /** Who decided the verdict: a command's exit code, the executor's structured report, or a person (pending). */
  verified_by: z.enum(['command', 'agent', 'manual']),
  exit_code: z.number().int().nullable().optional(),
  duration_ms: z.number().nonnegative().optional(),
  timed_out: z.boolean().optional(),
  output_tail: z.string().optional(),
  tests_passed: z.number().int().nonnegative().optional(),
  tests_failed: z.number().int().nonnegative().optional(),
})

/** One run of the executor: what the process did, and what the agent said about it when it said anything. */
export const ExecutorRunSchema = z.object({
  attempt: z.number().int().positive(),
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  duration_ms: z.number().nonnegative(),
  /** The end of its stdout and stderr, secrets masked. */
  output_tail: z.string(),
  /** From its machine-readable output (`$CONVERGE_AGENT_OUTPUT_FILE`); null when it wrote none. */
  agent: AgentReportSchema.nullable(),
})

/** Lines added and removed in one file of a task's commit, against the commit before it (`git diff-tree --numstat`). */
export const FileStatSchema = z.object({
  path: z.string(),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  /** A binary file: git counts no lines in it (added and removed are 0). */
  binary: z.literal(true).optional(),
})
export type FileStat = z.infer<typeof FileStatSchema>

export const TaskResultSchema = z.object({
  task_id: z.string(),
  status: z.enum(['completed', 'failed', 'skipped']),
  started_at: z.string().nullable(),
  executed_at: z.string().nullable(),
  duration_ms: z.number().nonnegative(),
  files_modified: z.array(z.string()),
  /** Of `files_modified`, those outside the plan's `files` for the task: the executor changed them unasked. */
  undeclared_files: z.array(z.string()).optional(),
  commit_hash: z.string().nullable(),
  /** Each file of `commit_hash` with its lines added and removed; absent without a commit and in records of older versions. */
  file_stats: z.array(FileStatSchema).optional(),
  tests_passed: z.boolean().nullable(),
  convergence_verified: z.array(ConvergenceCheckSchema),
  attempts: z.number().int().nonnegative(),
  error: z.string().nullable(),
  /** Every executor run of the task, in order; absent when no executor ran (and in records of older versions). */
  executor_runs: z.array(ExecutorRunSchema).optional(),
  /** What the task's checks prove: the baseline before the change, the runs after it, and the kind they make (SPEC §7); absent in records of older versions. */
  evidence: TaskEvidenceSchema.optional(),
  /**
   * The last retry of this completed task that did not replace its result (its executor failed, timed out or
   * changed nothing, and nothing was committed): what that retry did. The result and evidence above stand.
   */
  later_retry: z.object({
    at: z.string(),
    /** "the executor exited with code 3: no API key", "the executor changed nothing". */
    outcome: z.string(),
    attempts: z.number().int().nonnegative(),
    executor_runs: z.array(ExecutorRunSchema),
  }).optional(),
})

export const ExecutionRecordSchema = z.object({
  solution_id: z.string(),
  issue_id: z.string(),
  plan_hash: z.string(),
  /** `execute` (an executor did the work) or `verify` (the commands alone); absent in records of older versions: `execute`. */
  mode: z.enum(['execute', 'verify']).optional(),
  status: z.enum(['running', 'completed', 'failed', 'paused', 'stopped']),
  /** The executor the last execute of the plan ran (a preset or the command line, as given), for the next command to name. */
  executor: z.string().optional(),
  /** Whether matrix jobs (`execute-task`) carried it out, one task a job; absent for a run of the whole plan. */
  matrix: z.boolean().optional(),
  /** The workflow run carrying it out (its URL): while `running`, another run of the plan is refused (one at a time). */
  run: z.string().optional(),
  started_at: z.string(),
  executed_at: z.string().nullable(),
  /** Keyed by task id; a task absent here has not finished yet. */
  tasks: z.record(z.string(), TaskResultSchema),
  /**
   * `verify` only: the results of the `execute` run of the same plan that this verification replaced, kept so that
   * the next `execute` goes on from them. A verification checks the work; it never undoes the record of it.
   */
  executed_tasks: z.record(z.string(), TaskResultSchema).optional(),
})

export type ConvergenceCheck = z.infer<typeof ConvergenceCheckSchema>
export type TaskResult = z.infer<typeof TaskResultSchema>
export type ExecutorRun = z.infer<typeof ExecutorRunSchema>
export type ExecutionRecord = z.infer<typeof ExecutionRecordSchema>

/**
 * The `execute` run of the plan with this hash that `record` holds: the record itself, or, when a `verify` of the
 * same plan replaced it, the results that verification kept. Undefined when there is none.
 */
export function executionOfPlan(record: ExecutionRecord | undefined, hash: string): ExecutionRecord | undefined {
  if (!record || record.plan_hash !== hash) return undefined
  if ((record.mode ?? 'execute') === 'execute') return record
  if (!record.executed_tasks) return undefined
  const { executed_tasks: tasks, ...verification } = record
  return { ...verification, mode: 'execute', tasks }
}
