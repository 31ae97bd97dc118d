/** Creates commit objects with git plumbing. */
import { type GitIdentity, identityEnv, runGit } from './git.js'

/** Writes a commit of `tree` (with `parent`, or none for a root commit) and returns its oid; no ref moves. */
export async function commitTree(
  cwd: string,
  commit: { tree: string; parent: string | null; message: string; identity: GitIdentity },
): Promise<string> {
  const parentArgs = commit.parent === null ? [] : ['-p', commit.parent]
  const message = commit.message.endsWith('\n') ? commit.message : `${commit.message}\n`
  const { stdout } = await runGit(['commit-tree', '--no-gpg-sign', commit.tree, ...parentArgs], {
    cwd,
    input: message,
    env: identityEnv(commit.identity),
  })
  return stdout.trim()
}
