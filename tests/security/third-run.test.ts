/**
 * The third attack run (issue 35), replayed through `dist/index.js` against the API emulator as
 * tests/security/attacks.test.ts replays the second: each attack is tried the way the attacker did it, and the test
 * prints a table of the attacks tried, held and broken. Every attack must hold.
 *
 * The attacker here: bob, who has `write` where `min-permission` is `maintain` — he may push the state branch and
 * edit anyone's comment, but may not approve. alice is the maintainer whose runs he steers.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SolutionSchema, type Solution } from '../../src/model/index.js'
import { planHash } from '../../src/plan/hash.js'
import { answerPlan, answerTask, issueBodyWithPlan, startAnswerRepo } from '../support/answer-plans.js'
import type { Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent, workflowDispatchEvent, type ActionEvent } from '../support/events.js'
import { disposeRuns, runAction, type RunnerPaths } from '../support/runner.js'
import { printAttackTable, type Attack } from './support/attack-table.js'

const TOKEN = 'ghs_thirdRunRepositoryToken0123456789abcd'
const EXECUTOR = `
const fs = require('node:fs')
const path = require('node:path')
const task = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))
for (const file of task.files) { fs.mkdirSync(path.dirname(file.path), { recursive: true }); fs.writeFileSync(file.path, '42\\n') }
`
const PLAN = answerPlan([answerTask('T1', 'src/a.txt')])

/** Every run of the suite, about a minute: in CI (`CONVERGE_SUITE_SIZE=3`) or with `CONVERGE_SECURITY_SUITE=1`. */
const RUN_SUITE = Number(process.env.CONVERGE_SUITE_SIZE ?? 1) >= 3 || process.env.CONVERGE_SECURITY_SUITE === '1'

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
    gh = await startAnswerRepo(EXECUTOR)
    gh.seed.permission('alice', 'maintain')
    gh.seed.user({ login: 'bob' })
    gh.seed.permission('bob', 'write')
    gh.seed.token('bob-token', 'bob')
    for (const n of [21, 22, 23, 24, 25, 26]) gh.seed.issue({ number: n, title: `Issue ${n}`, labels: ['converge:plan'], body: issueBodyWithPlan(PLAN) })
  }, 60_000)
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

  it('every attack held', () => {
    expect(attacks.filter((a) => !a.held)).toEqual([])
  })
})
