import { GITHUB_COMMENT_LIMIT } from '../report/size.js'
import type { GitHubClient } from './client.js'
import type { RepoRef } from './issues.js'


/** The marker that finds an issue's sticky comment again (SPEC §8). */
export function stickyMarker(issueNumber: number): string {
  return `<!-- converge:ISS-${issueNumber} -->`
}

export interface StickyComment {
  id: number
  url: string
  created: boolean
  /** False when the comment already said exactly this (no request was made to edit it). */
  changed: boolean
}

/**
 * Creates or edits the issue's one Converge comment. The comment is found again by its marker at the
 * start of the body, among the bot's own comments only ({@link isOwnComment}); when it cannot be edited (deleted
 * meanwhile) a new one is created.
 */
export async function upsertStickyComment(
  client: GitHubClient, repo: RepoRef, issueNumber: number, body: string,
  /** Parts that change on every run (a link to the run): ignored when deciding whether to edit. */
  volatile?: RegExp,
): Promise<StickyComment> {
  const marker = stickyMarker(issueNumber)
  const text = body.startsWith(marker) ? body : `${marker}\n${body}`
  if (text.length > GITHUB_COMMENT_LIMIT) throw new Error(`Comment for ISS-${issueNumber} is ${text.length} characters; GitHub allows ${GITHUB_COMMENT_LIMIT}`)
  const existing = await findSticky(client, repo, issueNumber, marker)
  if (existing) {
    const comparable = (t: string) => (volatile ? t.replace(new RegExp(volatile.source, 'g'), '') : t)
    if (comparable(existing.body) === comparable(text)) return { id: existing.id, url: existing.html_url, created: false, changed: false }
    try {
      const { data } = await client.rest.issues.updateComment({ ...repo, comment_id: existing.id, body: text })
      return { id: data.id, url: data.html_url, created: false, changed: true }
    } catch (error) {
      const status = (error as { status?: number }).status
      if (status !== 403 && status !== 404) throw error
    }
  }
  const { data } = await client.rest.issues.createComment({ ...repo, issue_number: issueNumber, body: text })
  return { id: data.id, url: data.html_url, created: true, changed: true }
}

async function findSticky(client: GitHubClient, repo: RepoRef, issueNumber: number, marker: string) {
  const comments = client.octokit.paginate.iterator(client.rest.issues.listComments, { ...repo, issue_number: issueNumber, per_page: 100 })
  let found: { id: number; body: string; html_url: string } | undefined
  for await (const page of comments) {
    for (const comment of page.data)
      if (comment.body?.startsWith(marker) && (await isOwnComment(client, comment.user))) found = { id: comment.id, body: comment.body, html_url: comment.html_url }
  }
  return found
}

/** The account a workflow's `GITHUB_TOKEN` writes as. */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]'

type CommentAuthor = { login: string; type?: string } | null | undefined

const tokenLogins = new WeakMap<GitHubClient, Promise<string | undefined>>()

/**
 * Is this comment the bot's own: written by `github-actions[bot]` or by the token's account (`GET /user`, asked
 * once and only when another author wrote the marker: a personal access token's user). An installation token
 * cannot ask who it is (`GET /user` answers 403): then a comment by an account of type Bot counts, which only an
 * installed app can write. A marker in anybody else's comment is someone imitating the bot, and is ignored.
 */
export async function isOwnComment(client: GitHubClient, author: CommentAuthor): Promise<boolean> {
  if (!author) return false
  if (author.login === ACTIONS_BOT_LOGIN) return true
  let login = tokenLogins.get(client)
  if (!login) {
    login = client.rest.users.getAuthenticated().then(
      ({ data }) => data.login,
      (error: { status?: number }) => {
        if (error.status !== 401 && error.status !== 403 && error.status !== 404) throw error
        return undefined // an installation token
      },
    )
    tokenLogins.set(client, login)
    login.catch(() => tokenLogins.delete(client)) // GitHub failing: asked again next time
  }
  const own = await login
  return own === undefined ? author.type === 'Bot' : author.login === own
}

/** A short answer to a command (a refusal, the command list, …). */
export async function replyToIssue(client: GitHubClient, repo: RepoRef, issueNumber: number, body: string): Promise<void> {
  await client.rest.issues.createComment({ ...repo, issue_number: issueNumber, body })
}

export type Reaction = '+1' | '-1' | 'eyes' | 'rocket' | 'confused'

/** Acknowledges a command comment; a failure to react never fails the command. */
export async function reactToComment(client: GitHubClient, repo: RepoRef, commentId: number, content: Reaction): Promise<void> {
  try {
    await client.rest.reactions.createForIssueComment({ ...repo, comment_id: commentId, content })
  } catch {
    // Reactions are a courtesy: the reply or the sticky comment carries the answer.
  }
}

/** A comment as GitHub records it: who wrote it, what it says, where, and whether it was edited since. */
export interface RecordedComment {
  id: number
  author?: { login: string; type?: string }
  body: string
  /** The issue or pull request it is on. */
  on: number
  createdAt: string
  /** True when GitHub records a change since the comment was made (`updated_at` later than `created_at`). */
  edited: boolean
}

function recorded(comment: { id: number; user?: { login: string; type?: string } | null; body?: string | null; issue_url: string; created_at: string; updated_at: string }): RecordedComment {
  return {
    id: comment.id,
    ...(comment.user ? { author: { login: comment.user.login, ...(comment.user.type ? { type: comment.user.type } : {}) } } : {}),
    body: comment.body ?? '',
    on: Number(/\/issues\/(\d+)$/.exec(comment.issue_url)?.[1]),
    createdAt: comment.created_at,
    edited: Date.parse(comment.updated_at) > Date.parse(comment.created_at),
  }
}

/** The comment `id` as GitHub has it now, or undefined when it no longer exists. */
export async function readComment(client: GitHubClient, repo: RepoRef, id: number): Promise<RecordedComment | undefined> {
  try {
    const { data } = await client.rest.issues.getComment({ ...repo, comment_id: id })
    return recorded(data)
  } catch (error) {
    if ((error as { status?: number }).status !== 404) throw error
    return undefined
  }
}

/** The bot's own comments on an issue that contain `marker` (see {@link isOwnComment}), oldest first. */
export async function ownCommentsWith(client: GitHubClient, repo: RepoRef, issueNumber: number, marker: string): Promise<RecordedComment[]> {
  const found: RecordedComment[] = []
  const comments = client.octokit.paginate.iterator(client.rest.issues.listComments, { ...repo, issue_number: issueNumber, per_page: 100 })
  for await (const page of comments)
    for (const comment of page.data) if (comment.body?.includes(marker) && (await isOwnComment(client, comment.user))) found.push(recorded(comment))
  return found
}

/** Posts a comment and returns its id. */
export async function postComment(client: GitHubClient, repo: RepoRef, issueNumber: number, body: string): Promise<number> {
  const { data } = await client.rest.issues.createComment({ ...repo, issue_number: issueNumber, body })
  return data.id
}
