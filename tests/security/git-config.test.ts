/**
 * What an executor can write into the checkout's git configuration (or `~/.gitconfig`, or the hooks directory) to
 * steer Converge's own git calls: its fetch and push with the token, and its commits. Each attack is planted in a
 * fresh clone of the emulator's repository, then the work branch is prepared, a task committed and pushed the way
 * a run does, and the test looks at what reached the attacker: a capture server standing in for its proxy or
 * server, a marker file its programs write, and — for the settings that matter on https only (TLS checks, name
 * resolution, ssh, credential helpers) — the configuration the authenticated git call itself saw, logged by a
 * `git` on PATH that asks git for it in the same environment and directory before running the real one.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { identityEnv, runGit } from '../../src/git/git.js'
import { WorkBranch } from '../../src/git/work-branch.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { SUITE_SIZE } from '../support/suite-size.js'

interface Captured {
  url: string
  headers: IncomingHttpHeaders
}

let gh: Emulator
let root: string
let capture: Server
let captureUrl: string
const captured: Captured[] = []
let marker: string
let probeLog: string
let cloneCount = 0

beforeAll(async () => {
  gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n' } })
  root = await mkdtemp(join(tmpdir(), 'converge-git-config-'))
  marker = join(root, 'ran')
  probeLog = join(root, 'seen-config.log')
  capture = createServer((request, response) => {
    captured.push({ url: request.url ?? '', headers: request.headers })
    response.writeHead(502).end()
  })
  await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve))
  captureUrl = `http://127.0.0.1:${(capture.address() as AddressInfo).port}`
  // The probe `git`: before an authenticated call (one with a fetch or push), what that call's git sees.
  const shim = join(root, 'bin')
  await mkdir(shim)
  const realGit = (await runGit(['--exec-path'], { cwd: root })).stdout.trim()
  await writeFile(join(shim, 'git'), `#!/bin/sh\ncase " $* " in *" push "*|*" fetch "*) "${realGit}/git" config --list >> "${probeLog}" 2>&1 ;; esac\nexec "${realGit}/git" "$@"\n`)
  await chmod(join(shim, 'git'), 0o755)
  process.env.PATH = `${shim}:${process.env.PATH}`
})
afterAll(async () => {
  process.env.PATH = process.env.PATH!.split(':').slice(1).join(':')
  capture.close()
  await rm(root, { recursive: true, force: true })
  try { gh.expectNoViolations() } finally { await gh.close() }
})

const TOKEN = 'ghs_gitconfigattack0123456789abcdef'
const hook = (name: string) => `#!/bin/sh\necho "${name} $(env | grep -c TOKEN)" >> "${'$'}MARKER"\n`

/** A clone of the emulator's repository, as a runner's checkout. */
async function checkout(): Promise<string> {
  const dir = join(root, `clone-${++cloneCount}`)
  await runGit(['clone', '--quiet', gh.gitUrl, dir], { cwd: root, env: gh.gitAuthEnv() })
  return dir
}

/** Plants `attack` in a checkout, then commits and pushes a task there as a run does; says what reached the attacker. */
async function attempt(attack: (dir: string) => Promise<void>): Promise<{ captured: Captured[]; ran: string; seen: string; pushed: boolean }> {
  captured.length = 0
  await rm(marker, { force: true })
  await rm(probeLog, { force: true })
  const dir = await checkout()
  const branch = `converge/issue-${cloneCount}`
  process.env.MARKER = marker
  try {
    await attack(dir)
    const work = await WorkBranch.prepare({ repoDir: dir, branch, remote: { url: gh.gitUrl, token: TOKEN }, identity: { name: 'Converge', email: 'c@example.com' } })
    await writeFile(join(dir, 'answer.txt'), '42\n')
    await work.commitTask({ id: 'T1', title: 'Answer', files: [{ path: 'answer.txt' }] }, cloneCount, []).catch(() => null)
  } finally {
    delete process.env.MARKER
  }
  const pushed = gh.pushes.some((p) => p.refs.some((r) => r.ref === `refs/heads/${branch}`))
  return { captured: [...captured], ran: await readFile(marker, 'utf8').catch(() => ''), seen: await readFile(probeLog, 'utf8').catch(() => ''), pushed }
}

const config = (dir: string, ...args: string[]) => runGit(['config', ...args], { cwd: dir })
const origin = () => new URL(gh.gitUrl).origin

describe("an agent's git configuration does not reach Converge's authenticated calls", () => {
  const redirections: Array<[string, (dir: string) => Promise<void>]> = [
    ['http.proxy', async (dir) => { await config(dir, 'http.proxy', captureUrl) }],
    ['http.<url>.proxy (more specific than any -c)', async (dir) => { await config(dir, `http.${gh.gitUrl}.proxy`, captureUrl) }],
    ['url.<base>.insteadOf', async (dir) => { await config(dir, `url.${captureUrl}/.insteadOf`, `${origin()}/`) }],
    ['url.<base>.pushInsteadOf', async (dir) => { await config(dir, `url.${captureUrl}/.pushInsteadOf`, `${origin()}/`) }],
    ['include.path naming a file with http.proxy', async (dir) => {
      await writeFile(join(dir, '.git', 'extra.config'), `[http]\n\tproxy = ${captureUrl}\n`)
      await config(dir, 'include.path', 'extra.config')
    }],
    ['http.proxy in ~/.gitconfig (the global file)', async () => {
      const global = join(root, 'global.gitconfig')
      await writeFile(global, `[http]\n\tproxy = ${captureUrl}\n`)
      process.env.GIT_CONFIG_GLOBAL = global
    }],
  ]
  // The variants of the same redirection (pushInsteadOf, an include, the global file) in CI only: a clone each.
  const variants = SUITE_SIZE >= 3 ? redirections : redirections.slice(0, 3)
  for (const [name, plant] of variants)
    it(`${name}: the token goes to the repository's server only`, async () => {
      try {
        const outcome = await attempt(plant)
        expect(outcome.captured.map((c) => c.url)).toEqual([])
        expect(outcome.pushed).toBe(true)
      } finally {
        delete process.env.GIT_CONFIG_GLOBAL
      }
    })

  const settings: Array<[string, string]> = [
    ['http.sslVerify', 'false'],
    ['http.sslCAInfo', '/tmp/attacker-ca.pem'],
    ['http.sslCert', '/tmp/attacker-cert.pem'],
    ['http.sslKey', '/tmp/attacker-key.pem'],
    ['http.curloptResolve', '127.0.0.1:443:127.0.0.9'],
    ['http.extraHeader', 'X-Attacker: 1'],
    ['core.sshCommand', 'ssh -o ProxyCommand=steal'],
    ['credential.helper', '!steal'],
    ['credential.https://github.com.helper', '!steal'],
    ['core.askPass', '/tmp/steal'],
  ]
  it('TLS, name resolution, headers, ssh and credential settings are not what the authenticated call sees', async () => {
    const outcome = await attempt(async (dir) => {
      for (const [key, value] of settings) await config(dir, '--add', key, value)
      await config(dir, `http.${origin()}/.sslVerify`, 'false')
    })
    expect(outcome.pushed).toBe(true)
    expect(outcome.seen).toContain('http.followredirects=false') // the probe ran in the authenticated calls
    for (const [key, value] of settings) expect(outcome.seen, key).not.toContain(`${key.toLowerCase()}=${value}`)
    expect(outcome.seen).not.toContain('sslverify=false')
    expect(outcome.seen).not.toContain('steal')
  })
})

describe("hooks and programs an agent plants never run inside Converge's git commands", () => {
  const HOOKS = ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'pre-push', 'reference-transaction', 'post-checkout', 'post-rewrite']
  it(`.git/hooks (${HOOKS.join(', ')})`, async () => {
    const outcome = await attempt(async (dir) => {
      for (const name of HOOKS) await writeFile(join(dir, '.git', 'hooks', name), hook(name), { mode: 0o755 })
    })
    expect(outcome.ran).toBe('')
    expect(outcome.pushed).toBe(true)
  })

  it('core.hooksPath naming a directory of hooks', async () => {
    const outcome = await attempt(async (dir) => {
      const hooks = join(root, `hooks-${cloneCount}`)
      await mkdir(hooks, { recursive: true })
      for (const name of HOOKS) await writeFile(join(hooks, name), hook(name), { mode: 0o755 })
      await config(dir, 'core.hooksPath', hooks)
    })
    expect(outcome.ran).toBe('')
    expect(outcome.pushed).toBe(true)
  })

  it('core.fsmonitor and a signing program (commit.gpgSign with gpg.program)', async () => {
    const outcome = await attempt(async (dir) => {
      const program = join(root, `program-${cloneCount}`)
      await writeFile(program, hook('program'), { mode: 0o755 })
      await config(dir, 'core.fsmonitor', program)
      await config(dir, 'commit.gpgSign', 'true')
      await config(dir, 'gpg.program', program)
    })
    expect(outcome.ran).toBe('')
    expect(outcome.pushed).toBe(true)
  })

  it('the control: the same hook does run in a plain git commit there (the probe is not blind)', async () => {
    const dir = await checkout()
    await writeFile(join(dir, '.git', 'hooks', 'post-commit'), hook('post-commit'), { mode: 0o755 })
    await rm(marker, { force: true })
    await writeFile(join(dir, 'x.txt'), 'x\n')
    await runGit(['add', 'x.txt'], { cwd: dir })
    await runGit(['commit', '--quiet', '--no-verify', '-m', 'x'], { cwd: dir, env: { ...identityEnv({ name: 'T', email: 't@example.com' }), MARKER: marker } })
    expect(await readFile(marker, 'utf8')).toMatch(/^post-commit /)
  })
})
