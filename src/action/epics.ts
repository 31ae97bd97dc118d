/**
 * Epics, sub-issues and dependencies in a workflow run: what GitHub says of an issue's relations before it is
 * planned, the epic's comment, and its roll-up when a child changes.
 */
import { upsertStickyComment } from '../github/comments.js'
import { readIssue, type ApiIssue } from '../github/issues.js'
import * as core from '@actions/core'
import { inRepository, listBlockedBy, listSubIssues, parentIssue, type RelatedIssue } from '../github/relations.js'
import type { IssueState } from '../model/index.js'
import { readEpic } from '../planners/epic.js'
import { refreshEpic, renderEpicComment, type EpicChildState, type GitHubRelations } from '../pipeline/epic.js'
import { issueFilePaths, readIssueFiles } from '../pipeline/issue-files.js'
import type { Session } from './session.js'

/** What an issue object of the REST API (and of recent webhook payloads) says of its relations. */
interface RelationSummaries {
  sub_issues_summary?: { total: number }
  issue_dependencies_summary?: { total_blocked_by: number }
  parent_issue_url?: string | null
}

/**
 * The issue's sub-issues, parent and `blocked_by` dependencies on GitHub. The issue object's summaries say which
 * of them exist, so a plain issue costs no request (or one, to read the issue when `issue` predates them); each
 * relation it has costs one more.
 */
export async function githubRelations(session: Session, n: number, issue?: ApiIssue): Promise<GitHubRelations> {
  const { client, ctx } = session
  let facts = issue as (ApiIssue & RelationSummaries) | undefined
  if (facts?.sub_issues_summary === undefined || facts.issue_dependencies_summary === undefined) {
    facts = (await readIssue(client, ctx.repo, n)) as ApiIssue & RelationSummaries
  }
  // A GitHub without these fields (an older GitHub Enterprise Server) is asked directly.
  const known = facts.sub_issues_summary !== undefined && facts.issue_dependencies_summary !== undefined
  // One without the endpoints answers 404: there are none of these relations on that GitHub, said once.
  let missing = false
  const noneWhere404 = (request: Promise<RelatedIssue[]>) => request.catch((error: unknown) => {
    if ((error as { status?: number }).status !== 404) throw error
    missing = true
    return []
  })
  const [subIssues, parent, blockedBy] = await Promise.all([
    !known || facts.sub_issues_summary!.total > 0 ? noneWhere404(listSubIssues(client, ctx.repo, n)) : [],
    !known || facts.parent_issue_url ? parentIssue(client, ctx.repo, n) : undefined,
    !known || facts.issue_dependencies_summary!.total_blocked_by > 0 ? noneWhere404(listBlockedBy(client, ctx.repo, n)) : [],
  ])
  if (missing) core.notice(`Converge: this GitHub has no sub-issue or issue-dependency endpoints (404): #${n} is planned without sub-issues or dependencies from GitHub (those its text names still count)`)
  return {
    repo: ctx.repo,
    subIssues: subIssues.filter((i) => inRepository(i, ctx.repo)).map((i) => ({ number: i.number, title: i.title, ...(i.state ? { state: i.state } : {}) })),
    ...(parent && inRepository(parent, ctx.repo) ? { parent: parent.number } : {}),
    blockedBy: blockedBy.filter((i) => inRepository(i, ctx.repo)).map((i) => i.number),
  }
}

/** Posts (or updates) the epic's sticky comment: its children and their states. Returns its id. */
export async function publishEpicComment(
  session: Session, epic: { number: number; title: string }, state: Pick<IssueState, 'status' | 'error'>, children: readonly EpicChildState[],
): Promise<number | undefined> {
  if (session.inputs['dry-run']) return undefined
  const body = renderEpicComment(epic, state, children, session.inputs['command-prefix'])
  return (await upsertStickyComment(session.client, session.ctx.repo, epic.number, body)).id
}

/** The children of an epic that are done outside Converge: ticked in the epic's list, or closed on GitHub. */
export async function doneChildren(session: Session, epicBody: string, children: readonly number[]): Promise<Set<number>> {
  const done = new Set((readEpic(epicBody, session.ctx.repo)?.children ?? []).filter((c) => c.done).map((c) => c.number))
  for (const child of children) {
    if (!done.has(child) && (await readIssue(session.client, session.ctx.repo, child)).state === 'closed') done.add(child)
  }
  return done
}

/**
 * After issue `n` changed (planned, executed), rolls up the epic it is a child of, if any (`parent`, when the
 * caller has the issue's state; else it is read), from its children's states and what GitHub and the epic's list
 * say is done; the epic's comment follows.
 */
export async function rollUpParent(session: Session, n: number, parent?: number | null): Promise<void> {
  if (session.inputs['dry-run']) return
  const epicNumber = parent === undefined
    ? (await readIssueFiles(await session.store.snapshot(issueFilePaths(n)), n, session.now)).issue?.parent
    : parent ?? undefined
  if (!epicNumber) return
  const { issue: epic } = await readIssueFiles(await session.store.snapshot(issueFilePaths(epicNumber)), epicNumber, session.now)
  if (!epic?.children?.length) return
  const body = (await readIssue(session.client, session.ctx.repo, epicNumber)).body ?? ''
  const rolled = await refreshEpic(session.store, epicNumber, await doneChildren(session, body, epic.children), new Date().toISOString())
  if (rolled) await publishEpicComment(session, { number: epicNumber, title: rolled.issueState.title }, rolled.issueState, rolled.children)
}
