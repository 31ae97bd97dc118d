/**
 * Credentials a checkout step left in the workspace's git configuration, found and removed before an executor,
 * a verification command or a planner command runs: those commands run in the checkout, and whatever git
 * configuration they can read, they can push with.
 *
 * What is looked for (what actions/checkout persists with `persist-credentials: true`, its default, and what
 * other steps are known to leave):
 * - `http.<server>/.extraheader` holding an `AUTHORIZATION:` header: written into `.git/config` by
 *   actions/checkout up to v5; from v6 on it is written into `$RUNNER_TEMP/git-credentials-<uuid>.config`,
 *   which `.git/config` (and each submodule's config) includes through `includeIf.gitdir:<…>.path` entries, for
 *   the host's and the container's paths of the git directory and its worktrees;
 * - `core.sshCommand` naming a key file (`-i "$RUNNER_TEMP/<uuid>"`): actions/checkout's `ssh-key` persisted;
 * - `credential.helper` / `credential.<url>.helper` in the checkout's config, and the file of a `store` helper
 *   when it lies under `RUNNER_TEMP`;
 * - `url.<base>.insteadOf` whose base URL carries a user and password, and `remote.<name>.url` / `pushurl`
 *   with one (the URL is kept, without them).
 * Each is removed from the file it is in; an included file under `RUNNER_TEMP` that only a checkout step wrote
 * (`git-credentials-<uuid>.config`) is deleted with the entries that include it. Nothing is restored
 * afterwards: a process a command left behind could read it back. Converge's own fetches and pushes do not
 * need any of it (they send the token as a header through the environment).
 *
 * The user's global and the system configuration are outside the checkout: credentials found there are
 * reported, not changed.
 */
import { homedir } from 'node:os'
import { rm } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { checkoutConfigFiles, exists, gitDirs, parseOriginList, type Entry } from './config-files.js'
import { GitError, runGit } from './git.js'

/** One credential found: what it is (never its value) and the file it is in. */
export interface FoundCredential {
  kind: 'auth-header' | 'ssh-key' | 'credential-helper' | 'url-with-credentials' | 'credentials-file'
  /** e.g. "the Authorization header http.https://github.com/.extraheader"; a URL's password shown as ***. */
  what: string
  /** The config file, shown relative to the checkout or as `$RUNNER_TEMP/…` / `~/…`. */
  where: string
}

export interface CredentialScrub {
  /** Removed from the checkout's configuration (or deleted, for files under RUNNER_TEMP). */
  removed: FoundCredential[]
  /** Found in the global or system configuration: left alone, and readable by commands. */
  outside: FoundCredential[]
}

export class CredentialRemovalError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause })
    this.name = 'CredentialRemovalError'
  }
}

export interface ScrubOptions {
  /** `RUNNER_TEMP`: where actions/checkout puts its credentials files and SSH keys. */
  runnerTemp?: string
  /** `GITHUB_SERVER_URL`: a credential helper outside the checkout matters when it serves all hosts or this one. */
  serverUrl?: string
  /** Only report (`persisted-credentials: keep`): nothing is changed, `removed` lists what would be. */
  dryRun?: boolean
}

/** actions/checkout's name for the file of an `includeIf` that holds its Authorization header. */
const CHECKOUT_CREDENTIALS_FILE = /git-credentials-[0-9a-f-]+\.config$/i
const MAX_INCLUDE_DEPTH = 4

/** Finds the credentials persisted in `repoDir`'s git configuration and removes them (see the module comment). */
export async function scrubPersistedCredentials(repoDir: string, options: ScrubOptions = {}): Promise<CredentialScrub> {
  const dirs = await gitDirs(repoDir)
  if (!dirs) return { removed: [], outside: [] }
  const scrub = new Scrub(repoDir, options)
  try {
    for (const file of await checkoutConfigFiles(dirs)) await scrub.file(file, 0)
  } catch (error) {
    if (error instanceof CredentialRemovalError) throw error
    throw new CredentialRemovalError(`could not remove the credentials persisted in the checkout's git configuration: ${message(error)}`, error)
  }
  return { removed: scrub.removed, outside: await outsideCredentials(repoDir, scrub, options.serverUrl) }
}

/**
 * What to say in the log and the report about `scrub`, one sentence per concern; empty when nothing was found.
 * `kept`: the credentials were left in place (`persisted-credentials: keep`).
 */
export function describeScrub(scrub: CredentialScrub, kept = false): string[] {
  const lines: string[] = []
  if (scrub.removed.length) {
    const list = scrub.removed.map((f) => `${f.what} in ${f.where}`).join('; ')
    const token = scrub.removed.some((f) => f.kind === 'auth-header')
    const key = scrub.removed.some((f) => f.kind === 'ssh-key')
    const checkout = token || key
    const what = token ? 'the token actions/checkout persisted' : key ? 'the SSH key actions/checkout persisted' : 'credentials persisted in the checkout'
    if (kept)
      lines.push(`Kept the credentials persisted in the checkout (persisted-credentials: keep): the commands Converge runs can read them and push with them (${list}).`)
    else
      lines.push(
        `Removed ${what} before running commands (${list}); nothing is restored, so a later step that needs git credentials must bring its own.${checkout ? ' Set persist-credentials: false on actions/checkout to silence this.' : ''}`,
      )
  }
  if (scrub.outside.length)
    lines.push(`Found credentials outside the checkout, left in place and readable by the commands Converge runs: ${scrub.outside.map((f) => `${f.what} in ${f.where}`).join('; ')}.`)
  return lines
}

class Scrub {
  readonly removed: FoundCredential[] = []
  private readonly visited = new Set<string>()
  private readonly runnerTemp: string | undefined

  constructor(
    private readonly repoDir: string,
    private readonly options: ScrubOptions,
  ) {
    this.runnerTemp = options.runnerTemp ? resolve(options.runnerTemp) : undefined
  }

  /** Removes the credentials of one config file and of the files it includes. */
  async file(file: string, depth: number): Promise<void> {
    if (this.visited.has(file) || depth > MAX_INCLUDE_DEPTH) return
    this.visited.add(file)
    const entries = await readConfig(file, this.repoDir)
    const where = this.display(file)
    const done = new Set<string>()
    for (const entry of entries) {
      const { key, value } = entry
      if (isIncludeKey(key)) {
        await this.include(file, entry, depth)
      } else if (isAuthHeader(entry)) {
        if (done.has(key)) continue
        done.add(key)
        await this.change(file, ['--unset-all', key])
        this.found({ kind: 'auth-header', what: `the Authorization header ${key}`, where })
      } else if (/^credential\.(?:.+\.)?helper$/.test(key) && value.trim()) {
        if (done.has(key)) continue
        done.add(key)
        await this.change(file, ['--unset-all', key])
        this.found({ kind: 'credential-helper', what: `the credential helper ${key}`, where })
        for (const store of storeFiles(entries.filter((e) => e.key === key).map((e) => e.value))) await this.deleteUnderTemp(store, 'the credential store')
      } else if (/^url\..+\.(?:insteadof|pushinsteadof)$/.test(key)) {
        const base = key.slice('url.'.length, key.lastIndexOf('.'))
        if (!hasCredentials(base) || done.has(`url.${base}`)) continue
        done.add(`url.${base}`)
        await this.change(file, ['--remove-section', `url.${base}`])
        this.found({ kind: 'url-with-credentials', what: `url.${maskUrl(base)}.insteadOf`, where })
      } else if (/^remote\..+\.(?:url|pushurl)$/.test(key) && hasCredentials(value)) {
        await this.change(file, ['--fixed-value', '--replace-all', key, stripCredentials(value), value])
        this.found({ kind: 'url-with-credentials', what: `the user and password in ${key} (${maskUrl(value)})`, where })
      } else if (key === 'core.sshcommand' && /(?:^|\s)-i\s/.test(value)) {
        if (done.has(key)) continue
        done.add(key)
        await this.change(file, ['--unset-all', key])
        this.found({ kind: 'ssh-key', what: 'core.sshCommand with an SSH key', where })
        const keyFile = sshKeyFile(value, this.runnerTemp)
        if (keyFile) await this.deleteUnderTemp(keyFile, 'the SSH key')
      }
    }
  }

  /** An `include.path` / `includeIf.<condition>.path` entry: the file it names is scrubbed too, or deleted. */
  private async include(file: string, entry: Entry, depth: number): Promise<void> {
    const target = includedPath(entry.value, file)
    if (CHECKOUT_CREDENTIALS_FILE.test(entry.value)) {
      // actions/checkout's file: only its Authorization header is in it. Every entry naming it goes (those for a
      // container's paths, `/github/runner_temp/…`, included), and the file itself when it is under RUNNER_TEMP.
      if (await exists(target)) {
        await this.file(target, depth + 1)
        if (this.isUnderTemp(target)) await this.delete(target)
      }
      await this.change(file, ['--fixed-value', '--unset-all', entry.key, entry.value])
      return
    }
    if (await exists(target)) await this.file(target, depth + 1)
  }

  private found(credential: FoundCredential): void {
    this.removed.push(credential)
  }

  private async change(file: string, args: string[]): Promise<void> {
    if (this.options.dryRun) return
    try {
      await runGit(['config', '--file', file, ...args], { cwd: this.repoDir })
    } catch (error) {
      throw new CredentialRemovalError(`could not remove a credential from ${this.display(file)}: ${message(error)}`, error)
    }
  }

  private async deleteUnderTemp(path: string, what: string): Promise<void> {
    if (!this.isUnderTemp(path) || !(await exists(path))) return
    await this.delete(path)
    this.found({ kind: 'credentials-file', what, where: this.display(path) })
  }

  private async delete(path: string): Promise<void> {
    if (this.options.dryRun) return
    try {
      await rm(path, { force: true })
    } catch (error) {
      throw new CredentialRemovalError(`could not delete ${this.display(path)}: ${message(error)}`, error)
    }
  }

  private isUnderTemp(path: string): boolean {
    return this.runnerTemp !== undefined && isInside(this.runnerTemp, resolve(path))
  }

  /** Inside the checkout: relative to it; under RUNNER_TEMP: `$RUNNER_TEMP/…`; else as it is. */
  display(path: string): string {
    const full = resolve(path)
    if (isInside(this.repoDir, full)) return relative(this.repoDir, full)
    if (this.runnerTemp && isInside(this.runnerTemp, full)) return `$RUNNER_TEMP/${relative(this.runnerTemp, full)}`
    const home = homedir()
    if (home && isInside(home, full)) return `~/${relative(home, full)}`
    return full
  }
}

/** Credentials in the global and system configuration (and what they include): reported, not removed. */
async function outsideCredentials(repoDir: string, scrub: Scrub, serverUrl: string | undefined): Promise<FoundCredential[]> {
  const found: FoundCredential[] = []
  for (const scope of ['--global', '--system']) {
    let stdout: string
    try {
      ;({ stdout } = await runGit(['config', scope, '--includes', '--show-origin', '--list', '-z'], { cwd: repoDir }))
    } catch {
      continue // no such file
    }
    for (const { origin, entry } of parseOriginList(stdout)) {
      const where = scrub.display(origin.replace(/^file:/, ''))
      if (isAuthHeader(entry)) found.push({ kind: 'auth-header', what: `the Authorization header ${entry.key}`, where })
      else if (/^credential\.(?:.+\.)?helper$/.test(entry.key) && entry.value.trim() && servesServer(entry.key, serverUrl)) found.push({ kind: 'credential-helper', what: `the credential helper ${entry.key} (${entry.value.split(/\s/)[0]})`, where })
      else if (/^url\..+\.(?:insteadof|pushinsteadof)$/.test(entry.key) && hasCredentials(entry.key.slice(4, entry.key.lastIndexOf('.'))))
        found.push({ kind: 'url-with-credentials', what: `url.${maskUrl(entry.key.slice(4, entry.key.lastIndexOf('.')))}.insteadOf`, where })
    }
  }
  return found
}

/** The entries of one config file as written (no includes followed), keys as git normalises them. */
async function readConfig(file: string, cwd: string): Promise<Entry[]> {
  let stdout: string
  try {
    ;({ stdout } = await runGit(['config', '--file', file, '--no-includes', '--list', '-z'], { cwd }))
  } catch (error) {
    if (!(await exists(file))) return []
    throw new CredentialRemovalError(`could not read the git configuration ${file}: ${message(error)}`, error)
  }
  return stdout
    .split('\0')
    .filter(Boolean)
    .map((item) => {
      const newline = item.indexOf('\n')
      return newline < 0 ? { key: item, value: '' } : { key: item.slice(0, newline), value: item.slice(newline + 1) }
    })
}

/** `credential.helper` serves every host; `credential.<url>.helper` the hosts of its URL. */
function servesServer(key: string, serverUrl: string | undefined): boolean {
  if (key === 'credential.helper') return true
  const url = key.slice('credential.'.length, -'.helper'.length)
  try {
    return serverUrl !== undefined && new URL(url).host === new URL(serverUrl).host
  } catch {
    return false
  }
}

function isIncludeKey(key: string): boolean {
  return key === 'include.path' || (key.startsWith('includeif.') && key.endsWith('.path'))
}

function isAuthHeader({ key, value }: Entry): boolean {
  return /^http\.(?:.+\.)?extraheader$/.test(key) && /^\s*authorization\s*:/i.test(value)
}

/** Where an include entry points: `~/` is the home directory, a relative path is relative to the including file. */
function includedPath(value: string, from: string): string {
  if (value.startsWith('~/')) return join(homedir(), value.slice(2))
  return isAbsolute(value) ? value : resolve(dirname(from), value)
}

/** The files of `store` helpers (`store`, `store --file=<path>`, `store --file <path>`). */
function storeFiles(helpers: string[]): string[] {
  const files: string[] = []
  for (const helper of helpers) {
    const words = helper.trim().split(/\s+/)
    if (words[0] !== 'store' && words[0] !== 'git-credential-store') continue
    const index = words.findIndex((w) => w === '--file' || w.startsWith('--file='))
    if (index >= 0) files.push(words[index]!.startsWith('--file=') ? words[index]!.slice('--file='.length) : (words[index + 1] ?? ''))
  }
  return files.filter(Boolean).map((f) => f.replace(/^["']|["']$/g, ''))
}

/** The `-i <key>` file of an SSH command; `$RUNNER_TEMP` is expanded as the shell would. */
function sshKeyFile(command: string, runnerTemp: string | undefined): string | undefined {
  const match = /(?:^|\s)-i\s+(?:"([^"]+)"|'([^']+)'|(\S+))/.exec(command)
  const path = match?.[1] ?? match?.[2] ?? match?.[3]
  if (!path) return undefined
  return runnerTemp ? path.replace(/\$\{?RUNNER_TEMP\}?/g, runnerTemp) : path
}

/** `https://user:password@host/…` (`https://x-access-token:<token>@github.com/…`). */
function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url)
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.password !== ''
  } catch {
    return false
  }
}

function stripCredentials(url: string): string {
  const parsed = new URL(url)
  parsed.username = ''
  parsed.password = ''
  return parsed.toString()
}

function maskUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.username) parsed.username = '***'
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return '(a URL)'
  }
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path)
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))
}

function message(error: unknown): string {
  return error instanceof GitError ? error.stderr : error instanceof Error ? error.message : String(error)
}

