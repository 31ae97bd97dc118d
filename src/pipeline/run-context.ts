/**
 * What the modules of one run share — start (`run-start.ts`), schedule (`run-schedule.ts`), record
 * (`run-record.ts`), finish (`run-finish.ts`), and scale-out's one task (`scale-out/execute-task.ts`): the state
 * branch it is recorded on, the issue, the mode, the clock and the values to mask. Each function takes the part it
 * reads (a `Pick` of it) and, besides, what is its own.
 */
import type { StateStore } from '../state/store.js'

/**
 * The time now, as the ISO 8601 string a run records (`started_at`, `executed_at`, events): the machine's
 * ({@link systemClock}), or a test's. Where a function is given the time rather than a clock, it is a `now: string`.
 */
export type Clock = () => string

export const systemClock: Clock = () => new Date().toISOString()

/** `execute` runs the executor and commits; `verify` runs the commands alone against the code as it is. */
export type RunMode = 'execute' | 'verify'

export interface RunContext {
  store: StateStore
  /** The number. */
  n: number
  mode: RunMode
  now: Clock
  /** Values masked in everything recorded. */
  secrets: string[]
  /** Cancellation (Ctrl-C, a cancelled job): running commands are ended, nothing new starts. */
  signal?: AbortSignal | undefined
}
