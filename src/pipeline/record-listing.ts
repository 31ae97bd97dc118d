/**
 * The part of `sync` both hosts share: a listing of issues (GitHub's open issues for the action, a folder of
 * issue files for the CLI) merged into the run state, and the queue rebuilt from it, in one commit.
 *
 * The queue (src/queue) is rebuilt from the issues the run state tracks, and planned issues move to `queued`. Only
 * the plans the queue does not know yet are read, a hundred files per request (one GraphQL query on GitHub).
 */
import { z } from 'zod'
import {
  IssueStateSchema, QueueItemSchema, RunStateSchema, SolutionSchema, issueId,
  type IssueState, type IssueSummary, type QueueItem, type RunState, type SyncCursor,
} from '../model/index.js'
import { labelNames, type ApiIssue } from '../github/issues.js'
import { buildQueue, queueGroups, solutionFiles, type QueueCandidate } from '../queue/build.js'
import { openBlockers } from '../queue/blockers.js'
import { belongsInQueue, reusableItem } from '../queue/membership.js'
import { labelPriority, solutionPriority } from '../queue/priority.js'
import { statePaths, toStateJson } from '../model/state-layout.js'
import { CorruptStateError, readStateJson } from '../state/state-files.js'
import { transact, type StateSnapshot, type StateStore } from '../state/store.js'
import { contextOf, initialRunState, queuedIssue, recordIssues, type IssueRecord } from '../state/transitions.js'
import { simpleEvent } from './events.js'
import { appendEvent } from './issue-files.js'

/** The queue after the sync (rebuilt whenever the sync wrote, or when it had fallen behind the issues). */
export interface QueueSummary {
  items: number
  groups: number
  /** Planned issues this sync queued (planned → queued). */
  queued: number
  /** Items that left the queue: their issue finished (completed or failed), was closed, or is no longer planned. */
  left: number
  /** Planned issues left out because their plan or issue state could not be read (see the run state's errors). */
  skipped: number
}

export interface Listing {
  issues: ApiIssue[]
  /** Every open issue was listed (a first sync, a folder): issues missing from it are closed. */
  complete: boolean
}

export interface ListingCounts {
  added: number
  updated: number
  removed: number
  total: number
}

export interface RecordListingOptions {
  /** Only issues with this label are tracked. */
  label: string | null
  now: string
  /** The run state's sync cursor once `listing` is merged (a listing that is `not-modified` keeps the stored one). */
  cursor: SyncCursor | null
  /** The commit message's account of the issues: `20 open issues (+15 new, …)`. */
  describe: (counts: ListingCounts) => string
}

/**
 * Merges `listing` into the run state read in `snapshot` (`stored`) and rebuilds the queue, in one commit.
 * `not-modified`: no issue changed, and the queue is rebuilt all the same (nothing is written when it is current).
 */
export async function recordListing(
  store: StateStore, snapshot: StateSnapshot, stored: RunState | undefined, listing: Listing | 'not-modified', options: RecordListingOptions,
): Promise<{ counts: ListingCounts; commit: string | null; queue: QueueSummary }> {
  const merge = (run: RunState) => {
    if (listing === 'not-modified') return { run, counts: { added: 0, updated: 0, removed: 0, total: Object.keys(run.issues).length } }
    const merged = mergeIssues(run, listing.issues, { label: options.label, complete: listing.complete, now: options.now })
    return { run: { ...merged.run, sync: options.cursor }, counts: merged.counts }
  }
  // The plans and issue states the queue needs, read ahead in a few requests rather than one per file.
  const initial = await readAhead(store, snapshot, queuePaths(merge(stored ?? initialRunState(options.now)).run))

  let counts: ListingCounts = { added: 0, updated: 0, removed: 0, total: 0 }
  let queue = queueSummary(stored?.queue ?? [])
  const { commit } = await transact(
    store,
    async (current) => {
      const before = await readStateJson(current, statePaths.runState, RunStateSchema)
      const merged = merge(before ?? initialRunState(options.now))
      counts = merged.counts
      const ahead = await readAhead(store, current, queuePaths(merged.run))
      const requeued = await requeue(ahead, merged.run, options.now)
      queue = requeued.summary
      // Nothing to write when neither the issues (nor the cursor) nor the queue changed: a folder synced again as it was.
      if (before && !requeued.changed && toStateJson(merged.run) === toStateJson(before)) return null
      const issues = listing === 'not-modified' ? 'no issue changed' : options.describe(counts)
      return {
        message: `sync: ${issues}; queue: ${queue.items} solution${queue.items === 1 ? '' : 's'} in ${queue.groups} group${queue.groups === 1 ? '' : 's'} (${queue.queued} newly queued, ${queue.left} left)`,
        files: { [statePaths.runState]: toStateJson({ ...requeued.run, updated_at: options.now }), ...requeued.files },
      }
    },
    { prefetch: [statePaths.runState], initial },
  )
  return { counts, commit, queue }
}

function mergeIssues(
  run: RunState, listed: ApiIssue[], options: { label: string | null; complete: boolean; now: string },
): { run: RunState; counts: { added: number; updated: number; removed: number; total: number } } {
  const issues: Record<string, IssueSummary> = { ...run.issues }
  let added = 0
  let updated = 0
  let removed = 0
  const seen = new Set<string>()
  for (const issue of listed) {
    const id = issueId(issue.number)
    seen.add(id)
    const open = (issue.state ?? 'open') === 'open'
    const wanted = open && (!options.label || labelNames(issue).includes(options.label))
    const existing = issues[id]
    const priority = labelPriority(labelNames(issue))
    if (wanted) {
      if (!existing) added++
      else if (existing.title !== issue.title || existing.priority !== priority || existing.closed) updated++
      const { priority: _p, closed: _c, ...rest } = existing ?? { number: issue.number, title: issue.title, status: 'registered' as const, solution_id: null, updated_at: options.now }
      issues[id] = { ...rest, title: issue.title, ...(priority ? { priority } : {}) }
    } else if (existing && forget(existing)) {
      delete issues[id]
      removed++
    } else if (existing && !open && !existing.closed) {
      // Converge worked on it: its record stays, marked closed, and it leaves the queue.
      issues[id] = { ...existing, closed: true }
      updated++
    }
  }
  if (options.complete) {
    for (const [id, summary] of Object.entries(issues)) {
      if (seen.has(id)) continue
      if (forget(summary)) {
        delete issues[id]
        removed++
      } else if (!summary.closed && !options.label) {
        issues[id] = { ...summary, closed: true }
        updated++
      }
    }
  }
  const context = contextOf(issues)
  return {
    run: { ...run, status: run.status === 'pending' ? 'running' : run.status, phase: 'listing', issues, context },
    counts: { added, updated, removed, total: context.total_issues },
  }
}

/** A closed issue leaves the run state only if Converge never worked on it; otherwise its record stays. */
function forget(summary: IssueSummary): boolean {
  return summary.status === 'registered'
}

// ---------------------------------------------------------------------------
// The queue
// ---------------------------------------------------------------------------

const QueueSchema = z.array(QueueItemSchema)

export function queueSummary(items: readonly QueueItem[], extra: Partial<QueueSummary> = {}): QueueSummary {
  return { items: items.length, groups: queueGroups(items).length, queued: 0, left: 0, skipped: 0, ...extra }
}

/** The state files rebuilding the queue of `run` reads: plans not known to the queue yet, and the issue files of planned issues. */
function queuePaths(run: RunState): string[] {
  const items = new Map(run.queue.map((item) => [item.issue_id, item]))
  const paths: string[] = []
  for (const [id, summary] of Object.entries(run.issues)) {
    if (!belongsInQueue(summary)) continue
    if (!reusableItem(items.get(id), summary)) paths.push(statePaths.plan(summary.number))
    if (summary.status === 'planned') paths.push(statePaths.issue(summary.number), statePaths.events(summary.number))
  }
  return paths
}

/**
 * Rebuilds the queue from the issues of `run` that belong in it (see `belongsInQueue`), reading only the
 * plans the queue does not know yet (by solution id), and moves planned issues to queued: their
 * `issue.json`, an entry in `events.md` and their summary, all in the caller's one commit.
 */
async function requeue(snapshot: StateSnapshot, run: RunState, now: string): Promise<{ run: RunState; files: Record<string, string>; summary: QueueSummary; changed: boolean }> {
  const previous = new Map(run.queue.map((item) => [item.issue_id, item]))
  const candidates: QueueCandidate[] = []
  const planned = new Map<string, IssueState>()
  const problems: Array<{ issue_id: string; message: string }> = []
  for (const [id, summary] of Object.entries(run.issues)) {
    if (!belongsInQueue(summary)) continue
    const n = summary.number
    const item = previous.get(id)
    let facts: { solutionId: string; files: string[]; taskPriority: QueueItem['priority'] }
    if (reusableItem(item, summary)) facts = { solutionId: item.solution_id, files: item.files, taskPriority: item.priority_source === 'tasks' ? item.priority : undefined }
    else {
      const plan = await readSafely(snapshot, statePaths.plan(n), SolutionSchema)
      if (!plan.ok) {
        problems.push({ issue_id: id, message: `ISS-${n} is ${summary.status} but not queued: ${plan.reason}` })
        continue
      }
      facts = { solutionId: plan.value.id, files: solutionFiles(plan.value), taskPriority: solutionPriority(plan.value) }
    }
    if (summary.status === 'planned') {
      const issue = await readSafely(snapshot, statePaths.issue(n), IssueStateSchema)
      if (!issue.ok) {
        problems.push({ issue_id: id, message: `ISS-${n} is planned but not queued: ${issue.reason}` })
        continue
      }
      planned.set(id, issue.value)
    }
    const priority = summary.priority ?? facts.taskPriority ?? 'medium'
    candidates.push({ number: n, solutionId: facts.solutionId, status: summary.status, priority, prioritySource: summary.priority ? 'label' : 'tasks', files: facts.files, waitsFor: openBlockers(summary.blocked_by, run.issues) })
  }
  const items = buildQueue(candidates)

  const files: Record<string, string> = {}
  const records: IssueRecord[] = []
  for (const item of items) {
    const issue = planned.get(item.issue_id)
    if (!issue) continue
    const n = issue.number
    const queued = queuedIssue(issue, now)
    files[statePaths.issue(n)] = toStateJson(queued)
    const kind = item.group?.startsWith('S') ? 'sequential' : 'parallel'
    files[statePaths.events(n)] = appendEvent(
      await snapshot.read(statePaths.events(n)), n,
      simpleEvent(now, n, `queued as ${item.item_id}`, `**Solution**: ${item.solution_id} | **Group**: ${item.group} (${kind}, position ${item.position}) | **Why**: ${item.reason}`),
    )
    records.push({ issue: queued, note: `queued as ${item.item_id} in ${item.group}` })
  }
  let next: RunState = { ...run, queue: items }
  if (records.length) next = recordIssues(next, records, now)
  const errors = newProblems(run, problems, now)
  if (errors.length) next = { ...next, errors: [...next.errors, ...errors].slice(-50) }
  const kept = new Set(items.map((i) => i.issue_id))
  const changed = records.length > 0 || errors.length > 0 || toStateJson(QueueSchema.parse(items)) !== toStateJson(QueueSchema.parse(run.queue))
  next = { ...next, queue_built_at: changed || !run.queue_built_at ? now : run.queue_built_at }
  return {
    run: next,
    files,
    changed,
    summary: queueSummary(items, { queued: records.length, left: run.queue.filter((i) => !kept.has(i.issue_id)).length, skipped: problems.length }),
  }
}

/** Problems not recorded already as the issue's latest error, so that each sync does not repeat them. */
function newProblems(run: RunState, problems: Array<{ issue_id: string; message: string }>, now: string): RunState['errors'] {
  const latest = new Map<string, string>()
  for (const e of run.errors) if (e.issue_id) latest.set(e.issue_id, e.message)
  return problems.filter((p) => latest.get(p.issue_id) !== p.message).map((p) => ({ at: now, ...p }))
}

async function readSafely<S extends z.ZodType>(
  snapshot: StateSnapshot, path: string, schema: S,
): Promise<{ ok: true; value: z.output<S> } | { ok: false; reason: string }> {
  try {
    const value = await readStateJson(snapshot, path, schema)
    return value === undefined ? { ok: false, reason: `${path} is missing` } : { ok: true, value }
  } catch (error) {
    if (error instanceof CorruptStateError) return { ok: false, reason: error.message }
    throw error
  }
}

// ---------------------------------------------------------------------------
// Reading many state files at once
// ---------------------------------------------------------------------------

/** Files per read-ahead request: a GraphQL query of this many `file(path:)` fields stays small. */
const READ_AHEAD_CHUNK = 100

/** A snapshot with files read ahead at its head; other files are read from the snapshot it extends. */
class ReadAheadSnapshot implements StateSnapshot {
  constructor(readonly base: StateSnapshot, readonly texts: ReadonlyMap<string, string | undefined>) {}
  get head() {
    return this.base.head
  }
  read(path: string): Promise<string | undefined> {
    return this.texts.has(path) ? Promise.resolve(this.texts.get(path)) : this.base.read(path)
  }
}

/**
 * `snapshot` with `paths` read ahead, `READ_AHEAD_CHUNK` files per request (one GraphQL query each on
 * GitHub) instead of one request per file. The reads are taken at the snapshot's head: when the branch
 * has moved meanwhile (the commit will then be retried anyway), files are read from the snapshot itself.
 */
export async function readAhead(store: StateStore, snapshot: StateSnapshot, paths: readonly string[]): Promise<StateSnapshot> {
  const base = snapshot instanceof ReadAheadSnapshot ? snapshot.base : snapshot
  const texts = new Map(snapshot instanceof ReadAheadSnapshot ? snapshot.texts : [])
  const missing = [...new Set(paths)].filter((p) => !texts.has(p))
  if (!missing.length) return snapshot
  for (let i = 0; i < missing.length; i += READ_AHEAD_CHUNK) {
    const chunk = missing.slice(i, i + READ_AHEAD_CHUNK)
    const ahead = base.head === null ? base : await store.snapshot(chunk)
    const source = ahead.head === base.head ? ahead : base
    const read = await Promise.all(chunk.map((p) => source.read(p)))
    chunk.forEach((p, k) => texts.set(p, read[k]))
  }
  return new ReadAheadSnapshot(base, texts)
}
