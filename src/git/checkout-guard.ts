/**
 * Holds a checkout still while a command that must not change it runs (the planner command): the state of its
 * tracked files, index, HEAD and untracked files is taken before, compared after, and put back when the
 * command changed it. This holds for any command, an agent CLI with its own sandbox or a plain shell template,
 * because it does not rely on the command keeping a promise. The repository's configuration and hooks are held
 * too: a hook or a `core.fsmonitor` planted there would run inside Converge's own git commands later. What it
 * does not cover: ignored files (build output, `node_modules`) and the rest of the `.git` directory.
 *
 * The snapshot is made of git objects (`git stash create` records the working tree and index of tracked files
 * without touching them), so a checkout with uncommitted work is put back with that work.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { CONVERGE_IDENTITY, GitError, identityEnv, runGit } from './git.js'

export interface CheckoutSnapshot {
  /** The working tree's top directory: the paths below are relative to it. */
  top: string
  /** null in a repository without commits. */
  head: string | null
  /** The checked-out branch (`refs/heads/main`), null when HEAD is detached. */
  ref: string | null
  /** Trees of the tracked files in the working tree and in the index. */
  worktree: string
  index: string
  untracked: string[]
  /** The repository's config file and its hooks directory, with their contents (a hook's name → its text). */
  config: { path: string; text: string }
  hooks: { dir: string; files: Map<string, Buffer> }
}

export interface CheckoutChange {
  /** Paths whose tracked content or staging changed, and untracked files that appeared. */
  paths: string[]
  /** HEAD moved to another commit or branch. */
  head: boolean
}

/** The checkout's state, or undefined when `repoDir` is not a git working tree (nothing to guard). */
export async function snapshotCheckout(dir: string): Promise<CheckoutSnapshot | undefined> {
  let repoDir: string
  try {
    if ((await git(dir, 'rev-parse', '--is-inside-work-tree')) !== 'true') return undefined
    repoDir = await git(dir, 'rev-parse', '--show-toplevel')
  } catch (error) {
    if (error instanceof GitError) return undefined
    throw error
  }
  const head = await optional(git(repoDir, 'rev-parse', '-q', '--verify', 'HEAD^{commit}'))
  const ref = await optional(git(repoDir, 'symbolic-ref', '-q', 'HEAD'))
  let worktree: string
  let index: string
  if (head === null) {
    // No commit to stash against: the index is all git can hold.
    index = worktree = await git(repoDir, 'write-tree')
  } else {
    const stash = await git(repoDir, 'stash', 'create')
    worktree = await git(repoDir, 'rev-parse', `${stash || head}^{tree}`)
    index = stash ? await git(repoDir, 'rev-parse', `${stash}^2^{tree}`) : worktree
  }
  const untracked = (await gitRaw(repoDir, 'ls-files', '--others', '--exclude-standard', '-z')).split('\0').filter(Boolean)
  // Asked without the guard's own `core.hooksPath` override: where git would look for the repository's hooks.
  const paths = await runGit(['rev-parse', '--path-format=absolute', '--git-path', 'config', '--git-path', 'hooks'], { cwd: repoDir })
  const [configPath, hooksDir] = paths.stdout.trim().split('\n') as [string, string]
  const config = { path: configPath, text: await readFile(configPath, 'utf8').catch(() => '') }
  return { top: repoDir, head, ref, worktree, index, untracked, config, hooks: { dir: hooksDir, files: await hookFiles(hooksDir) } }
}

/**
 * Puts the repository's config file and hooks back as `before` had them, and says which it had to (paths
 * relative to the working tree). Call it first, before any git command: a hook, an `fsmonitor` or a filter the
 * command planted there would run inside them.
 */
export async function restoreGitFiles(before: CheckoutSnapshot): Promise<string[]> {
  const changed: string[] = []
  const config = await readFile(before.config.path, 'utf8').catch(() => '')
  if (config !== before.config.text) {
    await writeFile(before.config.path, before.config.text)
    changed.push(relative(before.top, before.config.path))
  }
  const hooks = await hookFiles(before.hooks.dir)
  for (const name of new Set([...before.hooks.files.keys(), ...hooks.keys()])) {
    const was = before.hooks.files.get(name)
    const is = hooks.get(name)
    if (was && is?.equals(was)) continue
    if (was) await writeFile(join(before.hooks.dir, name), was, { mode: 0o755 })
    else await rm(join(before.hooks.dir, name), { force: true })
    changed.push(relative(before.top, join(before.hooks.dir, name)))
  }
  return changed
}

/** What changed between two snapshots; undefined when nothing did. */
export async function compareCheckout(before: CheckoutSnapshot, after: CheckoutSnapshot): Promise<CheckoutChange | undefined> {
  const repoDir = before.top
  const paths = new Set<string>()
  for (const [a, b] of [[before.worktree, after.worktree], [before.index, after.index]] as const)
    if (a !== b) for (const path of (await gitRaw(repoDir, 'diff', '--name-only', '-z', '--no-renames', a, b)).split('\0')) if (path) paths.add(path)
  const known = new Set(before.untracked)
  for (const path of after.untracked) if (!known.has(path)) paths.add(path)
  const head = before.head !== after.head || before.ref !== after.ref
  return paths.size || head ? { paths: [...paths].sort(), head } : undefined
}

/**
 * Puts the checkout back as `before` was: HEAD (and the branch it was on, moved back if the command committed),
 * the tracked files and the index; the untracked files the command added are deleted. Throws when the result
 * is not `before`.
 */
export async function restoreCheckout(before: CheckoutSnapshot, after: CheckoutSnapshot): Promise<void> {
  const repoDir = before.top
  if (before.ref) {
    await git(repoDir, 'symbolic-ref', 'HEAD', before.ref)
    if (before.head) await git(repoDir, 'update-ref', before.ref, before.head)
  } else if (before.head) {
    await git(repoDir, 'update-ref', '--no-deref', 'HEAD', before.head)
  }
  await git(repoDir, 'read-tree', '--reset', '-u', before.worktree)
  if (before.index !== before.worktree) await git(repoDir, 'read-tree', before.index)
  const known = new Set(before.untracked)
  for (const path of after.untracked) if (!known.has(path)) await rm(join(repoDir, path), { force: true, recursive: true })
  const now = await snapshotCheckout(repoDir)
  const left = now && (await compareCheckout(before, now))
  if (!now || left) throw new GitError('git read-tree', null, `the checkout could not be put back as it was${left ? ` (${left.paths.join(', ') || 'HEAD'} still differ)` : ''}`)
}

/** The hooks git would run: files of the hooks directory, without the `.sample` files git init writes. */
async function hookFiles(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  const names = await readdir(dir).catch(() => [] as string[])
  for (const name of names.filter((n) => !n.endsWith('.sample')).sort()) {
    const text = await readFile(join(dir, name)).catch(() => undefined)
    if (text) files.set(name, text)
  }
  return files
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await gitRaw(cwd, ...args)).trim()
}

/** For `-z` output, where a space at either end belongs to a path. */
async function gitRaw(cwd: string, ...args: string[]): Promise<string> {
  // The identity is for `git stash create`, which makes a commit object (nothing refers to it). No hook and no
  // fsmonitor of the repository runs in the guard's own commands.
  return (await runGit(['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', ...args], { cwd, env: identityEnv(CONVERGE_IDENTITY) })).stdout
}

async function optional(value: Promise<string>): Promise<string | null> {
  try {
    return (await value) || null
  } catch (error) {
    if (error instanceof GitError) return null
    throw error
  }
}
