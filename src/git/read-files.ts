/** Reads files of a commit in one `git cat-file --batch` call. */
import { runGit, runGitBytes } from './git.js'

/**
 * The utf-8 text of each of `paths` (valid tree paths) at `commit`, or undefined for a path that does not exist
 * or is not a file.
 */
export async function readFiles(
  cwd: string,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, string | undefined>> {
  const files = new Map<string, string | undefined>()
  if (paths.length === 0) return files
  const input = paths.map((path) => `${commit}:${path}\n`).join('')
  const { stdout } = await runGitBytes(['cat-file', '--batch'], { cwd, input })
  let offset = 0
  for (const path of paths) {
    const lineEnd = stdout.indexOf(0x0a, offset)
    if (lineEnd < 0) throw new Error(`git cat-file --batch ended early, before ${commit}:${path}`)
    const header = stdout.toString('utf8', offset, lineEnd)
    offset = lineEnd + 1
    // "<oid> <type> <size>" for an object; "<name> missing" (or "ambiguous") otherwise.
    const object = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header)
    if (!object) {
      files.set(path, undefined)
      continue
    }
    const size = Number(object[2])
    files.set(path, object[1] === 'blob' ? stdout.toString('utf8', offset, offset + size) : undefined)
    offset += size + 1 // the content is followed by a newline
  }
  return files
}

/** The checkout's tracked files (`git ls-files`), or undefined when `repoDir` is not a git checkout. */
export async function trackedFiles(repoDir: string): Promise<string[] | undefined> {
  try {
    return (await runGit(['-c', 'core.quotePath=false', 'ls-files', '-z'], { cwd: repoDir })).stdout.split('\0').filter(Boolean)
  } catch {
    return undefined
  }
}

/**
 * Whether a path is in `files` (the checkout's tracked files): a file, or a directory holding one, as a lookup.
 */
export function trackedPathLookup(files: readonly string[]): (path: string) => boolean {
  const paths = new Set<string>()
  for (const file of files) {
    paths.add(file)
    for (let i = file.indexOf('/'); i > 0; i = file.indexOf('/', i + 1)) paths.add(file.slice(0, i))
  }
  return (path) => paths.has(path)
}
