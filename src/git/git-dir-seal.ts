/**
 * `.git/` is Converge's while a run holds the checkout (SPEC §7 "Evidence integrity", §6). An executor runs in the
 * checkout and can write what steers git: `.git/config` (a filter driver, `core.fsmonitor`, an `include`),
 * `.git/info/attributes` (which files a filter runs on), `.git/info/exclude` (a file kept out of `git status`),
 * hooks, and index flags (`skip-worktree`, `assume-unchanged`) that hide an edit from `git status` and `git add`.
 * It can also commit, or move HEAD, behind Converge's back.
 *
 * {@link sealGitDir} records the first three as they were when the run took the checkout; {@link GitDirSeal.restore}
 * puts them back byte for byte (a file the executor added is removed), clears every index flag, and makes
 * whatever the executor committed an uncommitted change on the work branch again, so that Converge's own git
 * calls see the whole change and none of the executor's programs runs inside them.
 */
import { lstat, mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises'
import { dirname, isAbsolute, join } from 'node:path'
import { runGit } from './git.js'
import { NO_CHECKOUT_PROGRAMS } from './sealed-remote.js'

/** The parts of `.git/` that steer git commands, relative to the git directory. */
const SEALED_PARTS = ['config', 'info', 'hooks'] as const

export interface Restored {
  /** Files under `.git/` that were put back or removed. */
  gitFiles: string[]
  /** Paths whose index flag hid them (`skip-worktree`, `assume-unchanged`). */
  flagged: string[]
  /** Commits the executor made on top of the branch, now uncommitted changes. */
  commits: number
}

export class GitDirSeal {
  private constructor(
    private readonly repoDir: string,
    private readonly gitDir: string,
    /** Path relative to the git directory → content. */
    private readonly files: ReadonlyMap<string, Buffer>,
  ) {}

  static async take(repoDir: string): Promise<GitDirSeal> {
    const raw = (await runGit(['rev-parse', '--git-common-dir'], { cwd: repoDir })).stdout.trim()
    const gitDir = isAbsolute(raw) ? raw : join(repoDir, raw)
    return new GitDirSeal(repoDir, gitDir, await readParts(gitDir))
  }

  /**
   * Puts `.git/` back as sealed, clears index flags, and when the branch `branch` is not at `head` (the executor
   * committed, or checked out something else) checks the branch out at `head` again, keeping the working tree.
   */
  async restore(branch: string, head: string): Promise<Restored> {
    const gitFiles: string[] = []
    const now = await readParts(this.gitDir)
    for (const [path, content] of now) {
      const sealed = this.files.get(path)
      if (sealed === undefined) {
        await rm(join(this.gitDir, path), { force: true, recursive: true })
        gitFiles.push(path)
      } else if (!sealed.equals(content)) {
        await put(join(this.gitDir, path), sealed)
        gitFiles.push(path)
      }
    }
    for (const [path, content] of this.files) {
      if (now.has(path)) continue
      await put(join(this.gitDir, path), content)
      gitFiles.push(path)
    }
    const git = (...args: string[]) => runGit([...NO_CHECKOUT_PROGRAMS, ...args], { cwd: this.repoDir })
    const ref = `refs/heads/${branch}`
    const current = (await git('symbolic-ref', '--quiet', 'HEAD').catch(() => ({ stdout: '' }))).stdout.trim()
    const tip = (await git('rev-parse', '--verify', '--quiet', 'HEAD').catch(() => ({ stdout: '' }))).stdout.trim()
    let commits = 0
    if (current !== ref || tip !== head) {
      if (tip && tip !== head) commits = Number((await git('rev-list', '--count', `${head}..${tip}`).catch(() => ({ stdout: '1' }))).stdout.trim()) || 1
      await git('update-ref', ref, head)
      await git('symbolic-ref', 'HEAD', ref)
      await git('reset', '--quiet', '--mixed', head)
    }
    const flagged = await clearIndexFlags(git, this.repoDir)
    return { gitFiles, flagged, commits }
  }
}

/**
 * Removes `skip-worktree` and `assume-unchanged` from every index entry (returns the paths that had one), and
 * writes every entry anew without its file stamps: git then compares each file by its content, so an edit whose
 * stamps the executor had recorded in the index (`update-index --skip-worktree` refreshes them) shows.
 */
async function clearIndexFlags(git: (...args: string[]) => Promise<{ stdout: string }>, repoDir: string): Promise<string[]> {
  // `ls-files -v`: a lowercase tag is assume-unchanged, `S` is skip-worktree.
  const entries = (await git('ls-files', '-v', '-z')).stdout.split('\0').filter(Boolean)
  const flagged = entries.filter((e) => /^[a-zS] /.test(e)).map((e) => e.slice(2))
  const run = (args: string[], input: string) => runGit([...NO_CHECKOUT_PROGRAMS, ...args], { cwd: repoDir, input, env: { GIT_LITERAL_PATHSPECS: '1' } })
  if (flagged.length) await run(['update-index', '--no-skip-worktree', '--no-assume-unchanged', '-z', '--stdin'], `${flagged.join('\0')}\0`)
  const staged = (await git('ls-files', '--stage', '-z')).stdout.split('\0').filter(Boolean)
  // `<mode> <blob> <stage>\t<path>` is also what --index-info reads; the entries it writes carry no stamps.
  if (staged.length) await run(['update-index', '-z', '--index-info'], `${staged.join('\0')}\0`)
  return flagged
}

const LINK = Buffer.from('\0symlink\0')

/** Writes a recorded entry anew: whatever is at `path` (a file, or a link the executor planted) is removed first. */
async function put(path: string, content: Buffer): Promise<void> {
  await rm(path, { force: true, recursive: true })
  await mkdir(dirname(path), { recursive: true })
  if (content.subarray(0, LINK.length).equals(LINK)) await symlink(content.subarray(LINK.length).toString(), path)
  else await writeFile(path, content)
}

/** Every file under the sealed parts of the git directory, by its path relative to it (symlinks by their target). */
async function readParts(gitDir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  const walk = async (relative: string): Promise<void> => {
    const path = join(gitDir, relative)
    const stat = await lstat(path).catch(() => undefined)
    if (!stat) return
    if (stat.isDirectory()) {
      for (const entry of await readdir(path)) await walk(join(relative, entry))
    } else if (stat.isSymbolicLink()) {
      // Recorded as a link, never followed: restoring never writes through a link out of .git/.
      files.set(relative, Buffer.concat([LINK, Buffer.from(await readlink(path))]))
    } else if (stat.isFile()) {
      files.set(relative, await readFile(path))
    }
  }
  for (const part of SEALED_PARTS) await walk(part)
  return files
}
