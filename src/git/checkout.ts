import { GitError, runGit } from './git.js'
import { fetchSealed, NO_CHECKOUT_PROGRAMS, sealedLocalEnv } from './sealed-remote.js'
import { WorkBranchError, type GitRemote } from './work-branch.js'

/**
 * Puts the checkout at `sha` (a pull request's head, for `verify`), fetching `ref` from the remote when the
 * commit is not there yet. Refuses to throw away uncommitted changes to tracked files. Its status and checkout run
 * none of the programs the checkout's \`.git\` names (hooks, fsmonitor, filter and merge drivers): a command that ran
 * before (a pull request's base, an executor) may have planted them.
 */
export async function checkoutCommit(repoDir: string, sha: string, fetch: { remote?: GitRemote; ref: string }): Promise<void> {
  const head = (await runGit(['rev-parse', 'HEAD'], { cwd: repoDir }).catch(() => ({ stdout: '' }))).stdout.trim()
  if (head === sha) return
  const env = await sealedLocalEnv(repoDir, { own: true })
  const dirty = (await runGit([...NO_CHECKOUT_PROGRAMS, 'status', '--porcelain', '--untracked-files=no'], { cwd: repoDir, env })).stdout.trim()
  if (dirty) throw new WorkBranchError(`the checkout has uncommitted changes, so it cannot be moved to ${sha.slice(0, 7)}: check out the pull request's head before Converge runs`)
  if (!(await hasCommit(repoDir, sha))) {
    if (!fetch.remote) throw new WorkBranchError(`commit ${sha.slice(0, 7)} is not in the checkout and there is no remote to fetch it from`)
    try {
      await fetchSealed(repoDir, fetch.remote, fetch.ref, 'refs/converge/checkout')
    } catch (error) {
      throw new WorkBranchError(`could not fetch ${fetch.ref}: ${error instanceof GitError ? error.stderr : String(error)}`, error)
    }
    if (!(await hasCommit(repoDir, sha))) throw new WorkBranchError(`${fetch.ref} is no longer at ${sha.slice(0, 7)} (pushed to meanwhile): run the command again`)
  }
  await runGit([...NO_CHECKOUT_PROGRAMS, 'checkout', '--quiet', '--detach', sha], { cwd: repoDir, env: await sealedLocalEnv(repoDir, { own: true }) })
}

async function hasCommit(repoDir: string, sha: string): Promise<boolean> {
  try {
    await runGit(['cat-file', '-e', `${sha}^{commit}`], { cwd: repoDir })
    return true
  } catch {
    return false
  }
}
