import { stat } from 'node:fs/promises'
import { CONVERGE_IDENTITY, GitError, runGit, type GitIdentity } from '../git/git.js'
import { InputError, UsageError } from './usage-error.js'
import { workBranchName } from '../model/state-layout.js'

/**
 * Checks that `--repo` names a git repository before any command uses it, so that a typo reads as one: "no such
 * folder", "not a git repository", "git is not installed", never a git command line or a spawn error.
 */
export async function checkRepository(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined)
  if (!info) throw new UsageError(`--repo ${dir}: no such folder`)
  if (!info.isDirectory()) throw new UsageError(`--repo ${dir} is a file, not a folder: point --repo at a git repository`)
  try {
    await runGit(['rev-parse', '--git-dir'], { cwd: dir })
  } catch (error) {
    if (error instanceof GitError && error.exitCode !== null) throw new UsageError(`--repo ${dir} is not a git repository: run \`git init\` there, or point --repo at one`)
    throw new Error('git could not be run: Converge needs git on PATH', { cause: error })
  }
}

/**
 * `execute` branches the work from the checked-out commit: a repository without one (just `git init`ed) is refused
 * before anything is recorded, with what to do, instead of git's "'HEAD' is not a commit".
 */
export async function checkHasCommit(dir: string, n: number): Promise<void> {
  const head = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: dir }).catch(() => undefined)
  if (head) return
  throw new InputError(
    `--repo ${dir} has no commit yet: execute branches ${workBranchName(n)} from your checked-out commit. ` +
      'Commit what the repository has first (git add -A && git commit -m "Initial commit"), then execute again',
  )
}

/**
 * Who the CLI's task commits are by: the user's git identity (`user.name`, `user.email` as git resolves them for
 * --repo), as their own commits are; Converge's when git has none configured.
 */
export async function userIdentity(dir: string): Promise<GitIdentity> {
  const value = async (key: string) => (await runGit(['config', '--get', key], { cwd: dir }).catch(() => undefined))?.stdout.trim()
  const [name, email] = [await value('user.name'), await value('user.email')]
  return name && email ? { name, email } : CONVERGE_IDENTITY
}

/** Whether the repository has the local branch `name` (the work branch of an issue). */
export async function hasBranch(dir: string, name: string): Promise<boolean> {
  return Boolean(await runGit(['rev-parse', '--verify', '--quiet', `refs/heads/${name}`], { cwd: dir }).catch(() => undefined))
}
