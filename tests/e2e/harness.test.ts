/**
 * The end-to-end harness itself: it runs the built action like a runner, against the emulator, with webhook
 * payloads adapted to the emulator's repository. A probe preloaded into the action's process (NODE_OPTIONS
 * --import, passed like any test variable) reports from inside the child what it was given.
 */
import * as core from '@actions/core'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runGit } from '../../src/git/git.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent, workflowDispatchEvent } from '../support/events.js'
import {
  actionInputs,
  disposeRuns,
  inputVariable,
  parseFileCommand,
  parseWorkflowCommands,
  runAction,
  runnerEnv,
  runnerPaths,
} from '../support/runner.js'

const CORE_URL = pathToFileURL(join(process.cwd(), 'node_modules/@actions/core/lib/core.js')).href

/** Dumps its environment, uses @actions/core's file commands and escaping, and calls the API once. */
const REPORTING_PROBE = `
import { appendFileSync, writeFileSync } from 'node:fs'
import * as core from '${CORE_URL}'
writeFileSync(process.env.PROBE_OUT, JSON.stringify(process.env))
core.setOutput('multi-line', 'line 1\\nline 2')
appendFileSync(process.env.GITHUB_OUTPUT, 'plain=a=b\\n')
await core.summary.addHeading('Probe summary').write()
core.warning('50% done\\nnext: %0A stays')
core.notice('look here', { file: 'src/a.ts', startLine: 3 })
await fetch(process.env.GITHUB_API_URL + '/rate_limit', { headers: { authorization: 'token ' + process.env['INPUT_GITHUB-TOKEN'] } })
`

/** Starts a grandchild that outlives nothing, then hangs. */
const HANGING_PROBE = `
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' })
writeFileSync(process.env.PROBE_OUT, String(sleeper.pid))
await new Promise((resolve) => setTimeout(resolve, 60_000))
`

/** The names a run's environment may have: the inherited two, the runner's, the inputs, the knobs and the probe's. */
const RUNNER_VARIABLE = /^(PATH|HOME|CI|LANG|NODE_OPTIONS|PROBE_OUT|(GITHUB|RUNNER|INPUT|CONVERGE)_.+)$/

let probes: string
let gh: Emulator

beforeAll(async () => {
  probes = await mkdtemp(join(tmpdir(), 'converge-harness-probe-'))
  await writeFile(join(probes, 'reporting.mjs'), REPORTING_PROBE)
  await writeFile(join(probes, 'hanging.mjs'), HANGING_PROBE)
})

afterAll(() => rm(probes, { recursive: true, force: true }))

beforeEach(async () => {
  gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n' } })
  gh.seed.issue({ number: 42, title: 'Add login', body: 'We need a login page.', labels: ['converge:plan'] })
  gh.seed.permission('alice', 'write')
})

afterEach(async () => {
  await disposeRuns()
  gh.expectNoViolations()
  await gh.close()
})

/** Environment that preloads `probe` into the action's process and tells it where to report. */
function probeEnv(probe: string, out: string): Record<string, string> {
  return { NODE_OPTIONS: `--import ${pathToFileURL(join(probes, probe)).href}`, PROBE_OUT: out }
}

describe('runAction', () => {
  it('runs dist/index.js with the default inputs on an event it ignores: a notice, the token masked, the workspace checked out', async () => {
    gh.seed.issue({ number: 43, title: 'Crash on start', labels: ['bug'] })
    const run = await runAction({ gh, event: issueLabeledEvent({ gh, issue: 43, label: 'bug', sender: 'alice' }) })

    expect(run).toMatchObject({ exitCode: 0, timedOut: false, outputs: {}, summary: '', timeToFirstRequestMs: null, errors: [] })
    expect(run.notices).toEqual(['Converge: nothing to do (label "bug" is not converge:plan or converge:execute)'])
    // The token, the form git sends it in (base64 of x-access-token:<token>), and the encodings a command could
    // print it in (reversed, base64) are all masked.
    const forms = [gh.token, [...gh.token].reverse().join(''), Buffer.from(gh.token).toString('base64'), Buffer.from(`x-access-token:${gh.token}`).toString('base64')]
    expect(run.masked).toEqual(expect.arrayContaining(forms))
    // Nothing else is masked: each value is a form of the token or of the header git sends, as such (reversed,
    // URL-encoded) or inside its base64 at some alignment.
    const secretsMasked = [gh.token, Buffer.from(`x-access-token:${gh.token}`).toString('base64')]
    const formOf = (m: string, v: string) =>
      m === v || m === [...v].reverse().join('') || m === encodeURIComponent(v) || [0, 1, 2].some((k) => Buffer.from('\0'.repeat(k) + v).toString('base64').includes(m))
    expect(run.masked.filter((m) => !secretsMasked.some((v) => formOf(m, v)))).toEqual([])
    expect(run.stdout).toContain(`::add-mask::${gh.token}`)
    const head = (await runGit(['rev-parse', 'HEAD'], { cwd: run.workspace })).stdout.trim()
    expect(head).toBe(await gh.state.branchHead('main'))
    expect(readFileSync(join(run.workspace, 'README.md'), 'utf8')).toBe('# demo\n')
    expect(gh.requests).toHaveLength(0)

    await run.dispose()
    expect(existsSync(run.workspace)).toBe(false)
  })

  it('passes inputs as INPUT_ variables over the defaults: a bad one is reported by name, in one multi-line error', async () => {
    const run = await runAction({
      gh,
      event: workflowDispatchEvent({ gh, sender: 'alice' }),
      inputs: { 'max-parallel': 'two', 'on-failure': 'explode' },
    })

    expect(run.exitCode).toBe(1)
    expect(run.errors).toEqual([
      'Converge: invalid inputs\n- max-parallel: max-parallel must be a whole number\n- on-failure: "explode" is not one of retry, skip, abort',
    ])
    expect(run.masked).toEqual([])
  })

  it('gives the action the runner variables and nothing else of the test process; reads outputs, summary and commands', async () => {
    const out = join(probes, 'env.json')
    process.env.HARNESS_SENTINEL = 'must not reach the action'
    // An event the action ignores, so that only the probe reports.
    const event = issueCommentEvent({ gh, issue: 42, body: 'Looks good to me', sender: 'alice' })
    const run = await runAction({ gh, event, inputs: { 'dry-run': 'true' }, env: probeEnv('reporting.mjs', out) }).finally(
      () => delete process.env.HARNESS_SENTINEL,
    )
    const env = JSON.parse(await readFile(out, 'utf8')) as Record<string, string>

    expect(env.HARNESS_SENTINEL).toBeUndefined()
    for (const name of Object.keys(env)) expect(name).toMatch(RUNNER_VARIABLE)
    expect(env).toMatchObject({
      'INPUT_GITHUB-TOKEN': gh.token,
      'INPUT_MAX-PARALLEL': '2',
      'INPUT_DRY-RUN': 'true',
      INPUT_COMMAND: '',
      GITHUB_EVENT_NAME: 'issue_comment',
      GITHUB_REPOSITORY: 'octo-org/demo',
      GITHUB_REPOSITORY_OWNER: 'octo-org',
      GITHUB_ACTOR: 'alice',
      GITHUB_API_URL: gh.url,
      GITHUB_GRAPHQL_URL: gh.graphqlUrl,
      GITHUB_REF: 'refs/heads/main',
      GITHUB_SHA: (await gh.state.branchHead('main'))!,
      GITHUB_WORKSPACE: run.workspace,
      CONVERGE_WRITE_INTERVAL_MS: '0',
      CONVERGE_RETRY_UNIT_MS: '10',
    })
    expect(JSON.parse(readFileSync(env.GITHUB_EVENT_PATH!, 'utf8'))).toEqual(event.payload)

    expect(run.outputs).toEqual({ 'multi-line': 'line 1\nline 2', plain: 'a=b' })
    expect(run.summary).toContain('<h1>Probe summary</h1>')
    expect(run.warnings).toEqual(['50% done\nnext: %0A stays'])
    expect(run.notices).toEqual(['look here', 'Converge: nothing to do (comment does not start with /converge)'])
    expect(run.errors).toEqual([])

    expect(gh.requests.map((r) => r.path)).toEqual(['/rate_limit'])
    expect(run.timeToFirstRequestMs).toBeGreaterThan(0)
    expect(run.timeToFirstRequestMs).toBeLessThan(run.durationMs)
  })

  it('kills the whole process group on timeout', async () => {
    const out = join(probes, 'sleeper.pid')
    const run = await runAction({
      gh,
      event: workflowDispatchEvent({ gh, sender: 'alice' }),
      env: probeEnv('hanging.mjs', out),
      timeoutMs: 1_000,
    })

    expect(run).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' })
    expect(run.durationMs).toBeLessThan(30_000) // the probe never ends on its own
    await expect.poll(() => isRunning(Number(readFileSync(out, 'utf8')))).toBe(false)
  })
})

describe('runner variables', () => {
  it('are built without the test process environment, except PATH and HOME', () => {
    process.env.HARNESS_SENTINEL = 'must not reach the action'
    try {
      const env = runnerEnv({
        paths: runnerPaths('/tmp/run'),
        apiUrl: gh.url,
        graphqlUrl: gh.graphqlUrl,
        event: workflowDispatchEvent({ gh, sender: 'alice' }),
        ref: 'refs/heads/main',
        sha: '0'.repeat(40),
        runNumber: 7,
        inputs: actionInputs(gh.token),
      })
      expect(env.HARNESS_SENTINEL).toBeUndefined()
      expect(Object.keys(env)).not.toContain('NODE_OPTIONS')
      expect(env).toMatchObject({ PATH: process.env.PATH, HOME: process.env.HOME, GITHUB_RUN_NUMBER: '7', GITHUB_REF_NAME: 'main' })
      for (const name of Object.keys(env)) expect(name).toMatch(RUNNER_VARIABLE)
    } finally {
      delete process.env.HARNESS_SENTINEL
    }
  })

  it('name inputs as @actions/core getInput reads them: spaces to _, upper case, dashes kept', () => {
    expect(inputVariable('github-token')).toBe('INPUT_GITHUB-TOKEN')
    expect(inputVariable('my input')).toBe('INPUT_MY_INPUT')
    for (const name of ['github-token', 'my input', 'Max-Parallel']) {
      process.env[inputVariable(name)] = `value of ${name}`
      try {
        expect(core.getInput(name)).toBe(`value of ${name}`)
      } finally {
        delete process.env[inputVariable(name)]
      }
    }
  })

  it('start from the defaults of action.yml, with ${{ github.token }} as the emulator token, and refuse unknown inputs', () => {
    expect(actionInputs('ghs_x', { planner: 'builtin' })).toMatchObject({ 'github-token': 'ghs_x', planner: 'builtin', 'max-parallel': '2' })
    expect(() => actionInputs('ghs_x', { 'max-paralel': '3' })).toThrow('action.yml declares no input max-paralel')
  })
})

describe('runner file and workflow commands', () => {
  it('reads name=value lines and name<<delimiter blocks', () => {
    const text = 'a=1\nb<<ghadelimiter_x\nline 1\n\nline 3\nghadelimiter_x\nc=x<<y\n'
    expect(parseFileCommand(text)).toEqual({ a: '1', b: 'line 1\n\nline 3', c: 'x<<y' })
    expect(() => parseFileCommand('d<<EOF\nnever closed\n')).toThrow('has no closing EOF')
  })

  it('unescapes messages like the runner and ignores other commands', () => {
    const stdout = '::group::x\n::error file=a%3At.ts,line=1::bad%0Aworse %2525\n::debug::d\nplain ::error::text\n'
    expect(parseWorkflowCommands(stdout)).toEqual({ error: ['bad\nworse %25'], warning: [], notice: [], 'add-mask': [], debug: ['d'] })
  })
})

describe('event payloads', () => {
  it('describe the emulator repository, issue, label and sender', () => {
    const { payload } = issueLabeledEvent({ gh, issue: 42, label: 'converge:plan', sender: 'alice' })
    const issue = gh.state.issue(42)!
    const alice = gh.state.user('alice')!
    expect(payload).toMatchObject({
      action: 'labeled',
      repository: { full_name: 'octo-org/demo', url: `${gh.url}/repos/octo-org/demo`, html_url: 'https://github.com/octo-org/demo', default_branch: 'main' },
      organization: { login: 'octo-org' },
      issue: { number: 42, id: issue.id, title: 'Add login', body: 'We need a login page.', html_url: 'https://github.com/octo-org/demo/issues/42' },
      label: { name: 'converge:plan', id: gh.state.labels()[0]!.id },
      sender: { login: 'alice', id: alice.id, type: 'User', url: `${gh.url}/users/alice` },
    })
    expect(payload.issue.pull_request).toBeUndefined()
    expect(JSON.stringify(payload)).not.toMatch(/Codertocat|Hello-World|api\.github\.com/)
    expect(() => issueLabeledEvent({ gh, issue: 42, label: 'bug', sender: 'alice' })).toThrow('seed issue #42 with the label bug')
  })

  it('seed the comment of an issue_comment, and mark comments on pull requests', async () => {
    await gh.seed.branch('feature')
    await gh.seed.pullRequest({ number: 7, title: 'Feature', head: { ref: 'feature' }, base: { ref: 'main' } })
    const { payload } = issueCommentEvent({ gh, issue: 7, body: '/converge verify', sender: 'github-actions[bot]' })
    const [comment] = gh.state.comments(7)
    expect(payload).toMatchObject({
      action: 'created',
      comment: { id: comment!.id, body: '/converge verify', user: { login: 'github-actions[bot]', type: 'Bot' } },
      issue: { number: 7, pull_request: { url: `${gh.url}/repos/octo-org/demo/pulls/7` } },
      sender: { login: 'github-actions[bot]', type: 'Bot' },
    })
  })
})

/** A process that exists and is not a zombie (an orphan killed in a container may wait a while to be reaped). */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}
