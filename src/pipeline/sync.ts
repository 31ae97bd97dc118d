import { issueId, RunStateSchema, type IssueSummary, type RunState, type SyncCursor } from '../model/index.js'
import type { GitHubClient } from '../github/client.js'
import { followingPages, labelNames, listIssuesPage, type ApiIssue, type IssuePage, type RepoRef } from '../github/issues.js'
import { statePaths, toStateJson } from '../state/layout.js'
import { readStateJson } from '../state/state-files.js'
import { transact, type StateStore } from '../state/store.js'
import { contextOf, initialRunState } from '../state/transitions.js'

export interface SyncResult {
  /** GitHub answered 304 to the conditional listing: nothing changed, nothing was written. */
  unchanged: boolean
  added: number
  updated: number
  removed: number
  total: number
  commit: string | null
}

const PER_PAGE = 100

/**
 * `sync`: reads the repository's open issues (with `label`, when given) into the run state.
 *
 * The first sync lists every open issue. Later ones list only issues updated since the last one (closed
 * ones included, so closures are seen), newest first, and send the ETag of that listing's first page:
 * while nothing changed GitHub answers 304, which costs no rate limit, and nothing is written.
 */
export async function syncIssues(
  store: StateStore, client: GitHubClient, repo: RepoRef, options: { label?: string; now: string },
): Promise<SyncResult> {
  const label = options.label?.trim() || null
  const snapshot = await store.snapshot([statePaths.runState])
  const stored = await readStateJson(snapshot, statePaths.runState, RunStateSchema)
  const cursor = stored?.sync && stored.sync.label === label ? stored.sync : null

  const listing = await listChanges(client, repo, label, cursor)
  if (listing === 'not-modified') return { unchanged: true, added: 0, updated: 0, removed: 0, total: Object.keys(stored?.issues ?? {}).length, commit: null }

  // Learn the ETag of the next sync's listing now, so that an unchanged repository costs nothing next time.
  const since = latest(listing.issues.map((i) => i.updated_at), cursor?.since)
  const next = since === undefined ? undefined : await listIssuesPage(client, repo, incrementalQuery(since))
  const nextCursor: SyncCursor | null = since === undefined
    ? null
    : { label, since, etag: next && !next.notModified ? next.etag ?? null : null, synced_at: options.now }

  let counts = { added: 0, updated: 0, removed: 0, total: 0 }
  const { commit } = await transact(
    store,
    async (current) => {
      const run = (await readStateJson(current, statePaths.runState, RunStateSchema)) ?? initialRunState(options.now)
      const merged = mergeIssues(run, listing.issues, { label, complete: listing.complete, now: options.now })
      counts = merged.counts
      const synced = { ...merged.run, sync: nextCursor, updated_at: options.now }
      return {
        message: `sync: ${counts.total} open issue${counts.total === 1 ? '' : 's'} (+${counts.added} new, ${counts.updated} updated, -${counts.removed} closed)`,
        files: { [statePaths.runState]: toStateJson(synced) },
      }
    },
    { prefetch: [statePaths.runState], initial: snapshot },
  )
  return { unchanged: false, ...counts, commit }
}

interface Listing {
  issues: ApiIssue[]
  /** Every open issue was listed (a first sync): issues missing from it are closed. */
  complete: boolean
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
    const wanted = (issue.state ?? 'open') === 'open' && (!options.label || labelNames(issue).includes(options.label))
    const existing = issues[id]
    if (wanted) {
      if (!existing) added++
      else if (existing.title !== issue.title) updated++
      issues[id] = existing
        ? { ...existing, title: issue.title }
        : { number: issue.number, title: issue.title, status: 'registered', solution_id: null, updated_at: options.now }
    } else if (existing && forget(existing)) {
      delete issues[id]
      removed++
    }
  }
  if (options.complete) {
    for (const [id, summary] of Object.entries(issues)) {
      if (!seen.has(id) && forget(summary)) {
        delete issues[id]
        removed++
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

function latest(dates: Array<string | undefined>, floor: string | undefined): string | undefined {
  let max = floor
  for (const d of dates) if (d && (!max || d > max)) max = d
  return max
}
