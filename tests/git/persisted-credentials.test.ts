/**
 * Removing the credentials a checkout step persisted, on real repositories laid out the way actions/checkout
 * leaves them (v6: an includeIf'd file under RUNNER_TEMP; v4: the header in .git/config), with what other steps
 * leave on top (a store helper, a token in an insteadOf base and in the remote URL).
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runGit } from '../../src/git/git.js'
import { CredentialRemovalError, describeScrub, scrubPersistedCredentials } from '../../src/git/persisted-credentials.js'
import { persistCredentials } from '../support/persisted-credentials.js'

const TOKEN = 'ghs_persistedTokenValue0123456789'
const SERVER = 'https://github.com'

let root: string
let workspace: string
let runnerTemp: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'converge-persisted-'))
  workspace = join(root, 'workspace')
  runnerTemp = join(root, 'temp')
  await mkdir(runnerTemp)
  await runGit(['init', '--quiet', workspace], { cwd: root })
  await runGit(['remote', 'add', 'origin', 'https://github.com/octo-org/demo.git'], { cwd: workspace })
})
afterEach(() => rm(root, { recursive: true, force: true }))

/** Everything git in the checkout sees, includes followed, and every file it could read, as one text. */
async function reachable(): Promise<string> {
  const { stdout } = await runGit(['config', '--list', '--show-origin', '--includes'], { cwd: workspace, env: { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } })
  const local = await readFile(join(workspace, '.git', 'config'), 'utf8')
  const { readdir } = await import('node:fs/promises')
  const temp = await Promise.all((await readdir(runnerTemp)).map((f) => readFile(join(runnerTemp, f), 'utf8')))
  return [stdout, local, ...temp].join('\n')
}

const encoded = Buffer.from(`x-access-token:${TOKEN}`).toString('base64')

describe('scrubPersistedCredentials', () => {
  it('removes actions/checkout v6 credentials: the includeIf entries and the file under RUNNER_TEMP', async () => {
    const { credentialsFile } = await persistCredentials({ workspace, runnerTemp, serverUrl: SERVER, token: TOKEN, style: 'v6' })
    expect(await reachable()).toContain(encoded)

    const scrub = await scrubPersistedCredentials(workspace, { runnerTemp, serverUrl: SERVER })
    expect(scrub.removed).toEqual([{ kind: 'auth-header', what: 'the Authorization header http.https://github.com/.extraheader', where: `$RUNNER_TEMP/${credentialsFile!.slice(runnerTemp.length + 1)}` }])
    expect(existsSync(credentialsFile!)).toBe(false)
    const after = await reachable()
    expect(after).not.toContain(encoded)
    expect(after).not.toMatch(/includeif/i)
    expect(after).toContain('remote.origin.url=https://github.com/octo-org/demo.git')
    expect(describeScrub(scrub)[0]).toMatch(/^Removed the token actions\/checkout persisted before running commands \(the Authorization header http\.https:\/\/github\.com\/\.extraheader in \$RUNNER_TEMP\/git-credentials-[0-9a-f-]+\.config\); nothing is restored, .* Set persist-credentials: false on actions\/checkout to silence this\.$/)

    // A second pass finds nothing.
    expect(await scrubPersistedCredentials(workspace, { runnerTemp, serverUrl: SERVER })).toEqual({ removed: [], outside: [] })
  })

  it('removes the v4 header from .git/config, the store helper and its file, and the token in URLs', async () => {
    const { storeFile } = await persistCredentials({ workspace, runnerTemp, serverUrl: SERVER, token: TOKEN, style: 'v4', extras: true })
    const before = await reachable()
    expect(before).toContain(encoded)
    expect(before).toContain(TOKEN)

    const scrub = await scrubPersistedCredentials(workspace, { runnerTemp, serverUrl: SERVER })
    expect(scrub.removed.map((f) => [f.kind, f.what, f.where])).toEqual([
      ['url-with-credentials', 'the user and password in remote.origin.url (https://***:***@github.com/octo-org/demo.git)', '.git/config'],
      ['auth-header', 'the Authorization header http.https://github.com/.extraheader', '.git/config'],
      ['credential-helper', 'the credential helper credential.helper', '.git/config'],
      ['credentials-file', 'the credential store', '$RUNNER_TEMP/git-credentials-store'],
      ['url-with-credentials', 'url.https://***:***@github.com/.insteadOf', '.git/config'],
    ])
    expect(existsSync(storeFile!)).toBe(false)
    const after = await reachable()
    expect(after).not.toContain(encoded)
    expect(after).not.toContain(TOKEN)
    // The remote is kept, without the credentials; nothing the token was in is shown.
    expect(after).toContain('remote.origin.url=https://github.com/octo-org/demo.git')
    expect(JSON.stringify(scrub)).not.toContain(TOKEN)
  })

  it('reports without changing anything in dry-run (persisted-credentials: keep)', async () => {
    await persistCredentials({ workspace, runnerTemp, serverUrl: SERVER, token: TOKEN, style: 'v4' })
    const scrub = await scrubPersistedCredentials(workspace, { runnerTemp, dryRun: true })
    expect(scrub.removed).toHaveLength(1)
    expect(await reachable()).toContain(encoded)
    expect(describeScrub(scrub, true)[0]).toMatch(/^Kept the credentials persisted in the checkout \(persisted-credentials: keep\): the commands Converge runs can read them/)
  })

  it('removes the header from a submodule config and leaves a clean checkout alone', async () => {
    expect(await scrubPersistedCredentials(workspace, { runnerTemp, serverUrl: SERVER })).toEqual({ removed: [], outside: [] })
    const module = join(workspace, '.git', 'modules', 'lib')
    await runGit(['init', '--quiet', '--bare', module], { cwd: root })
    await runGit(['config', '--file', join(module, 'config'), 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${encoded}`], { cwd: root })
    const scrub = await scrubPersistedCredentials(workspace, { runnerTemp, serverUrl: SERVER })
    expect(scrub.removed.map((f) => f.where)).toEqual(['.git/modules/lib/config'])
    expect(await readFile(join(module, 'config'), 'utf8')).not.toContain(encoded)
  })

  it("removes checkout's persisted ssh-key: core.sshCommand and the key file under RUNNER_TEMP", async () => {
    const key = join(runnerTemp, '6c1f3d0e-2b7a-4d55-9c61-0f4c2b8e7a10')
    await writeFile(key, '-----BEGIN OPENSSH PRIVATE KEY-----\nnot a real key\n-----END OPENSSH PRIVATE KEY-----\n', { mode: 0o600 })
    await runGit(['config', '--local', 'core.sshCommand', `"/usr/bin/ssh" -i "$RUNNER_TEMP/${key.slice(runnerTemp.length + 1)}" -o StrictHostKeyChecking=yes`], { cwd: workspace })
    const scrub = await scrubPersistedCredentials(workspace, { runnerTemp, serverUrl: SERVER })
    expect(scrub.removed.map((f) => [f.kind, f.what, f.where])).toEqual([
      ['ssh-key', 'core.sshCommand with an SSH key', '.git/config'],
      ['credentials-file', 'the SSH key', `$RUNNER_TEMP/${key.slice(runnerTemp.length + 1)}`],
    ])
    expect(existsSync(key)).toBe(false)
    expect(await readFile(join(workspace, '.git', 'config'), 'utf8')).not.toContain('sshcommand')
    expect(describeScrub(scrub)[0]).toMatch(/^Removed the SSH key actions\/checkout persisted before running commands .* Set persist-credentials: false on actions\/checkout to silence this\.$/)
  })

  it('finds nothing outside a git repository', async () => {
    expect(await scrubPersistedCredentials(runnerTemp, { runnerTemp })).toEqual({ removed: [], outside: [] })
  })

  it('reports a credential helper of the global configuration for all hosts or this server, and changes nothing there', async () => {
    const home = join(root, 'home')
    await mkdir(home)
    const global = `[credential]\n\thelper = store\n[credential "https://example.org"]\n\thelper = other\n[credential "https://github.com"]\n\thelper = !gh auth git-credential\n`
    await writeFile(join(home, '.gitconfig'), global)
    const saved = process.env.HOME
    process.env.HOME = home
    try {
      const scrub = await scrubPersistedCredentials(workspace, { runnerTemp, serverUrl: SERVER })
      expect(scrub.removed).toEqual([])
      expect(scrub.outside.filter((f) => f.where === '~/.gitconfig').map((f) => f.what)).toEqual([
        'the credential helper credential.helper (store)',
        'the credential helper credential.https://github.com.helper (!gh)',
      ])
      expect(describeScrub(scrub).at(-1)).toMatch(/^Found credentials outside the checkout, left in place and readable by the commands Converge runs: the credential helper credential\.helper \(store\) in ~\/\.gitconfig; /)
      expect(await readFile(join(home, '.gitconfig'), 'utf8')).toBe(global)
    } finally {
      process.env.HOME = saved
    }
  })

  it('fails, saying where, when a credential cannot be removed (the config is locked)', async () => {
    await persistCredentials({ workspace, runnerTemp, serverUrl: SERVER, token: TOKEN, style: 'v4' })
    await writeFile(join(workspace, '.git', 'config.lock'), '')
    const error = await scrubPersistedCredentials(workspace, { runnerTemp }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CredentialRemovalError)
    expect((error as Error).message).toMatch(/^could not remove a credential from \.git\/config: error: could not lock config file .*\/\.git\/config: File exists$/)
    expect((error as Error).message).not.toContain(encoded)
  })
})
