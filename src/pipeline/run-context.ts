/**
 * What the modules of one run share — start (`run-start.ts`), schedule (`run-schedule.ts`), record
 * (`run-record.ts`), finish (`run-finish.ts`), and scale-out's one task (`scale-out/execute-task.ts`): the state
 * branch it is recorded on, the issue, the mode, the clock and the values to mask. Each function takes the part it
 * reads (a `Pick` of it) and, besides, what is its own.
 */
import type { StateStore } from '../state/store.js'

/** `execute` runs the executor and commits; `verify` runs the commands alone against the code as it is. */
export type RunMode = 'execute' | 'verify'

export interface RunContext {
  store: StateStore
  /** The number. */
  n: number
  mode: RunMode
  now: () => string
  /** Values masked in everything recorded. */
  secrets: string[]
  /** Cancellation (Ctrl-C, a cancelled job): running commands are ended, nothing new starts. */
  signal?: AbortSignal | undefined
}
