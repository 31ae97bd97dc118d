import type { GitHubClient } from '../github/client.js'
import type { RepoRef } from '../github/issues.js'
import { pullRequestBodyAndHead } from '../github/pull-requests.js'
import { issueOfWorkBranch } from '../model/state-layout.js'

const KEYWORD = String.raw`\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b:?\s+`

/**
 * Issues a pull request body closes with GitHub's closing keywords ("Closes #42", "fixes o/r#42",
 * "Resolves https://github.com/o/r/issues/42"), in this repository only.
 */
export function closedIssues(body: string, repo: RepoRef, serverUrl: string): number[] {
  const name = `${escape(repo.owner)}/${escape(repo.repo)}`
  const reference = String.raw`(?:#|${name}#|${escape(serverUrl)}/${name}/issues/)(\d+)\b`
  const found = new Set<number>()
  for (const match of body.matchAll(new RegExp(KEYWORD + reference, 'gi'))) found.add(Number(match[1]))
  return [...found]
}

/** The issue a pull request works on: its closing keywords first, then a Converge work branch. */
export async function issueOfPullRequest(
  client: GitHubClient, repo: RepoRef, serverUrl: string, pull: { number: number; body?: string | null },
): Promise<{ issue: number; headSha: string } | { issue: undefined; headSha: string }> {
  const data = await pullRequestBodyAndHead(client, repo, pull.number)
  const [closed] = closedIssues(data.body ?? pull.body ?? '', repo, serverUrl)
  return { issue: closed ?? issueOfWorkBranch(data.head.ref), headSha: data.head.sha }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
