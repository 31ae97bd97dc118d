/**
 * What a working tree holds, as one string: git's status, the diff against HEAD, and a hash of each untracked file.
 * Two equal fingerprints around an executor run mean it changed nothing. Undefined outside a git repository (or
 * when git fails): unknown, which never counts as "changed nothing".
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runGit } from '../git/git.js'

export async function treeFingerprint(dir: string): Promise<string | undefined> {
  try {
    const [status, diff, untracked] = await Promise.all([
      runGit(['status', '--porcelain', '--untracked-files=all'], { cwd: dir }),
      runGit(['diff', '--binary', 'HEAD'], { cwd: dir }),
      runGit(['ls-files', '--others', '--exclude-standard', '-z'], { cwd: dir }),
    ])
    const hash = createHash('sha256').update(status.stdout).update('\0').update(diff.stdout)
    for (const path of untracked.stdout.split('\0').filter(Boolean).sort())
      hash.update(`\0${path}\0`).update(await readFile(join(dir, path)).catch(() => Buffer.from('(unreadable)')))
    return hash.digest('hex')
  } catch {
    return undefined
  }
}
