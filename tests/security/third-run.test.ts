/**
 * The third attack run (issue 35), replayed through `dist/index.js` against the API emulator as
 * tests/security/attacks.test.ts replays the second: each attack is tried the way the attacker did it, and the test
 * prints a table of the attacks tried, held and broken. Every attack must hold.
 *
 * The attacker here: bob, who has `write` where `min-permission` is `maintain` — he may push the state branch and
 * edit anyone's comment, but may not approve. alice is the maintainer whose runs he steers.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SolutionSchema, type Solution } from '../../src/model/index.js'
import { planHash } from '../../src/plan/hash.js'
import { answerPlan, answerTask, CHECK_SCRIPT, issueBodyWithPlan } from '../support/answer-plans.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent, workflowDispatchEvent, type ActionEvent } from '../support/events.js'
import { disposeRuns, runAction, type RunnerPaths } from '../support/runner.js'
import { printAttackTable, type Attack } from './support/attack-table.js'
import { CI_FILES } from './support/ci-files.js'
import { SUITE_SIZE } from '../support/suite-size.js'

const TOKEN = 'ghs_thirdRunRepositoryToken0123456789abcd'
const EXECUTOR = `
const fs = require('node:fs')
const path = require('node:path')
const task = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))
for (const file of task.files) { fs.mkdirSync(path.dirname(file.path), { recursive: true }); fs.writeFileSync(file.path, '42\\n') }
`
const PLAN = answerPlan([answerTask('T1', 'src/a.txt')])

/**
 * tools/file-commands.js, as a planner command (it runs before any approval): appends to the runner's file commands
 * wherever it finds them — the paths in its parent's /proc/<pid>/environ, and the directory they sit in (on a real
 * runner \`$RUNNER_TEMP/_runner_file_commands/\`, here the harness's \`files/\` beside the workspace) — then writes a plan.
 */
const FILE_COMMANDS_PLANNER = `
const fs = require('node:fs')
const path = require('node:path')
const targets = new Set()
const environ = (() => { try { return fs.readFileSync('/proc/' + process.ppid + '/environ', 'latin1') } catch { return '' } })()
for (const entry of environ.split('\\0')) { const m = /^(GITHUB_ENV|GITHUB_PATH|GITHUB_OUTPUT|GITHUB_STATE|GITHUB_STEP_SUMMARY)=(\\/.+)$/.exec(entry); if (m) targets.add(m[1] + ' ' + m[2]) }
const dir = path.join(process.cwd(), '..', 'files')
const names = { env: 'GITHUB_ENV', path: 'GITHUB_PATH', output: 'GITHUB_OUTPUT', state: 'GITHUB_STATE', step_summary: 'GITHUB_STEP_SUMMARY' }
for (const [file, name] of Object.entries(names)) targets.add(name + ' ' + path.join(dir, file))
const lines = { GITHUB_ENV: 'NODE_OPTIONS=--require=/tmp/evil.js\\n', GITHUB_PATH: '/tmp/evil-bin\\n', GITHUB_OUTPUT: 'status=completed\\n', GITHUB_STATE: 'evil=1\\n', GITHUB_STEP_SUMMARY: 'All tasks converged (evil)\\n' }
for (const target of targets) { const [name, file] = [target.slice(0, target.indexOf(' ')), target.slice(target.indexOf(' ') + 1)]; try { fs.appendFileSync(file, lines[name]) } catch {} }
fs.writeFileSync(process.env.CONVERGE_PLAN_FILE, JSON.stringify(${JSON.stringify(PLAN)}))
`

/** Where tools/plant.js's programs say they ran; issue 27's plan runs it as its command. */
const plantingPlan = (planted: string) => answerPlan([{ ...answerTask('T1', 'README.md'), test: { commands: [`node tools/plant.js ${planted}`] } }])

/** tools/big-report.js: does its task, and reports 40 MB of `evidence` for its criterion. */
const BIG_REPORT_EXECUTOR = EXECUTOR + `
fs.writeFileSync(process.env.CONVERGE_RESULT_FILE, JSON.stringify({ criteria: task.convergence.criteria.map((text) => ({ text, met: true, evidence: 'e'.repeat(40 * 1024 * 1024) })) }))
`

/** tools/ci-executor.js: does its task, and writes every other CI system's configuration nobody declared. */
const CI_EXECUTOR = EXECUTOR + `
for (const file of ${JSON.stringify(CI_FILES)}) { fs.mkdirSync(path.dirname(file), { recursive: true }); fs.writeFileSync(file, 'steps: [ env ]\\n') }
`

/**
 * tools/plant.js <dir>: what a pull request's base (or an executor) leaves in .git — a filter driver in .git/config
 * named by .git/info/attributes, an fsmonitor, post-checkout and reference-transaction hooks; each program appends
 * its name to <dir>/ran — and a change to README.md, so that Converge's checkouts have a file to put back.
 */
const PLANT = `
const fs = require('node:fs')
const path = require('node:path')
const cp = require('node:child_process')
const dir = process.argv[2]
const program = path.join(dir, 'program.sh')
fs.writeFileSync(program, '#!/bin/sh\\necho "$1" >> "' + path.join(dir, 'ran') + '"\\ncat\\n', { mode: 0o755 })
const gitDir = cp.spawnSync('git', ['rev-parse', '--absolute-git-dir'], { encoding: 'utf8' }).stdout.trim()
const git = (...args) => cp.spawnSync('git', args)
git('config', 'filter.evil.clean', program + ' clean')
git('config', 'filter.evil.smudge', program + ' smudge')
git('config', 'core.fsmonitor', program + ' fsmonitor')
fs.mkdirSync(path.join(gitDir, 'info'), { recursive: true })
fs.writeFileSync(path.join(gitDir, 'info', 'attributes'), '* filter=evil\\n')
for (const hook of ['post-checkout', 'reference-transaction']) fs.writeFileSync(path.join(gitDir, 'hooks', hook), '#!/bin/sh\\n' + program + ' ' + hook + ' < /dev/null\\n', { mode: 0o755 })
fs.appendFileSync('README.md', 'planted\\n')
`

/** Every run of the suite, about a minute: in CI (`CONVERGE_SUITE_SIZE=3`) or with `CONVERGE_SECURITY_SUITE=1`. */
const RUN_SUITE = SUITE_SIZE >= 3 || process.env.CONVERGE_SECURITY_SUITE === '1'

describe.runIf(RUN_SUITE)('the third attack run, through dist/index.js', () => {
  let gh: Emulator
  let out: string
  const attacks: Attack[] = []
  const record = (finding: string, what: string, held: boolean) => attacks.push({ finding, what, held })

  const action = (event: ActionEvent, options: { inputs?: Record<string, string>; env?: Record<string, string>; prepare?: (paths: RunnerPaths) => Promise<void> } = {}) =>
    runAction({
      gh, event,
      inputs: { 'github-token': TOKEN, 'executor-command': 'node tools/executor.js', 'min-permission': 'maintain', ...options.inputs },
      env: { GITHUB_SERVER_URL: gh.url, ATTACK_OUT: out, ...options.env },
      timeoutMs: 60_000,
      ...(options.prepare ? { prepare: options.prepare } : {}),
    })
  const comment = (issue: number, body: string, sender = 'alice') => action(issueCommentEvent({ gh, issue, body, sender }))
  const label = (issue: number) => action(issueLabeledEvent({ gh, issue, label: 'converge:plan', sender: 'alice' }))
  const planPath = (n: number) => `.converge/issues/${n}/plan.json`
  const storedPlan = async (n: number) => SolutionSchema.parse(JSON.parse((await gh.state.readFile('converge/state', planPath(n)))!))
  const lastReply = (n: number) => gh.state.comments(n).at(-1)!.body
  const lastCommentBy = (n: number, login: string) => gh.state.comments(n).filter((c) => c.author === login).at(-1)!
  /** bob's plan for issue `n`: the stored plan with his own command in T1. */
  const bobsPlan = (plan: Solution): Solution => ({ ...plan, tasks: plan.tasks.map((t, i) => (i === 0 ? { ...t, description: 'bob was here', test: { ...t.test, commands: ['node -e "require(\'fs\').writeFileSync(\'bob-ran\', \'\')"'] } } : t)) })
  /** bob pushes `plan` to the state branch with `approval` recomputed for it. */
  const push = async (n: number, plan: Solution, approval: Record<string, unknown>) => {
    const approved = { ...plan, approval: { plan_hash: planHash(plan), approved_at: new Date().toISOString(), issue: n, plan_id: plan.id, ...approval } }
    await gh.seed.commit({ branch: 'converge/state', files: { [planPath(n)]: `${JSON.stringify(approved, null, 2)}\n` }, message: 'bob: an approval' })
  }
  /** bob edits a comment through the API, as his write permission allows (a second later: GitHub's times are in seconds). */
  const edit = async (id: number, body: string) => {
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    const response = await fetch(`${gh.url}/repos/octo-org/demo/issues/comments/${id}`, { method: 'PATCH', headers: { authorization: 'token bob-token', 'content-type': 'application/json' }, body: JSON.stringify({ body }) })
    expect(response.status).toBe(200)
  }

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'converge-third-run-'))
    await mkdir(join(out, 'planted'))
    gh = await startEmulator({
      owner: 'octo-org', repo: 'demo',
      files: { 'README.md': '# demo\n', 'tools/executor.js': EXECUTOR, 'tools/check.js': CHECK_SCRIPT, 'tools/plant.js': PLANT, 'tools/ci-executor.js': CI_EXECUTOR, 'tools/file-commands.js': FILE_COMMANDS_PLANNER, 'tools/big-report.js': BIG_REPORT_EXECUTOR },
    })
    gh.seed.user({ login: 'alice' })
    gh.seed.permission('alice', 'maintain')
    gh.seed.user({ login: 'bob' })
    gh.seed.permission('bob', 'write')
    gh.seed.token('bob-token', 'bob')
    for (const n of [21, 22, 23, 24, 25, 26, 28, 30]) gh.seed.issue({ number: n, title: `Issue ${n}`, labels: ['converge:plan'], body: issueBodyWithPlan(PLAN) })
    gh.seed.issue({ number: 27, title: 'Issue 27', labels: ['converge:plan'], body: issueBodyWithPlan(plantingPlan(join(out, 'planted'))) })
    gh.seed.issue({ number: 29, title: 'Issue 29', labels: [], body: 'Plan this.' })
  })
  afterAll(async () => {
    printAttackTable('Security suite, third attack run (tests/security/third-run.test.ts, through dist/index.js)', attacks)
    await disposeRuns()
    await rm(out, { recursive: true, force: true })
    await gh.close()
  })

  it('1: bob edits alice’s earlier approval to name his plan’s hash; alice’s execute refuses it', async () => {
    await label(21)
    expect((await comment(21, '/converge approve')).outputs.status).toBe('planned')
    const alices = lastCommentBy(21, 'alice')
    const his = bobsPlan(await storedPlan(21))
    await push(21, his, { approved_by: 'alice', via: 'comment', comment_id: alices.id, comment_on: 21 })
    await edit(alices.id, `/converge approve ${planHash(his)}`)
    const executed = await comment(21, '/converge execute')
    const held = executed.outputs.status === 'refused' && /was edited after it was made/.test(lastReply(21))
    record('1', 'a writer edits a maintainer’s approval comment to name his plan’s hash', held)
    expect(held, lastReply(21)).toBe(true)
  })

  it('1: approvals refused when they were made (4 hex digits, `sha256:` with none) never count later', async () => {
    await label(22)
    const his = bobsPlan(await storedPlan(22))
    const prefix = planHash(his).slice(0, 'sha256:'.length + 4)
    const refusedThen = await comment(22, `/converge approve ${prefix}`)
    expect(refusedThen.outputs.status).toBe('refused')
    await push(22, his, { approved_by: 'alice', via: 'comment', comment_id: lastCommentBy(22, 'alice').id, comment_on: 22 })
    const executed = await comment(22, '/converge execute')
    const held = executed.outputs.status === 'refused' && /was refused when it was made/.test(lastReply(22))
    record('1', 'a maintainer’s refused `approve sha256:<4 hex>` approves a plan ground to share the prefix', held)

    await label(23)
    expect((await comment(23, '/converge approve sha256:')).outputs.status).toBe('refused')
    const theirs = bobsPlan(await storedPlan(23))
    await push(23, theirs, { approved_by: 'alice', via: 'comment', comment_id: lastCommentBy(23, 'alice').id, comment_on: 23 })
    const again = await comment(23, '/converge execute')
    const held2 = again.outputs.status === 'refused' && /was refused when it was made/.test(lastReply(23))
    record('1', 'a refused `approve sha256:` (no digits) counts as a hashless approval of any pushed plan', held2)
    expect([held, held2], lastReply(22) + '\n' + lastReply(23)).toEqual([true, true])
  })

  it('1: a plan changed in place after a hashless approval does not run; the approved one does', async () => {
    await label(24)
    expect((await comment(24, '/converge approve')).outputs.status).toBe('planned')
    const approved = await storedPlan(24)
    const his = bobsPlan(approved)
    await push(24, his, { ...approved.approval, plan_hash: planHash(his) })
    const executed = await comment(24, '/converge execute')
    const held = executed.outputs.status === 'refused' && /Converge recorded no approval of sha256:[0-9a-f]{64} for it/.test(lastReply(24))
    record('1', 'a plan changed in place (approval hash recomputed) after a hashless approval runs', held)
    expect(held, lastReply(24)).toBe(true)

    // The control: alice's hashless approval of the plan as it was still executes it.
    await gh.seed.commit({ branch: 'converge/state', files: { [planPath(24)]: `${JSON.stringify(approved, null, 2)}\n` }, message: 'put the approved plan back' })
    const control = await comment(24, '/converge execute')
    expect(control.outputs.status, lastReply(24)).toBe('completed')
  })

  it('1: an approval "by workflow run R", R a maintainer’s queued verify run, does not run in R', async () => {
    await label(25)
    const runId = '7770025'
    const plan = bobsPlan(await storedPlan(25))
    await push(25, plan, { approved_by: 'alice', via: 'workflow', run: `${gh.url}/octo-org/demo/actions/runs/${runId}` })
    const verify = await action(workflowDispatchEvent({ gh, sender: 'alice', inputs: { command: 'verify' } }), { inputs: { command: 'verify', 'issue-number': '25' }, env: { GITHUB_RUN_ID: runId } })
    const held = verify.outputs.status === 'refused' && /do not name its full hash/.test(lastReply(25))
    record('1', 'a pushed record "approved by workflow run R" runs the plan in the maintainer’s verify run R', held)
    expect(held, lastReply(25)).toBe(true)
  })

  it('4: /converge verify on a pull request whose base command plants a filter driver, fsmonitor and hooks: Converge’s checkouts run none', async () => {
    const planted = join(out, 'planted')
    await label(27)
    expect((await comment(27, '/converge approve')).outputs.status).toBe('planned')
    const pull = await gh.seed.pullRequest({ title: 'Stacked', body: 'Closes #27', head: { ref: 'stacked' }, base: { ref: 'main' }, files: { 'README.md': '# demo, changed\n' }, user: 'alice' })
    const verify = await comment(pull.number, '/converge verify')
    const ran = (await readFile(join(planted, 'ran'), 'utf8').catch(() => '')).split('\n').filter(Boolean)
    const held = ran.length === 0 && /verif/i.test(verify.stdout + verify.outputs.status) && verify.outputs.status !== 'refused'
    record('4', 'a pull request’s base command plants a filter driver (.git/config + info/attributes), fsmonitor and hooks that Converge’s checkout and status run', held)
    expect({ ran, status: verify.outputs.status }, lastReply(pull.number)).toEqual({ ran: [], status: expect.not.stringMatching(/refused/) })
  })

  it('4: an executor writes other CI systems’ configuration nobody declared: the task fails naming it, nothing is pushed', async () => {
    await label(28)
    expect((await comment(28, '/converge approve')).outputs.status).toBe('planned')
    const executed = await action(issueCommentEvent({ gh, issue: 28, body: '/converge execute', sender: 'alice' }), { inputs: { 'executor-command': 'node tools/ci-executor.js' } })
    const execution = JSON.parse((await gh.state.readFile('converge/state', '.converge/issues/28/execution.json'))!) as { tasks: Record<string, { error?: string }> }
    const error = execution.tasks.T1?.error ?? ''
    const pushed = (await gh.state.listFiles('converge/issue-28').catch((): string[] => [])) ?? []
    const missed = CI_FILES.filter((file) => !error.includes(file) || pushed.includes(file))
    record('4', `an executor writes ${CI_FILES.length} other CI systems’ files (.cirrus.yml, appveyor.yml, .woodpecker/, .semaphore/, cloudbuild.yaml, buildspec.yml, .gitea/, .forgejo/, .gitlab/ci/, codefresh.yml, …) undeclared`, missed.length === 0 && executed.outputs['tasks-completed'] === '0')
    expect(missed).toEqual([])
  })

  it('5: a planner command appends NODE_OPTIONS to the runner’s set_env file (and to PATH, outputs, state, summary): removed before the step ends, and said', async () => {
    let paths: RunnerPaths | undefined
    const planned = await action(issueCommentEvent({ gh, issue: 29, body: '/converge plan', sender: 'alice' }), {
      inputs: { planner: 'command', 'planner-command': 'node tools/file-commands.js' },
      prepare: async (p) => { paths = p },
    })
    const read = (file: string) => readFile(file, 'utf8').catch(() => '')
    const [env, path, output, state, summary] = await Promise.all([paths!.env, paths!.path, paths!.output, paths!.state, paths!.summary].map(read))
    const planted = [env.includes('NODE_OPTIONS'), path.includes('evil-bin'), output.includes('status=completed'), state.includes('evil=1'), summary.includes('(evil)')]
    const said = planned.warnings.some((w) => /removed GITHUB_ENV \(\d+ bytes: NODE_OPTIONS\)/.test(w))
    record('5', 'a planner command (before any approval) appends NODE_OPTIONS=--require=… to GITHUB_ENV, and to GITHUB_PATH, GITHUB_OUTPUT, GITHUB_STATE, GITHUB_STEP_SUMMARY', planted.every((p) => !p) && said && planned.outputs.status === 'planned')
    expect({ planted, said, status: planned.outputs.status }, planned.warnings.join('\n')).toEqual({ planted: [false, false, false, false, false], said: true, status: 'planned' })
  })

  it('3: a 40 MB `evidence` string in the executor’s report never reaches the state branch, and status still reads the state', async () => {
    await label(30)
    expect((await comment(30, '/converge approve')).outputs.status).toBe('planned')
    const executed = await action(issueCommentEvent({ gh, issue: 30, body: '/converge execute', sender: 'alice' }), { inputs: { 'executor-command': 'node tools/big-report.js' } })
    const execution = (await gh.state.readFile('converge/state', '.converge/issues/30/execution.json')) ?? ''
    const status = await comment(30, '/converge status')
    // Over the 1 MB read cap, the report is ignored whole; a report under it has each text cut (tests/model/bounded.test.ts).
    const held = execution.length < 200_000 && status.exitCode === 0 && status.outputs.status === 'completed'
    record('3', 'a 40 MB `evidence` string in the executor’s report is stored verbatim (a 39 MB execution.json), after which reading the state fails', held)
    expect({ size: execution.length < 200_000, executed: executed.outputs.status, status: status.outputs.status }).toEqual({ size: true, executed: 'completed', status: 'completed' })
  }, 120_000)

  it('every attack held', () => {
    expect(attacks.filter((a) => !a.held)).toEqual([])
  })
})
