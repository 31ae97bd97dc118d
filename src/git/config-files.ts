/** Where a checkout's git configuration lives: its git directories and the config files in them. */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { GitError, runGit } from './git.js'

/** One `key=value` of a git config file, the key as git normalises it. */
export interface Entry {
  key: string
  value: string
}

interface GitDirs {
  gitDir: string
  commonDir: string
}

export async function gitDirs(repoDir: string): Promise<GitDirs | undefined> {
  try {
    const { stdout } = await runGit(['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir'], { cwd: repoDir })
    const [gitDir, commonDir] = stdout.trim().split('\n')
    return gitDir && commonDir ? { gitDir, commonDir } : undefined
  } catch (error) {
    if (error instanceof GitError) return undefined // not a git repository: nothing persisted
    throw error
  }
}

/** The checkout's own config files: the repository's, the worktree's, and those of its submodules. */
export async function checkoutConfigFiles({ gitDir, commonDir }: GitDirs): Promise<string[]> {
  const files = [join(commonDir, 'config'), join(gitDir, 'config.worktree')]
  files.push(...(await submoduleConfigs(join(commonDir, 'modules'), 0)))
  const present: string[] = []
  for (const file of new Set(files)) if (await exists(file)) present.push(file)
  return present
}

/** `.git/modules/<name>/config`, nested submodules included. */
async function submoduleConfigs(dir: string, depth: number): Promise<string[]> {
  if (depth > 8) return []
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return []
  }
  const found: string[] = []
  if (names.includes('config') && names.includes('HEAD')) found.push(join(dir, 'config'))
  for (const name of names) {
    if (['objects', 'refs', 'logs', 'hooks', 'info'].includes(name)) continue
    const path = join(dir, name)
    if ((await stat(path).catch(() => undefined))?.isDirectory()) found.push(...(await submoduleConfigs(path, depth + 1)))
  }
  return found
}

/** `--show-origin -z` output: `file:<path>\0<key>\n<value>\0`. */
export function parseOriginList(stdout: string): Array<{ origin: string; entry: Entry }> {
  const parts = stdout.split('\0')
  const out: Array<{ origin: string; entry: Entry }> = []
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const item = parts[i + 1]!
    const newline = item.indexOf('\n')
    out.push({ origin: parts[i]!, entry: newline < 0 ? { key: item, value: '' } : { key: item.slice(0, newline), value: item.slice(newline + 1) } })
  }
  return out
}

export async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined
}
