/**
 * The naive way to keep state in a repository, for comparison only: one Contents API call per file (read
 * for its sha, then write: a commit per file, not atomic) and listing every open issue on every sync with
 * no conditional requests. Not used by Converge.
 */
import type { GitHubClient } from '../src/github/client.js'
import type { RepoRef } from '../src/github/issues.js'

export async function naiveWriteFiles(client: GitHubClient, repo: RepoRef, branch: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    let sha: string | undefined
    try {
      const { data } = await client.rest.repos.getContent({ ...repo, path, ref: branch })
      sha = (data as { sha: string }).sha
    } catch (error) {
      if ((error as { status?: number }).status !== 404) throw error
    }
    await client.rest.repos.createOrUpdateFileContents({
      ...repo, path, branch, message: `update ${path}`, content: Buffer.from(content).toString('base64'), ...(sha ? { sha } : {}),
    })
  }
}

export async function naiveSync(client: GitHubClient, repo: RepoRef, branch: string): Promise<number> {
  const issues = await client.octokit.paginate(client.rest.issues.listForRepo, { ...repo, state: 'open', per_page: 100 })
  const open = issues.filter((i) => !i.pull_request)
  await naiveWriteFiles(client, repo, branch, { '.converge/state.json': JSON.stringify({ issues: open.map((i) => i.number) }) })
  return open.length
}
