/**
 * A task's whole change by file content (SPEC §7 "Evidence integrity"), and the trees its differential runs check.
 *
 * - {@link ignoredFiles} stamps every file git ignores (a dependency folder, a local config): what the executor
 *   created or changed there is in no commit, yet a shim in `node_modules/.bin` decides what a check runs.
 * - {@link fingerprint} is the content of the task's paths as its checks saw them (blob ids, written to the object
 *   store): what its commit must hold.
 * - {@link variantTree} writes a variant of the tree — the work branch's head with some of the task's paths at their
 *   checked content — and {@link materialize} lays it out in a directory of its own, with the checkout's ignored
 *   folders linked in, so the commands run there where the dependencies are.
 */
import { createHash } from 'node:crypto'
import { copyFile, lstat, mkdir, mkdtemp, rm, stat, symlink, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { FileStat } from '../model/index.js'
import { runGit } from './git.js'
import { NO_CHECKOUT_PROGRAMS, sealedLocalEnv } from './sealed-remote.js'

const git = (repoDir: string, args: string[], extra: { env?: Record<string, string>; input?: string } = {}) =>
  runGit([...NO_CHECKOUT_PROGRAMS, ...args], { cwd: repoDir, ...extra }).then((r) => r.stdout)


/** Each ignored file's stamp (size, modification and change times, inode, mode): a change to any shows. */
export async function ignoredFiles(repoDir: string): Promise<Map<string, string>> {
  const listed = (await git(repoDir, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard'])).split('\0').filter(Boolean)
  const stamps = new Map<string, string>()
  for (const path of listed) {
    const stat = await lstat(join(repoDir, path), { bigint: true }).catch(() => undefined)
    if (stat) stamps.set(path, `${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.ino}:${stat.mode}`)
  }
  return stamps
}

/**
 * The checkout's content as one key: the tree of every file git sees (tracked and untracked, as they are in the
 * working tree, whatever is staged) and the stamps of every ignored one. Two states with one key hold the same files.
 */
export async function contentKey(repoDir: string): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'converge-key-'))
  let tree: string
  try {
    const index = join(scratch, 'index')
    // A copy of the checkout's index, so that git re-reads only the files whose stamps changed. The copy keeps the
    // index's modification time: git re-reads a file changed within the same second as the index was written (its
    // stamp may not show the change) only when the index is not newer than the file.
    const own = (await git(repoDir, ['rev-parse', '--path-format=absolute', '--git-path', 'index'])).trim()
    await copyFile(own, index).then(async () => {
      const { atime, mtime } = await stat(own)
      await utimes(index, atime, mtime)
    }).catch(() => undefined)
    // No filter driver runs: a key needs the bytes as they are, and an executor running meanwhile may have planted one.
    const env = { ...(await sealedLocalEnv(repoDir, { own: true })), GIT_INDEX_FILE: index }
    await git(repoDir, ['add', '--all', '--', '.'], { env })
    tree = (await git(repoDir, ['write-tree'], { env })).trim()
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
  // After the finally, not returned from the try: a promise returned there has no handler while the finally awaits,
  // and its git killed meanwhile (a cancelled job signals the whole process group) ended the process unhandled.
  return contentKeyOf(repoDir, tree)
}

/**
 * The key of `tree`'s files with the checkout's ignored files as they are now: a variant tree's content (its
 * ignored entries are the checkout's, linked in), in the form {@link contentKey} gives the checkout's.
 */
export async function contentKeyOf(repoDir: string, tree: string): Promise<string> {
  const stamps = [...(await ignoredFiles(repoDir))].map(([path, stamp]) => `${path}\0${stamp}`).sort()
  return `${tree}:${createHash('sha256').update(stamps.join('\n')).digest('hex')}`
}

export interface IgnoredChange {
  path: string
  change: 'created' | 'changed' | 'deleted'
}

/** The ignored files created, changed or deleted between two stamps. */
export function ignoredChanges(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): IgnoredChange[] {
  const changes: IgnoredChange[] = []
  for (const [path, stamp] of after) {
    const was = before.get(path)
    if (was === undefined) changes.push({ path, change: 'created' })
    else if (was !== stamp) changes.push({ path, change: 'changed' })
  }
  for (const path of before.keys()) if (!after.has(path)) changes.push({ path, change: 'deleted' })
  return changes
}

/** A path's content as checked: its blob id and file mode, or null when the task deleted it. */
export type Content = { blob: string; mode: string } | null

/** The content of `paths` in the working tree, written to the object store (so a variant tree can use it). */
export async function fingerprint(repoDir: string, paths: readonly string[]): Promise<Map<string, Content>> {
  const present: string[] = []
  const modes = new Map<string, string>()
  const contents = new Map<string, Content>()
  for (const path of paths) {
    const stat = await lstat(join(repoDir, path)).catch(() => undefined)
    if (!stat || stat.isDirectory()) contents.set(path, null)
    else {
      present.push(path)
      modes.set(path, stat.isSymbolicLink() ? '120000' : stat.mode & 0o111 ? '100755' : '100644')
    }
  }
  if (present.length) {
    const blobs = (await git(repoDir, ['hash-object', '-w', '--stdin-paths'], { input: `${present.join('\n')}\n` })).trim().split('\n')
    present.forEach((path, i) => contents.set(path, { blob: blobs[i]!, mode: modes.get(path)! }))
  }
  return contents
}

/**
 * Each file `commit` changed against the commit before it (every file added, for a first commit), with its lines
 * added and removed. Plumbing: `diff-tree` runs no textconv or external diff program whatever the checkout's
 * attributes or configuration name, and looks for no renames (each path counted as `files_modified` names it).
 */
export async function commitFileStats(repoDir: string, commit: string): Promise<FileStat[]> {
  const out = await git(repoDir, ['diff-tree', '-r', '--root', '--no-commit-id', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', commit])
  return out.split('\0').filter(Boolean).map((entry) => {
    // `<added>\t<removed>\t<path>`, `-\t-\t<path>` for a binary file; the path itself may hold tabs.
    const [added = '', removed = '', ...path] = entry.split('\t')
    return added === '-' ? { path: path.join('\t'), added: 0, removed: 0, binary: true as const } : { path: path.join('\t'), added: Number(added), removed: Number(removed) }
  })
}

/** Whether `path` exists in `commit`'s tree. */
export async function existsIn(repoDir: string, commit: string, path: string): Promise<boolean> {
  return git(repoDir, ['cat-file', '-e', `${commit}:${path}`]).then(() => true, () => false)
}

/** The file's text in `commit`, or undefined when it has none. */
export async function textIn(repoDir: string, commit: string, path: string): Promise<string | undefined> {
  return git(repoDir, ['cat-file', 'blob', `${commit}:${path}`]).catch(() => undefined)
}

export interface Variant {
  dir: string
  dispose(): Promise<void>
}

/** `base`'s tree with `overlay`'s paths at the given content, written to the object store (nothing laid out). */
export async function variantTree(repoDir: string, base: string, overlay: ReadonlyMap<string, Content>): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'converge-variant-index-'))
  try {
    const env = { GIT_INDEX_FILE: join(scratch, 'index') }
    await git(repoDir, ['read-tree', base], { env })
    const lines = [...overlay].map(([path, content]) =>
      content ? `${content.mode} ${content.blob}\t${path}` : `0 ${'0'.repeat(40)}\t${path}`)
    if (lines.length) await git(repoDir, ['update-index', '-z', '--index-info'], { env, input: `${lines.join('\0')}\0` })
    return (await git(repoDir, ['write-tree'], { env })).trim()
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

/**
 * `tree` checked out into a new directory, and the checkout's ignored entries (`node_modules/`, a local `.npmrc`)
 * linked in as they are now.
 */
export async function materialize(repoDir: string, tree: string): Promise<Variant> {
  const scratch = await mkdtemp(join(tmpdir(), 'converge-variant-'))
  const dir = join(scratch, 'tree')
  const dispose = () => rm(scratch, { recursive: true, force: true })
  try {
    const env = { GIT_INDEX_FILE: join(scratch, 'index') }
    await git(repoDir, ['read-tree', tree], { env })
    await mkdir(dir)
    await git(repoDir, ['checkout-index', '--all', '--force', `--prefix=${dir}/`], { env })
    const ignored = (await git(repoDir, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'])).split('\0').filter(Boolean)
    for (const entry of ignored) {
      const path = entry.replace(/\/$/, '')
      await mkdir(dirname(join(dir, path)), { recursive: true })
      await symlink(join(repoDir, path), join(dir, path)).catch(() => undefined)
    }
    return { dir, dispose }
  } catch (error) {
    await dispose()
    throw error
  }
}

/** Of `paths`, those whose staged content (the index) is not `checked`'s: what a commit would take unverified. */
export async function stagedOtherThan(repoDir: string, paths: readonly string[], checked: ReadonlyMap<string, Content>): Promise<string[]> {
  const staged = new Map<string, string>()
  // The whole index (ls-files takes no pathspec file in older git): an entry is `<mode> <blob> <stage>\t<path>`.
  const listed = await git(repoDir, ['ls-files', '--stage', '-z'])
  for (const entry of listed.split('\0').filter(Boolean)) {
    const tab = entry.indexOf('\t')
    staged.set(entry.slice(tab + 1), entry.slice(0, tab).split(' ')[1]!)
  }
  return paths.filter((path) => (staged.get(path) ?? null) !== (checked.get(path)?.blob ?? null))
}
