import { stat } from 'node:fs/promises'
import { GitError, runGit } from '../git/git.js'
import { UsageError } from './usage-error.js'

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
