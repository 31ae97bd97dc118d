/**
 * Runs a plan's tasks in dependency order, several at once: a task starts as soon as its dependencies
 * have completed, a slot is free and no running task touches one of its files. Ready tasks start in
 * plan order. No waiting for whole waves, so the wall time stays close to the critical path.
 */
import type { Task } from '../model/index.js'
import { analyseDag, normalisePath, type DagError } from '../plan/dag.js'

/** `paused` / `stopped`: a control signal interrupted the task; it is not finished and nothing new starts. */
export type TaskOutcome = 'completed' | 'failed' | 'paused' | 'stopped'
/** What an earlier run recorded for a task. */
export type RecordedStatus = 'completed' | 'failed' | 'skipped'
export type ScheduledStatus = 'completed' | 'failed' | 'skipped' | 'not-run'
export type ScheduleStatus = 'completed' | 'failed' | 'paused' | 'stopped' | 'aborted'
export type ControlSignal = 'continue' | 'pause' | 'stop'

export interface ScheduleEvent {
  type: 'start' | 'finish' | 'skip'
  taskId: string
  /** `finish`: completed or failed; `skip`: skipped. */
  status?: ScheduledStatus
  reason?: string
}

export interface ScheduleOptions {
  /** At least 1. */
  maxParallel: number
  /**
   * `skip`: a failure skips its transitive dependents; `abort`: a failure starts nothing new;
   * `continue`: dependents run anyway, still after it (`verify` checks every task against code that exists).
   */
  onFailure: 'skip' | 'abort' | 'continue'
  /** Nothing new starts once this many tasks failed in this run. No limit when absent. */
  maxErrors?: number
  /**
   * Results of an earlier run. Completed tasks are not run again; failed ones only when listed in
   * `retry` (otherwise their dependents are skipped); skipped ones are decided afresh.
   */
  alreadyDone?: ReadonlyMap<string, RecordedStatus>
  retry?: ReadonlySet<string>
  /** Performs one task. A rejection counts as a failure of the task, with the error's message as reason. */
  runTask(task: Task, signal: AbortSignal): Promise<TaskOutcome>
  /** Asked before every start; `pause` and `stop` start nothing new and let running tasks finish. */
  shouldContinue?(): Promise<ControlSignal>
  /**
   * The run's spending limit: asked before every start and when a task was interrupted. A reason ("budget reached:
   * …") starts nothing new and ends the run `failed` with it; running tasks finish.
   */
  overBudget?(): string | undefined
  onEvent?(event: ScheduleEvent): void
  /** Cancels the run: passed on to running tasks, and nothing new starts (status `stopped`). */
  signal?: AbortSignal
}

export interface ScheduledTaskResult {
  status: ScheduledStatus
  reason?: string
}

export interface ScheduleResult {
  status: ScheduleStatus
  /** Every task of the plan, in plan order. */
  results: Map<string, ScheduledTaskResult>
  /** Why the budget stopped the run, when it did. */
  overBudget?: string
}

/** The plan's dependency graph is not a DAG; the caller should have validated it. */
export class PlanGraphError extends Error {
  constructor(readonly errors: DagError[]) {
    super(`Cannot run a plan whose task graph is invalid: ${errors.map((e) => e.message).join('; ')}`)
    this.name = 'PlanGraphError'
  }
}

export async function runSchedule(tasks: readonly Task[], options: ScheduleOptions): Promise<ScheduleResult> {
  const { errors } = analyseDag(tasks)
  if (errors.length > 0) throw new PlanGraphError(errors)
  if (!Number.isInteger(options.maxParallel) || options.maxParallel < 1)
    throw new RangeError(`maxParallel must be a positive integer, got ${options.maxParallel}`)
  return new Scheduler(tasks, options).run()
}

interface Finished {
  index: number
  status: TaskOutcome
  reason?: string
}

/** Why nothing new starts, and what the tasks left unstarted are told. */
interface Halt {
  status: Exclude<ScheduleStatus, 'completed'>
  reason: string
  /** Set when the budget stopped the run. */
  overBudget?: string
}

/**
 * All state changes happen in `run`'s loop (task completions are awaited there, not handled in
 * callbacks), so the bookkeeping needs no locking and every decision sees a consistent state.
 */
class Scheduler {
  private readonly dependents: number[][]
  /** Per task: dependencies not completed yet. */
  private readonly waitingOn: number[]
  private readonly files: string[][]
  private readonly results: Array<ScheduledTaskResult | undefined>
  /** Tasks whose dependencies all completed, not started yet, in plan order. */
  private readonly ready: number[] = []
  private readonly running = new Map<number, Promise<Finished>>()
  private readonly busyFiles = new Set<string>()
  private readonly signal: AbortSignal
  private failures = 0
  private halt: Halt | undefined

  constructor(private readonly tasks: readonly Task[], private readonly options: ScheduleOptions) {
    const indexOf = new Map(tasks.map((t, i) => [t.id, i]))
    const deps = tasks.map((t) => [...new Set(t.depends_on)].map((id) => indexOf.get(id)!))
    this.dependents = tasks.map(() => [])
    deps.forEach((ds, i) => ds.forEach((d) => this.dependents[d]!.push(i)))
    this.files = tasks.map((t) => [...new Set(t.files.map((f) => normalisePath(f.path)))])
    this.results = tasks.map((t) => carriedOver(options.alreadyDone?.get(t.id), options.retry?.has(t.id) ?? false))
    this.waitingOn = deps.map((ds) => ds.filter((d) => this.results[d]?.status !== 'completed').length)
    this.signal = options.signal ?? new AbortController().signal

    tasks.forEach((t, i) => {
      if (this.results[i]?.status === 'failed') this.skipDependents(i, `depends on ${t.id}, which failed in an earlier run`)
    })
    tasks.forEach((_, i) => {
      if (this.results[i] === undefined && this.waitingOn[i] === 0) this.ready.push(i)
    })
  }

  async run(): Promise<ScheduleResult> {
    try {
      for (;;) {
        const next = this.halt ? undefined : this.nextStartable()
        if (next !== undefined) {
          await this.checkControl()
          if (!this.halt) this.start(next)
        } else if (this.running.size > 0) {
          this.finish(await Promise.race(this.running.values()))
        } else {
          break
        }
      }
    } finally {
      // Only reached with tasks still running when shouldContinue or onEvent threw.
      await Promise.allSettled(this.running.values())
    }
    return this.result()
  }

  /** The first ready task (plan order) that fits: a free slot and none of its files in use. */
  private nextStartable(): number | undefined {
    if (this.running.size >= this.options.maxParallel) return undefined
    return this.ready.find((i) => this.files[i]!.every((f) => !this.busyFiles.has(f)))
  }

  private async checkControl(): Promise<void> {
    if (this.checkBudget()) return
    const control = this.signal.aborted ? 'cancel' : ((await this.options.shouldContinue?.()) ?? 'continue')
    if (control === 'cancel') this.stop({ status: 'stopped', reason: 'not started: the run was cancelled' })
    else if (control === 'pause') this.stop({ status: 'paused', reason: 'not started: the run was paused' })
    else if (control === 'stop') this.stop({ status: 'stopped', reason: 'not started: the run was stopped' })
  }

  private start(i: number): void {
    this.ready.splice(this.ready.indexOf(i), 1)
    for (const f of this.files[i]!) this.busyFiles.add(f)
    this.emit({ type: 'start', taskId: this.tasks[i]!.id })
    this.running.set(i, this.execute(i))
  }

  /** Never rejects: a throwing task is a failed task. */
  private async execute(index: number): Promise<Finished> {
    try {
      return { index, status: await this.options.runTask(this.tasks[index]!, this.signal) }
    } catch (error) {
      return { index, status: 'failed', reason: error instanceof Error ? error.message : String(error) }
    }
  }

  private finish({ index, status, reason }: Finished): void {
    this.running.delete(index)
    for (const f of this.files[index]!) this.busyFiles.delete(f)
    const id = this.tasks[index]!.id
    if (status === 'paused' || status === 'stopped') {
      // Unfinished: left without a result, so that a resumed run starts it again. A task stops itself when the
      // budget forbids its next attempt: then the budget is why the run stopped.
      if (!this.checkBudget()) this.stop({ status, reason: `not started: the run was ${status}` })
      this.emit({ type: 'finish', taskId: id, status: 'not-run', reason: `${status} while running` })
      return
    }
    this.results[index] = reason === undefined ? { status } : { status, reason }
    this.emit({ type: 'finish', taskId: id, status, ...(reason === undefined ? {} : { reason }) })
    if (status === 'completed' || this.options.onFailure === 'continue') {
      for (const d of this.dependents[index]!) if (--this.waitingOn[d]! === 0 && !this.results[d]) this.makeReady(d)
      if (status === 'completed') return
    }
    this.failures++
    if (this.options.onFailure === 'abort') this.stop({ status: 'aborted', reason: `not started: the run was aborted after ${id} failed` })
    else if (this.options.onFailure === 'skip') this.skipDependents(index, `depends on ${id}, which failed`)
    if (this.failures >= (this.options.maxErrors ?? Infinity))
      this.stop({ status: 'failed', reason: `not started: ${this.failures} task${this.failures === 1 ? '' : 's'} failed (max-errors ${this.options.maxErrors})` })
  }

  private makeReady(i: number): void {
    const at = this.ready.findIndex((j) => j > i)
    this.ready.splice(at === -1 ? this.ready.length : at, 0, i)
  }

  /** Skips every task that depends, directly or not, on `failed` and has no result yet. */
  private skipDependents(failed: number, reason: string): void {
    const stack = [...this.dependents[failed]!]
    while (stack.length > 0) {
      const i = stack.pop()!
      if (this.results[i]) continue
      this.results[i] = { status: 'skipped', reason }
      this.emit({ type: 'skip', taskId: this.tasks[i]!.id, status: 'skipped', reason })
      for (const dependent of this.dependents[i]!) stack.push(dependent) // not push(...): a task may have 100 000 dependents
    }
  }

  /** Stops the run when the budget is spent; true if it is. */
  private checkBudget(): boolean {
    const overBudget = this.options.overBudget?.()
    if (overBudget) this.stop({ status: 'failed', reason: `not started: ${overBudget}`, overBudget })
    return overBudget !== undefined
  }

  /** The first reason to stop wins. */
  private stop(halt: Halt): void {
    this.halt ??= halt
  }

  private emit(event: ScheduleEvent): void {
    this.options.onEvent?.(event)
  }

  private result(): ScheduleResult {
    const unstarted = this.halt?.reason ?? 'not started: a dependency did not complete'
    const results = new Map(this.tasks.map((t, i): [string, ScheduledTaskResult] => [t.id, this.results[i] ?? { status: 'not-run', reason: unstarted }]))
    const allCompleted = [...results.values()].every((r) => r.status === 'completed')
    const status = this.halt?.status ?? (allCompleted ? 'completed' : 'failed')
    return this.halt?.overBudget ? { status, results, overBudget: this.halt.overBudget } : { status, results }
  }
}

/** The result an earlier run leaves standing: completed or failed, unless `retry` names the task to run again. */
function carriedOver(recorded: RecordedStatus | undefined, retry: boolean): ScheduledTaskResult | undefined {
  if (retry) return undefined
  if (recorded === 'completed') return { status: 'completed', reason: 'completed in an earlier run' }
  if (recorded === 'failed') return { status: 'failed', reason: 'failed in an earlier run' }
  return undefined
}
