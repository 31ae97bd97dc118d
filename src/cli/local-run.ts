/**
 * The local run that holds a plan while it runs (one execute, retry or verify of a plan at a time, SPEC §10): it is
 * named by its process and machine, so that a second run is refused with who holds the plan, and a run whose process
 * is gone (killed, the machine restarted) is taken over at once.
 */
import { hostname } from 'node:os'
import type { RunHolder } from '../pipeline/run-start.js'

/** A run of another machine (a shared folder) is taken over after this long without progress. */
const STALE_AFTER_MS = 6 * 3_600_000

let runs = 0

/** This process's run: `process 4242 on laptop` (`, run 2` for a later run of the same process). */
export function localHolder(): RunHolder {
  runs += 1
  return { run: `process ${process.pid} on ${hostname()}${runs > 1 ? `, run ${runs}` : ''}`, staleAfterMs: STALE_AFTER_MS, alive: localRunAlive }
}

/** Whether the process a local run names is still running; undefined for a run of another machine, or of a workflow. */
export function localRunAlive(run: string): boolean | undefined {
  const match = /^process (\d+) on (.+?)(?:, run \d+)?$/.exec(run)
  if (!match || match[2] !== hostname()) return undefined
  const pid = Number(match[1])
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
