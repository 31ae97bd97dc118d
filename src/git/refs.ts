/** Reads and moves refs with git plumbing. */
import { type GitIdentity, GitError, identityEnv, runGit } from './git.js'

/** The commit a ref points to, or null when the ref does not exist. */
export async function resolveRef(cwd: string, ref: string): Promise<string | null> {
  try {
    const { stdout } = await runGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd })
    return stdout.trim()
  } catch (error) {
    // With --quiet, a missing ref is exit code 1 and nothing on stderr.
    if (error instanceof GitError && error.exitCode === 1 && error.stderr === '') return null
    throw error
  }
}

/**
 * Points `ref` at `newOid` only if it is still at `oldOid` (null: only if it does not exist yet), atomically.
 * Rejects with a GitError otherwise.
 */
export async function compareAndSwapRef(
  cwd: string,
  update: { ref: string; newOid: string; oldOid: string | null; reason: string; identity: GitIdentity },
): Promise<void> {
  // An empty old value means "must not exist yet", whatever the repository's hash length.
  await runGit(['update-ref', '-m', update.reason, update.ref, update.newOid, update.oldOid ?? ''], {
    cwd,
    env: identityEnv(update.identity), // the reflog entry names a committer too
  })
}
