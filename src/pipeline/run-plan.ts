/**
 * Carries out an approved plan on this machine (SPEC §6, §7): `execute` (an executor does each task, its
 * commands verify it, a converged task is committed to the work branch) and `verify` (the commands alone,
 * against the code as it is). Both keep the state branch up to date as they go: every finished task is one
 * commit of `execution.json`, `loop.json`, `events.md` and `execution.md`, so a run killed at any point loses
 * nothing that was recorded, and the next run resumes from there.
 *
 * A run goes through four modules in order: `run-start.ts` (the gate, the run recorded as started),
 * `run-schedule.ts` (the tasks in dependency order, each carried out by `run-task.ts`), `run-record.ts` (each
 * finished task recorded) and `run-finish.ts` (the run's end recorded); what they share is one `RunContext`
 * (`run-context.ts`).
 */
import type { ExecutionRecord, IssueState, Solution, Task } from '../model/index.js'
import { agentPreflight } from '../agents/preflight.js'
import { missingProgram } from '../processes/missing-program.js'
import { costBudget } from '../execute/budget.js'
import type { StateStore } from '../state/store.js'
import { abandonRun, finishRun, undoStart } from './run-finish.js'
import { scheduleTasks } from './run-schedule.js'
import type { Clock, RunContext, RunMode } from './run-context.js'
import { startRun, type RunHolder } from './run-start.js'
import type { TaskPolicy, TaskRunOptions } from './run-task.js'

export interface RunPlanOptions {
  /** The checkout the tasks run in. */
  repoDir: string
  /** Scratch space for per-task files (the runner's temp directory). */
  workRoot: string
  /** Values masked in everything recorded. */
  secrets: string[]
  now: Clock
  /** Called with the record after every finished task (for check-run progress). */
  onProgress?: (record: ExecutionRecord, plan: Solution) => void
  /** Called when a task starts (the CLI's live progress). */
  onTaskStart?: (task: Task) => void
  /** Called with each non-empty line a task's executor prints while it runs, secrets masked (the CLI's status line). */
  onOutput?: (taskId: string, line: string) => void
  /** Cancellation (Ctrl-C, a cancelled job): running commands are ended, nothing new starts. */
  signal?: AbortSignal
  /** How often `pause` / `stop` are looked up on the state branch (default 3 s; each look is one request). */
  controlIntervalMs?: number
  /** The run that holds the plan while it runs (see {@link RunHolder}): the workflow run, or the local process. */
  holder?: RunHolder
  /** `verify`: how the host's user installs what a check could not find (a setup command), said after the program's name. */
  missingProgramFix?: string
}

/** The part of a run's policy (`pipeline/run-request.ts`) a run of the plan follows: each task's, and the run's limits. */
export interface PlanPolicy extends TaskPolicy {
  maxParallel: number
  /** The run stops starting tasks once this many failed. */
  maxErrors: number
  /** `max-cost-usd`: what this run's executor runs may cost, as their agents report it. */
  maxCostUsd?: number | undefined
}

/** The run's options: the run's own, and what each task is carried out with (`TaskRunOptions`). */
export interface ExecuteOptions extends RunPlanOptions, TaskRunOptions {
  policy: PlanPolicy
  /** Tasks to run again although an earlier run recorded them (`retry`); `failed`: every failed task. */
  retry?: readonly string[] | 'failed'
  /** Runs once the run is recorded as started, before any task (e.g. checking out the work branch). */
  beforeTasks?: () => Promise<void>
}

export type RunPlanResult =
  | {
      ok: true
      plan: Solution
      issue: IssueState
      record: ExecutionRecord
      /** Tasks this run carried out (not those an earlier run recorded). */
      ran: string[]
    }
  | { ok: false; reason: string }

const DEFAULT_CONTROL_INTERVAL_MS = 3_000

/**
 * `verify`: runs every task's verification commands against the current code, with no executor — for work a
 * person did. Every task is checked (a failed one does not skip its dependents), in dependency order,
 * `maxParallel` at a time.
 */
export function verifyIssue(
  store: StateStore, n: number,
  options: RunPlanOptions & Pick<TaskRunOptions, 'evidence'> & Pick<ExecuteOptions, 'beforeTasks'> & { policy: Pick<PlanPolicy, 'maxParallel' | 'timeoutMs'> },
): Promise<RunPlanResult> {
  const { maxParallel, timeoutMs } = options.policy
  return runPlan(store, n, 'verify', {
    ...options,
    policy: { maxParallel, timeoutMs, executorCommand: 'none', maxIterations: 1, onFailure: 'skip', maxRetries: 0, maxErrors: Number.POSITIVE_INFINITY },
  })
}

/**
 * `execute` (and `retry`): the executor carries out each task, its commands verify it (develop → validate →
 * debug up to `maxIterations`), a converged task is committed. Resumes an earlier run of the same plan:
 * tasks it recorded as completed are not run again, failed ones only when `retry` names them.
 */
export function executeIssue(store: StateStore, n: number, options: ExecuteOptions): Promise<RunPlanResult> {
  return runPlan(store, n, 'execute', options)
}

async function runPlan(store: StateStore, n: number, mode: RunMode, options: ExecuteOptions): Promise<RunPlanResult> {
  const { policy } = options
  // Before any attempt, and before anything is recorded: the executor's program is there, or how to install it.
  if (mode === 'execute') {
    const missing = await agentPreflight(policy.executorCommand, 'executor', { PATH: options.executorEnv?.PATH ?? process.env.PATH }, options.repoDir)
    if (missing) return { ok: false, reason: `Execution could not start: ${missing}` }
  }
  const context: RunContext = { store, n, mode, now: options.now, secrets: options.secrets, signal: options.signal }
  const started = await startRun(context, { retry: options.retry, holder: options.holder, executorCommand: policy.executorCommand })
  if (!started.ok) return started
  if (options.beforeTasks) {
    try {
      await options.beforeTasks()
    } catch (error) {
      // Cancelled meanwhile (the job's signal reaches git too): not a failure; no task starts below, and the run
      // ends as stopped like any cancelled run.
      if (!options.signal?.aborted) {
        // Nothing ran: the issue is left as it was (the reason is in its event log and the answer).
        const reason = `${mode === 'verify' ? 'Verification' : 'Execution'} could not start: ${(error as Error).message}`
        await undoStart(context, started.plan, started.before, reason)
        return { ok: false, reason }
      }
    }
  }

  const { schedule, ran, unrecorded } = await scheduleTasks(context, started, {
    maxParallel: policy.maxParallel,
    onFailure: mode === 'verify' ? 'continue' : policy.onFailure === 'abort' ? 'abort' : 'skip',
    maxErrors: policy.maxErrors,
    controlIntervalMs: options.controlIntervalMs ?? DEFAULT_CONTROL_INTERVAL_MS,
    budget: mode === 'execute' && policy.maxCostUsd !== undefined ? costBudget(policy.maxCostUsd) : undefined,
    onTaskStart: options.onTaskStart,
    onProgress: options.onProgress,
  }, options)

  if (unrecorded) {
    // Recorded as failed when GitHub takes it, so that the issue does not look as if it were still running;
    // either way the next run resumes from what was recorded.
    await abandonRun(context, unrecorded.message, started.previousTasks).catch(() => {})
    throw unrecorded
  }
  // A verification whose checks could not start (a program not installed where they ran) says nothing about the
  // work: nothing of it is kept, and the reason names the program and the fix.
  const cannotCheck = mode === 'verify' ? checksThatCouldNotStart(started.plan, started.record) : undefined
  if (cannotCheck) {
    const reason = `${cannotCheck}. Nothing of this verification was recorded: the results of the execution stand${options.missingProgramFix ? `. ${options.missingProgramFix}` : ''}`
    await undoStart(context, started.plan, started.before, reason)
    return { ok: false, reason }
  }
  const finished = await finishRun(context, started.plan, schedule)
  return { ok: true, plan: started.plan, issue: finished.issue, record: finished.record, ran }
}

/** "T1 could not be checked: `mocha` was not found where `npm test` ran", for each task whose failed check could not start. */
function checksThatCouldNotStart(plan: Solution, record: ExecutionRecord): string | undefined {
  const found = plan.tasks.flatMap((task) => {
    const result = record.tasks[task.id]
    if (result?.status !== 'failed') return []
    const missing = result.convergence_verified
      .filter((check) => check.kind === 'command' && check.verdict === 'fail')
      .map((check) => missingProgram({ command: check.text, exit_code: check.exit_code, output_tail: check.output_tail }))
      .find((m) => m !== undefined)
    return missing ? [{ task: task.id, ...missing }] : []
  })
  if (!found.length) return undefined
  const programs = [...new Set(found.map((f) => `\`${f.program}\``))]
  return `${found.map((f) => f.task).join(', ')} could not be checked: ${programs.join(', ')} ${programs.length === 1 ? 'was' : 'were'} not found where ${found.length === 1 ? `\`${found[0]!.command}\`` : 'the checks'} ran (the project's dependencies are not installed in that checkout)`
}
