import type { GitHubClient } from './client.js'
import type { RepoRef } from './issues.js'

export interface DraftPullRequest {
  /** The work branch, in the same repository. */
  head: string
  base: string
  title: string
  body: string
}

export interface PullRequestRef {
  number: number
  url: string
  headSha: string
  created: boolean
}

/**
 * Opens the work branch's draft pull request, or updates the open one (title and body only when they
 * changed: a rerun with nothing new makes no edit). A pull request someone marked ready for review stays so.
 */
export async function upsertDraftPullRequest(client: GitHubClient, repo: RepoRef, pull: DraftPullRequest): Promise<PullRequestRef> {
  const { data: open } = await client.rest.pulls.list({ ...repo, state: 'open', head: `${repo.owner}:${pull.head}`, per_page: 1 })
  const existing = open[0]
  if (existing) {
    if (existing.title !== pull.title || (existing.body ?? '') !== pull.body) {
      await client.rest.pulls.update({ ...repo, pull_number: existing.number, title: pull.title, body: pull.body })
    }
    return { number: existing.number, url: existing.html_url, headSha: existing.head.sha, created: false }
  }
  const { data } = await client.rest.pulls.create({ ...repo, head: pull.head, base: pull.base, title: pull.title, body: pull.body, draft: true })
  return { number: data.number, url: data.html_url, headSha: data.head.sha, created: true }
}

export interface PullRequestHead {
  sha: string
  /** `owner/repo` of the head: differs from the base repository for a pull request from a fork. */
  repository: string
  fromFork: boolean
  ref: string
  /** The branch it merges into, and that branch's commit it is compared with (`verify` runs the baseline there). */
  base: { ref: string; sha: string }
}

/** A pull request's description and head branch: what tells the issue it works on. */
export async function pullRequestBodyAndHead(client: GitHubClient, repo: RepoRef, number: number): Promise<{ body: string | null; head: { ref: string; sha: string } }> {
  const { data } = await client.rest.pulls.get({ ...repo, pull_number: number })
  return { body: data.body ?? null, head: { ref: data.head.ref, sha: data.head.sha } }
}

/** The head of a pull request: what `verify` on a pull request checks. */
export async function pullRequestHead(client: GitHubClient, repo: RepoRef, number: number): Promise<PullRequestHead> {
  const { data } = await client.rest.pulls.get({ ...repo, pull_number: number })
  const repository = data.head.repo?.full_name ?? '(deleted repository)'
  return {
    sha: data.head.sha,
    repository,
    fromFork: repository.toLowerCase() !== `${repo.owner}/${repo.repo}`.toLowerCase(),
    ref: data.head.ref,
    base: { ref: data.base.ref, sha: data.base.sha },
  }
}
