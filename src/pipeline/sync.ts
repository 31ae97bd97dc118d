import { RunStateSchema, type RunState, type SyncCursor } from '../model/index.js'
import type { GitHubClient } from '../github/client.js'
import { followingPages, listIssuesPage, type IssuePage, type RepoRef } from '../github/issues.js'
import type { IssueDocument } from '../planners/types.js'
import { queueIsCurrent } from '../queue/membership.js'
import { statePaths } from '../model/state-layout.js'
import { readStateJson } from '../state/state-files.js'
import type { StateStore } from '../state/store.js'
import { queueSummary, recordListing, type Listing, type QueueSummary } from './record-listing.js'

export { readAhead, type QueueSummary } from './record-listing.js'

export interface SyncResult {
  /** GitHub answered 304 to the conditional listing (or the folder held what the run state knew): nothing was written. */
  unchanged: boolean
  added: number
  updated: number
  removed: number
  total: number
  commit: string | null
  queue: QueueSummary
}

const PER_PAGE = 100

/**
 * `sync`: reads the repository's open issues (with `label`, when given) into the run state.
 *
 * The first sync lists every open issue. Later ones list only issues updated since the last one (closed
 * ones included, so closures are seen), newest first, and send the ETag of that listing's first page:
 * while nothing changed GitHub answers 304, which costs no rate limit, and nothing is written.
 *
 * In the same commit it rebuilds the queue (see `recordListing`). With nothing new on GitHub it still rebuilds
 * when planning or execution left the queue behind (an issue planned or finished since), else it stays at two
 * requests and no commit.
 */
export async function syncIssues(
  store: StateStore, client: GitHubClient, repo: RepoRef, options: { label?: string; now: string },
): Promise<SyncResult> {
  const label = options.label?.trim() || null
  const snapshot = await store.snapshot([statePaths.runState])
  const stored = await readStateJson(snapshot, statePaths.runState, RunStateSchema)
  const cursor = stored?.sync && stored.sync.label === label ? stored.sync : null

  const listing = await listChanges(client, repo, label, cursor)
  // Nothing changed on GitHub; the queue is rebuilt all the same when planning or execution left it behind.
  if (listing === 'not-modified' && (!stored || queueIsCurrent(stored)))
    return { unchanged: true, added: 0, updated: 0, removed: 0, total: Object.keys(stored?.issues ?? {}).length, commit: null, queue: queueSummary(stored?.queue ?? []) }

  let nextCursor: SyncCursor | null = stored?.sync ?? null
  if (listing !== 'not-modified') {
    // Learn the ETag of the next sync's listing now, so that an unchanged repository costs nothing next time.
    const since = latest(listing.issues.map((i) => i.updated_at), cursor?.since)
    const next = since === undefined ? undefined : await listIssuesPage(client, repo, incrementalQuery(since))
    nextCursor = since === undefined
      ? null
      : { label, since, etag: next && !next.notModified ? next.etag ?? null : null, synced_at: options.now }
  }
  const { counts, commit, queue } = await recordListing(store, snapshot, stored, listing, {
    label, now: options.now, cursor: nextCursor, describe: (c) => `${c.total} open issue${c.total === 1 ? '' : 's'} (+${c.added} new, ${c.updated} updated, -${c.removed} closed)`,
  })
  return { unchanged: commit === null && listing === 'not-modified', ...counts, commit, queue }
}

/**
 * `sync` of the CLI from a folder of issue files: the folder is the whole list of open issues (a file removed
 * since the last sync is an issue closed: it leaves the queue), merged and queued as GitHub's are. The run state's
 * GitHub cursor is dropped, so that a later `sync` from GitHub lists every open issue again.
 */
export async function syncIssueDocuments(store: StateStore, documents: readonly IssueDocument[], options: { now: string }): Promise<SyncResult> {
  const snapshot = await store.snapshot([statePaths.runState])
  const stored: RunState | undefined = await readStateJson(snapshot, statePaths.runState, RunStateSchema)
  const listing: Listing = {
    issues: documents.map((d) => ({ number: d.number, title: d.title, state: 'open', labels: [...d.labels] })),
    complete: true,
  }
  const { counts, commit, queue } = await recordListing(store, snapshot, stored, listing, {
    label: null, now: options.now, cursor: null, describe: (c) => `${c.total} issue file${c.total === 1 ? '' : 's'} (+${c.added} new, ${c.updated} updated, -${c.removed} removed)`,
  })
  return { unchanged: commit === null, ...counts, commit, queue }
}

async function listChanges(
  client: GitHubClient, repo: RepoRef, label: string | null, cursor: SyncCursor | null,
): Promise<Listing | 'not-modified'> {
  const query = cursor
    ? incrementalQuery(cursor.since)
    : { state: 'open', sort: 'updated', direction: 'desc', per_page: PER_PAGE, ...(label ? { labels: label } : {}) }
  const first = await listIssuesPage(client, repo, query, cursor?.etag ?? undefined)
  if (first.notModified) return 'not-modified'
  const issues = [...first.issues]
  for await (const page of followingPages(client, first as IssuePage)) issues.push(...page)
  return { issues: issues.filter((i) => !i.pull_request), complete: !cursor }
}

/**
 * Issues updated since `since`, open or closed, any label: a label removed since the last sync must be
 * seen too. The query is the same for every sync from one cursor, so its ETag can be reused.
 */
function incrementalQuery(since: string) {
  return { state: 'all', sort: 'updated', direction: 'desc', per_page: PER_PAGE, since }
}

function latest(dates: Array<string | undefined>, floor: string | undefined): string | undefined {
  let max = floor
  for (const d of dates) if (d && (!max || d > max)) max = d
  return max
}
