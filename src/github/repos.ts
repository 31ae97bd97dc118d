/** The repository itself: its default branch, whether a branch exists, a person's permission, refs and blobs. */
import type { GitHubClient } from './client.js'
import type { RepoRef } from './issues.js'

/** The branch pull requests go into when the event does not say (`payload.repository.default_branch`). */
export async function defaultBranch(client: GitHubClient, repo: RepoRef): Promise<string> {
  return (await client.rest.repos.get({ ...repo })).data.default_branch
}

export async function branchExists(client: GitHubClient, repo: RepoRef, branch: string): Promise<boolean> {
  try {
    await client.rest.repos.getBranch({ ...repo, branch })
    return true
  } catch (error) {
    if ((error as { status?: number }).status === 404) return false
    throw error
  }
}

/** A person's permission on the repository as GitHub states it; undefined when they are not a collaborator. */
export async function collaboratorPermission(
  client: GitHubClient, repo: RepoRef, login: string,
): Promise<{ role_name?: string; permission: string } | undefined> {
  try {
    const { data } = await client.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: login })
    return data
  } catch (error) {
    if ((error as { status?: number }).status !== 404) throw error
    return undefined
  }
}

/** The commit a ref (`heads/<branch>`) points to; undefined when there is no such ref. */
export async function refTarget(client: GitHubClient, repo: RepoRef, ref: string): Promise<string | undefined> {
  try {
    const { data } = await client.rest.git.getRef({ ...repo, ref })
    return data.object.sha
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined
    throw error
  }
}

/** A blob's whole text, through the Git Data API (GraphQL truncates large ones). */
export async function blobText(client: GitHubClient, repo: RepoRef, sha: string): Promise<string> {
  const { data } = await client.rest.git.getBlob({ ...repo, file_sha: sha })
  return Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8')
}
