/**
 * The tasks of a started run, in dependency order, `maxParallel` at a time (`execute/schedule.ts`): each carried
 * out (`run-task.ts`) and recorded (`run-record.ts`) as it finishes, between looks at `pause` and `stop`.
 */
import { wasStopped, type Task, type TaskResult } from '../model/index.js'
import type { RunBudget } from '../execute/budget.js'
import { runSchedule, type ControlSignal, type ScheduleResult } from '../execute/schedule.js'
import { statePaths } from '../model/state-layout.js'
import type { StateStore } from '../state/store.js'
import { readIssueFiles } from './issue-files.js'
import { recordLoop, recordTask } from './run-record.js'
import type { RunContext } from './run-context.js'
import type { StartedRun } from './run-start.js'
import { convergeAndCommit, earlierBaseline, type TaskRunOptions } from './run-task.js'
import { CheckMemo } from '../execute/check-memo.js'

/** How the scheduler runs the tasks: how many at once, what stops new ones, and whom it tells. */
export interface ScheduleSettings {
  maxParallel: number
  /** `continue`: a failed task skips nothing (verify); `skip`: its dependents; `abort`: everything not started. */
  onFailure: 'continue' | 'skip' | 'abort'
  /** The run stops starting tasks once this many failed. */
  maxErrors: number
  /** How often `pause` / `stop` are looked up on the state branch (each look is one request). */
  controlIntervalMs: number
  /** The run's spending limit, shared by its tasks. */
  budget?: RunBudget | undefined
  /** Called when a task starts (the CLI's live progress). */
  onTaskStart?: ((task: Task) => void) | undefined
  /** Called with the record after every finished task (for check-run progress). */
  onProgress?: ((record: StartedRun['record'], plan: StartedRun['plan']) => void) | undefined
}

export interface ScheduledRun {
  schedule: ScheduleResult
  /** Tasks this run carried out (not those an earlier run recorded). */
  ran: string[]
  /** Set when a result could not be recorded (GitHub failing past the client's retries): the run halted. */
  unrecorded?: Error
}

export async function scheduleTasks(context: RunContext, started: StartedRun, settings: ScheduleSettings, taskRun: TaskRunOptions): Promise<ScheduledRun> {
  const { store, n, mode } = context
  const { plan, issue, record } = started
  const { budget } = settings
  const control = controlSignals(store, n, settings.controlIntervalMs)
  const running = new Set<Task>()
  // A command run on checkout content it already ran on in this run is not run again (execute/check-memo.ts).
  const memo = new CheckMemo(taskRun.repoDir)
  const ran: string[] = []
  // A result the state branch would not take (GitHub failing past the client's retries) halts the run: no task
  // starts whose result could not be recorded either, and the running ones are ended, unrecorded.
  const halt = new AbortController()
  const signal = context.signal ? AbortSignal.any([context.signal, halt.signal]) : halt.signal
  let unrecorded: Error | undefined
  const haltWith = (error: unknown, where: string) => {
    unrecorded ??= new Error(`ISS-${n}: the run stopped ${where}: ${(error as Error).message}. Run it again to go on from what was recorded.`)
    halt.abort()
  }

  const schedule = await runSchedule(plan.tasks, {
    maxParallel: settings.maxParallel,
    onFailure: settings.onFailure,
    maxErrors: settings.maxErrors,
    alreadyDone: started.alreadyDone,
    retry: new Set(started.retry),
    // Pause and stop unreadable (GitHub failing past the retries): the run halts with the error, as below.
    shouldContinue: () => control().catch((error: unknown) => {
      haltWith(error, 'before its next task')
      return 'stop' as const
    }),
    ...(budget ? { overBudget: () => budget.exhausted() } : {}),
    signal,
    runTask: async (task, signal) => {
      running.add(task)
      settings.onTaskStart?.(task)
      try {
        const outcome = await carryOut(task, signal)
        if (outcome !== 'paused' && outcome !== 'stopped') ran.push(task.id)
        return outcome
      } catch (error) {
        // Not a verdict on the task (GitHub failing past the retries while it ran, e.g. reading pause and stop): the
        // run halts and fails with the error, like a result the state branch would not take; a rerun goes on.
        haltWith(error, `during ${task.id}`)
        return 'stopped'
      } finally {
        running.delete(task)
        // A stop recorded while this task ran must be seen before the next one starts, however recent the last look.
        control.expire()
      }
    },
  })
  return { schedule, ran, ...(unrecorded ? { unrecorded } : {}) }

  /** One task through {@link convergeAndCommit}, recorded on the state branch. */
  async function carryOut(task: Task, signal: AbortSignal): Promise<'completed' | 'failed' | 'paused' | 'stopped'> {
    const run = await convergeAndCommit(task, {
      n, issueTitle: issue.title, plan, options: taskRun, signal, ...(budget ? { budget } : {}),
      // Pause and stop act at the task boundary: a running task finishes (converges or fails) and is recorded, so
      // the work an agent was paid for is kept. Ctrl-C (the signal) is the way to stop at once.
      control: async () => 'continue',
      othersRunning: () => [...running].filter((t) => t !== task),
      // verify measures against the baseline the execution recorded (before its change): a proven task it checks
      // again stays proven when its checks still pass.
      ...earlierBaseline(started.previousTasks[task.id] ?? (mode === 'verify' ? record.executed_tasks?.[task.id] : undefined)),
      memo,
    })
    // Not a verdict, so nothing is recorded; and unfinished, not failed: the scheduler skips no dependents and
    // the next run starts the task again.
    if (run.kind === 'cancelled') return 'stopped'
    let recorded: TaskResult
    try {
      if (run.kind === 'interrupted') {
        await recordLoop(context, task.id, run.loop)
        return run.status
      }
      recorded = await recordTask(context, plan, task, run, mode === 'execute' ? started.previousTasks[task.id] : undefined)
    } catch (error) {
      const commit = run.kind === 'finished' && run.result.commit_hash ? ` (its commit ${run.result.commit_hash.slice(0, 12)} is pushed)` : ''
      unrecorded ??= new Error(`ISS-${n}: the run stopped after ${task.id}${commit}: ${(error as Error).message}. Run it again to go on from what was recorded.`)
      halt.abort()
      return 'stopped'
    }
    record.tasks[task.id] = recorded
    settings.onProgress?.(record, plan)
    return recorded.status === 'completed' ? 'completed' : 'failed'
  }
}

/** A look at `pause` / `stop`; `expire()` makes the next call look again (a task boundary after a task finished). */
export type ControlLook = (() => Promise<ControlSignal>) & { expire(): void }

/** `pause` / `stop` recorded on the state branch by another run, looked up at most every `intervalMs` until expired. */
export function controlSignals(store: StateStore, n: number, intervalMs: number): ControlLook {
  let checkedAt = Number.NEGATIVE_INFINITY
  let last: ControlSignal = 'continue'
  let pending: Promise<ControlSignal> | undefined
  const look = () => {
    if (Date.now() - checkedAt < intervalMs) return Promise.resolve(last)
    // Tasks running side by side share one look.
    pending ??= (async () => {
      try {
        const { issue } = await readIssueFiles(await store.snapshot([statePaths.issue(n)]), n, new Date().toISOString())
        last = issue?.status === 'paused' ? 'pause' : issue && wasStopped(issue) ? 'stop' : 'continue'
        checkedAt = Date.now()
        return last
      } finally {
        pending = undefined
      }
    })()
    return pending
  }
  return Object.assign(look, { expire: () => { checkedAt = Number.NEGATIVE_INFINITY } })
}
