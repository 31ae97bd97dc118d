/**
 * Converge's authenticated git calls (fetch and push with the token) run outside the checkout's configuration.
 * Whatever an executor or a plan's command writes into `.git/config` (or a file it includes, or `~/.gitconfig`)
 * would otherwise steer them: `http.proxy` or `http.<url>.proxy` sends the token to a proxy of its choosing
 * (`http.sslVerify false` / `http.sslCAInfo` let it read https), `url.<base>.insteadOf` sends the request to
 * another server, `http.curloptResolve` to another address, `credential.*` / `core.sshCommand` / `core.hooksPath`
 * run its programs. `-c` overrides cannot close this: an `insteadOf` base or a more specific `http.<url>.*` key
 * is never named by them.
 *
 * So the call runs in a scratch repository Converge creates for it (a fresh `git init`, no hooks, its own
 * config), reading and writing the checkout's object store through `GIT_OBJECT_DIRECTORY`, with the system and
 * global configuration switched off. The checkout's refs are then updated by a local command that carries no
 * token.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runGit } from './git.js'

export interface SealedRemote {
  url: string
  token: string
}

/**
 * Arguments that keep hooks, fsmonitor and signing programs of the checkout out of Converge's local git commands,
 * the global attributes file (`~/.config/git/attributes`) unread, and no automatic `gc` or maintenance started.
 * The drivers attributes name (`filter`, `merge`) are per name: {@link sealedLocalEnv} switches them off.
 */
export const NO_CHECKOUT_PROGRAMS = [
  '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'commit.gpgSign=false', '-c', 'tag.gpgSign=false',
  '-c', 'core.attributesFile=/dev/null', '-c', 'gc.auto=0', '-c', 'maintenance.auto=false',
] as const

/**
 * The environment for a local git command in the checkout that runs none of the programs the checkout's or the
 * user's configuration names for attributes: whatever \`.gitattributes\`, \`.git/info/attributes\` or an attributes
 * file says, every \`filter.<name>\` configured anywhere (the checkout's config, a file it includes, \`~/.gitconfig\`)
 * gets empty \`clean\`/\`smudge\`/\`process\` commands (git then stores and checks out the bytes as they are) and is
 * not \`required\`; every \`merge.<name>.driver\` becomes \`false\` (a conflict, never the driver's program). The
 * settings go through \`GIT_CONFIG_COUNT\` (a name holding \`=\` cannot break out of them as it could of \`-c\`), with
 * system attributes off. With \`own: true\`, the system and global configuration are not read at all (for calls
 * that make no commit, so need no identity from them).
 */
export async function sealedLocalEnv(repoDir: string, options: { own?: boolean } = {}): Promise<Record<string, string>> {
  const listed = await runGit(['config', '--null', '--name-only', '--get-regexp', '^(filter|merge)\\.'], { cwd: repoDir }).catch(() => ({ stdout: '' }))
  const settings: Array<[string, string]> = []
  const seen = new Set<string>()
  for (const key of listed.stdout.split('\0')) {
    const section = key.slice(0, key.indexOf('.')).toLowerCase()
    const name = key.slice(key.indexOf('.') + 1, key.lastIndexOf('.'))
    if (!name || seen.has(`${section}.${name}`)) continue
    seen.add(`${section}.${name}`)
    if (section === 'filter') for (const [k, v] of [['clean', ''], ['smudge', ''], ['process', ''], ['required', 'false']]) settings.push([`filter.${name}.${k}`, v!])
    else if (section === 'merge') settings.push([`merge.${name}.driver`, 'false'])
  }
  return {
    GIT_ATTR_NOSYSTEM: '1',
    ...(options.own ? sealedConfigOnly() : {}),
    GIT_CONFIG_COUNT: String(settings.length),
    ...Object.fromEntries(settings.flatMap(([key, value], i) => [[`GIT_CONFIG_KEY_${i}`, key], [`GIT_CONFIG_VALUE_${i}`, value]])),
  }
}

/** Fetches `source` from the remote into the checkout's `localRef`; returns the commit fetched. */
export async function fetchSealed(repoDir: string, remote: SealedRemote, source: string, localRef: string): Promise<string> {
  return inScratch(repoDir, remote, async (git) => {
    // What the checkout has, so the server sends only what is missing (its objects are shared).
    const head = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: repoDir }).catch(() => ({ stdout: '' }))
    if (head.stdout.trim()) await git(['update-ref', 'refs/converge/have', head.stdout.trim()])
    await git(['fetch', '--no-tags', '--quiet', remote.url, `+${source}:refs/converge/fetched`])
    const oid = (await git(['rev-parse', 'refs/converge/fetched'])).trim()
    await runGit(['update-ref', localRef, oid], { cwd: repoDir })
    return oid
  })
}

/** Pushes `commit` (an object of the checkout) to `remoteRef`, never forced. */
export async function pushSealed(repoDir: string, remote: SealedRemote, commit: string, remoteRef: string): Promise<void> {
  await inScratch(repoDir, remote, async (git) => {
    await git(['push', '--quiet', '--porcelain', remote.url, `${commit}:${remoteRef}`])
  })
}

type ScratchGit = (args: string[]) => Promise<string>

async function inScratch<T>(repoDir: string, remote: SealedRemote, work: (git: ScratchGit) => Promise<T>): Promise<T> {
  const commonDir = (await runGit(['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repoDir })).stdout.trim()
  const scratch = await mkdtemp(join(tmpdir(), 'converge-remote-'))
  try {
    const env = sealedEnv(scratch, join(commonDir, 'objects'), remote)
    await runGit(['init', '--quiet', '--bare', '--template=', scratch], { cwd: scratch, env: sealedConfigOnly() })
    // A shallow checkout (actions/checkout's fetch-depth: 1): history stops where the checkout's does.
    await copyFile(join(commonDir, 'shallow'), join(scratch, 'shallow')).catch(() => undefined)
    return await work(async (args) => (await runGit(args, { cwd: scratch, env })).stdout)
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

/** No system configuration, an empty global one (`~/.gitconfig` and `$XDG_CONFIG_HOME/git/config` unread). */
function sealedConfigOnly(): Record<string, string> {
  return { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }
}

/**
 * The scratch repository as `GIT_DIR`, the checkout's objects, and the token as a header for the remote's origin
 * (the empty value first clears any other). Askpass and credential helpers are off: the header is all it sends.
 */
export function sealedEnv(scratch: string, objects: string, remote: SealedRemote): Record<string, string> {
  const header = `http.${new URL(remote.url).origin}/.extraheader`
  const settings: Array<[string, string]> = [
    [header, ''],
    [header, `AUTHORIZATION: basic ${encodedCredentials(remote.token)}`],
    ['core.hooksPath', '/dev/null'],
    ['credential.helper', ''],
    ['http.followRedirects', 'false'],
  ]
  return {
    ...sealedConfigOnly(),
    GIT_DIR: scratch,
    GIT_OBJECT_DIRECTORY: objects,
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GIT_CONFIG_COUNT: String(settings.length),
    ...Object.fromEntries(settings.flatMap(([key, value], i) => [[`GIT_CONFIG_KEY_${i}`, key], [`GIT_CONFIG_VALUE_${i}`, value]])),
  }
}

/** The form of the token that appears in the header, to be masked like the token itself. */
export function encodedCredentials(token: string): string {
  return Buffer.from(`x-access-token:${token}`).toString('base64')
}
