/** Which issues the queue holds, and whether a stored queue still matches the run state. Pure. */
import type { IssueStatus, IssueSummary, QueueItem, RunState } from '../model/index.js'

/**
 * Issues whose solution is queued: planned (approved or not: approval gates execution, not order, and an
 * unapproved solution changes the same files once approved), queued, and started ones (executing, or
 * paused mid-run) until they finish. Completed and failed issues leave the queue at the next `sync`; until
 * then their items show that status. Closed issues are never queued.
 */
export const QUEUE_STATUSES: readonly IssueStatus[] = ['planned', 'queued', 'executing', 'paused']

export function belongsInQueue(summary: IssueSummary): boolean {
  return QUEUE_STATUSES.includes(summary.status) && summary.solution_id !== null && !summary.closed
}

/**
 * What the stored queue item already knows of the issue's current solution (its files and, without a
 * priority label, the priority of its tasks), so that rebuilding the queue need not read its plan again.
 * A solution's id changes whenever its content does (SOL-ISS-<n>-<seq>), so the id is the cache key.
 */
export function reusableItem(item: QueueItem | undefined, summary: IssueSummary): item is QueueItem & { files: string[] } {
  if (!item || item.solution_id !== summary.solution_id || item.files === undefined) return false
  return summary.priority !== undefined || (item.priority_source === 'tasks' && item.priority !== undefined)
}

/**
 * True when rebuilding the queue would change nothing but its timestamp: every issue that belongs in it
 * is queued already (none waits in `planned`), with its current solution and priority, and nothing else is
 * in it. A `sync` that finds no change on GitHub uses it to stay free.
 */
export function queueIsCurrent(run: RunState): boolean {
  const items = new Map(run.queue.map((item) => [item.issue_id, item]))
  let members = 0
  for (const [id, summary] of Object.entries(run.issues)) {
    if (!belongsInQueue(summary)) continue
    if (summary.status === 'planned') return false
    const item = items.get(id)
    if (!item || item.group === undefined || !reusableItem(item, summary)) return false
    if (summary.priority !== undefined ? item.priority !== summary.priority || item.priority_source !== 'label' : item.priority_source !== 'tasks') return false
    members++
  }
  return members === run.queue.length && items.size === run.queue.length
}
