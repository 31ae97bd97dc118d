/**
 * What the agent planner (`planner: command`) is shown of the repository: the tracked files (`git ls-files` of the
 * checkout, capped) and the text of the files the issue names (capped in number and in size). Only tracked,
 * regular files are read: a symbolic link is never followed out of the checkout.
 */
import { lstat, open } from 'node:fs/promises'
import { join } from 'node:path'
import { runGitBytes } from '../git/git.js'

export interface NamedFile {
  path: string
  /** The file's text, cut to the limit when `truncated`. */
  text: string
  /** The file's size on disk. */
  bytes: number
  truncated: boolean
}

export interface RepositoryContext {
  /** Tracked paths in git's order, at most `maxListed`. */
  files: string[]
  /** How many paths git tracks in all. */
  totalFiles: number
  /** The tracked files the issue names, in the order it first names them. */
  named: NamedFile[]
  /** Named files that were left out (binary, over the limits), with why. */
  skipped: string[]
  /** Why there is no file list (not a git repository), when there is none. */
  problem?: string
}

export interface ContextLimits {
  /** Paths listed at most. */
  maxListed: number
  /** Named files included at most. */
  maxNamed: number
  /** Bytes of one named file at most (the rest is cut). */
  maxFileBytes: number
  /** Bytes of all named files together at most. */
  maxNamedBytes: number
}

export const DEFAULT_CONTEXT_LIMITS: ContextLimits = { maxListed: 2000, maxNamed: 10, maxFileBytes: 32 * 1024, maxNamedBytes: 128 * 1024 }

/** The file list of the checkout in `repoDir` and the files `text` (the issue and the comment) names. */
export async function repositoryContext(repoDir: string, text: string, limits: ContextLimits = DEFAULT_CONTEXT_LIMITS): Promise<RepositoryContext> {
  let tracked: string[]
  try {
    const { stdout } = await runGitBytes(['-c', 'core.quotePath=false', 'ls-files', '-z'], { cwd: repoDir })
    tracked = stdout.toString('utf8').split('\0').filter(Boolean)
  } catch (error) {
    return { files: [], totalFiles: 0, named: [], skipped: [], problem: `git ls-files failed in the working directory: ${(error as Error).message.split('\n')[0]}` }
  }
  const named: NamedFile[] = []
  const skipped: string[] = []
  let budget = limits.maxNamedBytes
  for (const path of namedPaths(text, tracked)) {
    if (named.length >= limits.maxNamed) {
      skipped.push(`${path} (more than ${limits.maxNamed} files named)`)
      continue
    }
    if (budget <= 0) {
      skipped.push(`${path} (the named files already fill ${limits.maxNamedBytes} bytes)`)
      continue
    }
    const file = await readTextFile(join(repoDir, path), Math.min(limits.maxFileBytes, budget))
    if ('skip' in file) {
      skipped.push(`${path} (${file.skip})`)
      continue
    }
    budget -= Buffer.byteLength(file.text)
    named.push({ path, ...file })
  }
  return { files: tracked.slice(0, limits.maxListed), totalFiles: tracked.length, named, skipped }
}

/**
 * The tracked paths `text` names, in order of first mention: a word that is a tracked path (`src/a.ts`, `./src/a.ts`,
 * `src/a.ts:12`, `src/a.ts#L3`), or the end of exactly one tracked path (`a.ts`, `planners/a.ts`).
 */
export function namedPaths(text: string, tracked: readonly string[]): string[] {
  const exact = new Set(tracked)
  const byName = new Map<string, string[]>()
  for (const path of tracked) {
    const name = path.slice(path.lastIndexOf('/') + 1)
    const list = byName.get(name)
    if (list) list.push(path)
    else byName.set(name, [path])
  }
  const found = new Set<string>()
  for (const word of text.split(/[\s`'"()<>{},;|*]+/)) {
    const candidate = word
      .replace(/^\.\//, '')
      .replace(/#L\d+.*$/, '')
      .replace(/(?::\d+){1,2}$/, '')
      .replace(/[.:!?]+$/, '')
    if (candidate.length < 3 || found.has(candidate)) continue
    if (exact.has(candidate)) {
      found.add(candidate)
      continue
    }
    if (!/[./]/.test(candidate)) continue
    const name = candidate.slice(candidate.lastIndexOf('/') + 1)
    const matches = (byName.get(name) ?? []).filter((path) => path === candidate || path.endsWith(`/${candidate}`))
    if (matches.length === 1) found.add(matches[0]!)
  }
  return [...found]
}

/** A regular file's text, at most `maxBytes` of it; binary files and anything else are skipped with a reason. */
async function readTextFile(path: string, maxBytes: number): Promise<{ text: string; bytes: number; truncated: boolean } | { skip: string }> {
  let size: number
  try {
    const stat = await lstat(path)
    if (!stat.isFile()) return { skip: stat.isSymbolicLink() ? 'a symbolic link' : 'not a regular file' }
    size = stat.size
  } catch {
    return { skip: 'not in the working tree' }
  }
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(Math.min(size, maxBytes))
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    const bytes = buffer.subarray(0, bytesRead)
    if (bytes.subarray(0, 8192).includes(0)) return { skip: 'binary' }
    // A cut in the middle of a multi-byte character would end in U+FFFD: drop it.
    const text = bytes.toString('utf8').replace(/\uFFFD+$/, '')
    return { text, bytes: size, truncated: bytesRead < size }
  } finally {
    await handle.close()
  }
}
