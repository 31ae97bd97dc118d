/** What a queued issue still waits for. Pure. */
import type { IssueStatus, RunState } from '../model/index.js'

/** An issue another one is blocked by, with its status in the state as people read it (see `blockerStatus`). */
export interface Blocker {
  number: number
  status: string
}

/** A blocker's status for a reason or a comment: `not planned` while Converge has done no more than register it. */
export function blockerStatus(status: IssueStatus | undefined): string {
  return status === undefined || status === 'registered' ? 'not planned' : status
}

/**
 * The blockers in `blockedBy` that are not done: a blocker completed in the state, or closed on GitHub, is
 * done. So is one `sync` does not track: it lists every open issue, so an untracked one is closed (or outside
 * the label `sync` was asked to follow, where the execute gate asks GitHub about it).
 */
export function openBlockers(blockedBy: readonly number[] | undefined, issues: RunState['issues']): Blocker[] {
  const open: Blocker[] = []
  for (const number of blockedBy ?? []) {
    const summary = issues[`ISS-${number}`]
    if (!summary || summary.closed || summary.status === 'completed') continue
    open.push({ number, status: blockerStatus(summary.status) })
  }
  return open
}
