import type { IssueDocument } from '../planners/types.js'
import type { GitHubClient } from './client.js'

export interface RepoRef {
  owner: string
  repo: string
}

/** The fields of a REST or webhook issue that Converge reads. */
export interface ApiIssue {
  number: number
  title: string
  body?: string | null
  state?: string
  labels?: Array<string | { name?: string | null }>
  user?: { login: string } | null
  html_url?: string
  updated_at?: string
  pull_request?: unknown
}

export function issueDocument(issue: ApiIssue): IssueDocument {
  return {
    number: issue.number,
    title: issue.title,
    body: issue.body ?? '',
    labels: labelNames(issue),
    ...(issue.user?.login ? { author: issue.user.login } : {}),
    ...(issue.html_url ? { url: issue.html_url } : {}),
  }
}

export function labelNames(issue: ApiIssue): string[] {
  return (issue.labels ?? []).map((l) => (typeof l === 'string' ? l : l.name ?? '')).filter(Boolean)
}

/** Reads one issue by number; a missing issue is an error that says which. */
export async function readIssue(client: GitHubClient, repo: RepoRef, number: number): Promise<ApiIssue> {
  try {
    const { data } = await client.rest.issues.get({ ...repo, issue_number: number })
    return data as ApiIssue
  } catch (error) {
    if ((error as { status?: number }).status === 404)
      throw new Error(`Issue #${number} was not found in ${repo.owner}/${repo.repo} (or the token cannot read it)`)
    throw error
  }
}

export interface IssuePage {
  issues: ApiIssue[]
  etag?: string
  next?: string
}

/**
 * One page of `GET /repos/{owner}/{repo}/issues`, conditional on `etag` when given: `notModified` means
 * GitHub answered 304, which costs no rate limit.
 */
export async function listIssuesPage(
  client: GitHubClient, repo: RepoRef, query: Record<string, string | number>, etag?: string,
): Promise<{ notModified: true } | ({ notModified: false } & IssuePage)> {
  try {
    const response = await client.octokit.request('GET /repos/{owner}/{repo}/issues', {
      ...repo,
      ...query,
      headers: etag ? { 'if-none-match': etag } : {},
    })
    const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.link ?? '')?.[1]
    return {
      notModified: false,
      issues: response.data as ApiIssue[],
      ...(response.headers.etag ? { etag: response.headers.etag } : {}),
      ...(next ? { next } : {}),
    }
  } catch (error) {
    if ((error as { status?: number }).status === 304) return { notModified: true }
    throw error
  }
}

/** Every page after the first, following the `Link: rel="next"` URLs GitHub gives. */
export async function* followingPages(client: GitHubClient, first: IssuePage): AsyncGenerator<ApiIssue[]> {
  for (let next = first.next; next; ) {
    const response = await client.octokit.request(`GET ${next}`)
    yield response.data as ApiIssue[]
    next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.link ?? '')?.[1]
  }
}
