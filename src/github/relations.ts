/**
 * Sub-issues and issue dependencies over GitHub's REST API (through the client, so retries, throttling and
 * request accounting apply). The write endpoints take an issue's database `id`, not its number.
 */
import type { GitHubClient } from './client.js'
import type { ApiIssue, RepoRef } from './issues.js'

/** An issue as these endpoints return it: the fields Converge reads, and the database id the write endpoints take. */
export type RelatedIssue = ApiIssue & { id: number; state?: string; repository_url?: string }

/**
 * Whether a related issue is in `repo`. Sub-issues and dependencies may cross repositories; Converge tracks
 * issues by number in one repository, so an issue of another one is not taken for the issue of that number here.
 */
export function inRepository(issue: Pick<RelatedIssue, 'repository_url'>, repo: RepoRef): boolean {
  if (!issue.repository_url) return true
  return issue.repository_url.toLowerCase().endsWith(`/repos/${repo.owner}/${repo.repo}`.toLowerCase())
}

/** The token cannot change issues (a workflow without `issues: write`): said plainly, with the fix. */
export class IssuesPermissionError extends Error {
  override readonly name = 'IssuesPermissionError'

  constructor(what: string, status: number, githubMessage: string) {
    super(
      `Cannot ${what}: GitHub answered ${status} (${githubMessage}). The token needs the "issues: write" permission: ` +
        'add `issues: write` under `permissions:` in the workflow.',
    )
  }
}

async function writing<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request()
  } catch (error) {
    const failure = error as { status?: number; response?: { data?: { message?: string } } }
    if (failure.status === 403 && !/rate limit/i.test(failure.response?.data?.message ?? ''))
      throw new IssuesPermissionError(what, 403, failure.response?.data?.message ?? 'Forbidden')
    throw error
  }
}

/** The sub-issues of issue `number`, in the parent's order (every page). */
export async function listSubIssues(client: GitHubClient, repo: RepoRef, number: number): Promise<RelatedIssue[]> {
  return (await client.octokit.paginate(client.rest.issues.listSubIssues, { ...repo, issue_number: number, per_page: 100 })) as RelatedIssue[]
}

/** The parent of issue `number`, or undefined when it is no sub-issue. */
export async function parentIssue(client: GitHubClient, repo: RepoRef, number: number): Promise<RelatedIssue | undefined> {
  try {
    return (await client.rest.issues.getParent({ ...repo, issue_number: number })).data as RelatedIssue
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined
    throw error
  }
}

/** The issues issue `number` is blocked by (every page). */
export async function listBlockedBy(client: GitHubClient, repo: RepoRef, number: number): Promise<RelatedIssue[]> {
  return (await client.octokit.paginate(client.rest.issues.listDependenciesBlockedBy, { ...repo, issue_number: number, per_page: 100 })) as RelatedIssue[]
}

/** Makes `child` (a database id) a sub-issue of issue `parent` (a number). */
export async function addSubIssue(client: GitHubClient, repo: RepoRef, parent: number, child: { id: number; number: number }): Promise<void> {
  await writing(`add #${child.number} as a sub-issue of #${parent}`, () =>
    client.rest.issues.addSubIssue({ ...repo, issue_number: parent, sub_issue_id: child.id }))
}

/** Records that issue `number` is blocked by `blocker` (its database id). */
export async function addBlockedBy(client: GitHubClient, repo: RepoRef, number: number, blocker: { id: number; number: number }): Promise<void> {
  await writing(`mark #${number} as blocked by #${blocker.number}`, () =>
    client.rest.issues.addBlockedByDependency({ ...repo, issue_number: number, issue_id: blocker.id }))
}

/** Opens an issue. */
export async function createIssue(client: GitHubClient, repo: RepoRef, issue: { title: string; body: string }): Promise<RelatedIssue> {
  return writing(`open the issue "${issue.title}"`, async () => (await client.rest.issues.create({ ...repo, ...issue })).data as RelatedIssue)
}

/** Closes issue `number` as completed. */
export async function closeIssue(client: GitHubClient, repo: RepoRef, number: number): Promise<void> {
  await writing(`close #${number}`, () => client.rest.issues.update({ ...repo, issue_number: number, state: 'closed', state_reason: 'completed' }))
}
