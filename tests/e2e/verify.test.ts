import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ExecutionRecordSchema } from '../../src/model/index.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent } from '../support/events.js'
import { disposeRuns, runAction } from '../support/runner.js'
import { auditAfterEach } from '../support/state-audit.js'

const BRANCH = 'converge/state'
const criteria = (text: string) => ({ criteria: [text], verification: '', definition_of_done: 'The check passes for users' })
const PLAN = {
  description: 'Check the repository',
  analysis: { risk: 'low', impact: 'low', complexity: 'low' },
  tasks: [
    { id: 'T1', title: 'Keep the README', action: 'Test', description: 'The README stays', files: [{ path: 'README.md', action: 'modify', changes: ['Keep it'] }], implementation: ['Nothing to do'], test: { commands: ['test -f README.md'] }, convergence: criteria('README.md exists at the root') },
    { id: 'T2', title: 'Validate the app', action: 'Test', description: 'The app check passes', files: [{ path: 'src/app.ts', action: 'modify', changes: ['Fix the value'] }], implementation: ['Fix the value'], test: { commands: ['node check.js'] }, convergence: criteria('check.js exits 0 for src/app.ts') },
    { id: 'T3', title: 'Keep the app file', action: 'Test', description: 'The app file stays', files: [{ path: 'src/other.ts', action: 'modify', changes: ['Keep it'] }], implementation: ['Nothing to do'], test: { commands: ['test -f src/app.ts'] }, convergence: criteria('src/app.ts exists after T2'), depends_on: ['T2'] },
  ],
}

describe('verify (dist/index.js against the API emulator)', () => {
  let gh: Emulator
  beforeEach(async () => {
    gh = await startEmulator({
      owner: 'octo-org', repo: 'demo',
      files: {
        'README.md': '# demo\n',
        'src/app.ts': 'export const value = "1"\n',
        'check.js': "console.error('src/app.ts:1:14: error: value must be a number'); process.exit(1)\n",
      },
    })
    gh.seed.user({ login: 'alice' })
    gh.seed.permission('alice', 'write')
    gh.seed.issue({ number: 44, title: 'Check the app', labels: ['converge:plan'], body: `\`\`\`json\n${JSON.stringify(PLAN, null, 2)}\n\`\`\`\n` })
  })
  afterEach(async () => {
    await disposeRuns()
    try { gh.expectNoViolations() } finally { await gh.close() }
  })
  auditAfterEach('verify', () => gh)

  const comment = (body: string) => runAction({ gh, event: issueCommentEvent({ gh, issue: 44, body, sender: 'alice' }) })

  it('refuses to run the commands of a plan nobody approved', async () => {
    await runAction({ gh, event: issueLabeledEvent({ gh, issue: 44, label: 'converge:plan', sender: 'alice' }) })
    const run = await comment('/converge verify')
    expect(run.outputs.status).toBe('refused')
    expect(gh.state.comments(44).at(-1)!.body).toContain('is not approved: its commands run only after `/converge approve`')
    expect(await gh.state.readFile(BRANCH, '.converge/issues/44/execution.json')).toBeNull()
    expect(gh.state.checkRuns().at(-1)).toMatchObject({ status: 'completed', conclusion: 'action_required' })
  })

  it('verifies every task against the checkout and reports through the check run, the comment and the state branch', async () => {
    await runAction({ gh, event: issueLabeledEvent({ gh, issue: 44, label: 'converge:plan', sender: 'alice' }) })
    expect((await comment('/converge approve')).outputs['quality-gate']).toBe('pass')
    const run = await comment('/converge verify')
    expect(run.errors).toEqual([])
    expect(run.outputs).toMatchObject({ status: 'failed', 'tasks-total': '3', 'tasks-completed': '2', 'tasks-failed': '1' })

    const record = ExecutionRecordSchema.parse(JSON.parse((await gh.state.readFile(BRANCH, '.converge/issues/44/execution.json'))!))
    expect(record.status).toBe('failed')
    expect(Object.fromEntries(Object.entries(record.tasks).map(([id, r]) => [id, r.status]))).toEqual({ T1: 'completed', T2: 'failed', T3: 'completed' })
    expect(record.tasks.T2!.convergence_verified).toContainEqual(expect.objectContaining({ kind: 'command', text: 'node check.js', verdict: 'fail', exit_code: 1 }))

    const check = gh.state.checkRuns().find((c) => c.id === Number(run.outputs['check-run-id']))!
    expect(check).toMatchObject({ name: 'converge / ISS-44', status: 'completed', conclusion: 'failure' })
    expect(check.annotations).toContainEqual(expect.objectContaining({ path: 'src/app.ts', start_line: 1, annotation_level: 'failure' }))

    const sticky = gh.state.comments(44).find((c) => c.body.startsWith('<!-- converge:ISS-44 -->'))!.body
    expect(sticky).toContain('node check.js')
    expect(sticky).toContain('/converge retry T2')
    const events = (await gh.state.readFile(BRANCH, '.converge/issues/44/events.md'))!
    expect(events).toContain('T2: Validate the app')
    expect((await gh.state.commits(BRANCH)).map((c) => c.message.split('\n')[0])).toEqual(expect.arrayContaining([
      'ISS-44: verification of SOL-ISS-44-1 started', 'ISS-44: T2 failed verification',
      // Against the checkout alone there is no base to compare with: T1 and T3 pass, but prove nothing.
      'ISS-44: T1 completed, not proven (not measured)', 'ISS-44: verification failed (0/3 tasks converged, 2 not proven (T1 not measured, T3 not measured))',
    ]))
  })

  describe('on a pull request', () => {
    const verifyOn = (pr: number) =>
      runAction({ gh, event: issueCommentEvent({ gh, issue: pr, body: '/converge verify', sender: 'alice' }), env: { GITHUB_SERVER_URL: gh.url } })
    const approved = async () => {
      await runAction({ gh, event: issueLabeledEvent({ gh, issue: 44, label: 'converge:plan', sender: 'alice' }) })
      await comment('/converge approve')
    }

    it("checks the pull request's head, not the default branch, and puts the check run on that commit", async () => {
      await approved()
      const pull = await gh.seed.pullRequest({
        title: 'Fix the value', body: 'Closes #44', head: { ref: 'fix-value' }, base: { ref: 'main' },
        files: { 'check.js': "console.log('1 passed'); process.exit(0)\n" }, user: 'alice',
      })
      const headSha = (await gh.state.branchHead('fix-value'))!
      const run = await verifyOn(pull.number)
      expect(run.errors).toEqual([])
      expect(run.outputs).toMatchObject({ status: 'completed', 'issue-id': 'ISS-44', 'tasks-completed': '3' })
      const check = gh.state.checkRuns().find((c) => c.id === Number(run.outputs['check-run-id']))!
      const record = ExecutionRecordSchema.parse(JSON.parse((await gh.state.readFile(BRANCH, '.converge/issues/44/execution.json'))!))
      // T3's check passed on the base already: it proves nothing about the pull request, so the check run is neutral.
      expect(check).toMatchObject({ name: 'converge / ISS-44', headSha, conclusion: 'neutral' })
      const sticky = gh.state.comments(44).find((c) => c.body.startsWith('<!-- converge:ISS-44 -->'))!.body
      expect(sticky).toContain(`against the head of #${pull.number}`)
      // The base is the baseline: T2's check failed there and passes on the head.
      expect(sticky).toContain('T2: `node check.js` failed before the pull request (exit 1) and passes after')
      expect(Object.fromEntries(Object.entries(record.tasks).map(([id, r]) => [id, r.evidence?.kind]))).toEqual({ T1: 'regression-guard', T2: 'proven', T3: 'unproven' })
      expect(run.outputs).toMatchObject({ 'tasks-proven': '2', 'tasks-unproven': '1' })
    })

    it("a person's pull request whose checks already passed on its base: neutral, with the reason", async () => {
      // Issue 45: a feature whose only check passes on main before any pull request.
      const plan = { ...PLAN, tasks: [{ ...PLAN.tasks[0], title: 'Add a badge', action: 'Add', type: 'feature', files: [{ path: 'src/app.ts', action: 'modify', changes: ['Export a badge'] }] }] }
      gh.seed.issue({ number: 45, title: 'Add a badge', labels: ['converge:plan'], body: `\`\`\`json\n${JSON.stringify(plan, null, 2)}\n\`\`\`\n` })
      await runAction({ gh, event: issueLabeledEvent({ gh, issue: 45, label: 'converge:plan', sender: 'alice' }) })
      await runAction({ gh, event: issueCommentEvent({ gh, issue: 45, body: '/converge approve', sender: 'alice' }) })
      const pull = await gh.seed.pullRequest({
        title: 'Add a badge', body: 'Closes #45', head: { ref: 'badge' }, base: { ref: 'main' }, files: { 'src/app.ts': 'export const value = "1"\nexport const badge = "b.svg"\n' }, user: 'alice',
      })
      const run = await verifyOn(pull.number)
      expect(run.errors).toEqual([])
      expect(run.outputs).toMatchObject({ status: 'completed', 'tasks-completed': '1', 'tasks-proven': '0', 'tasks-unproven': '1' })
      const check = gh.state.checkRuns().find((c) => c.id === Number(run.outputs['check-run-id']))!
      expect(check).toMatchObject({ conclusion: 'neutral', output: { title: expect.stringMatching(/^0\/1 tasks converged · 1 not proven \(T1 unproven\)/) } })
      const reason = 'T1: `test -f README.md` already passed before the pull request: nothing shows the pull request did what the task asks'
      expect(check.output.summary).toContain(reason)
      expect(gh.state.comments(45).find((c) => c.body.startsWith('<!-- converge:ISS-45 -->'))!.body).toContain(reason)
    })

    it("refuses a fork's pull request: its code would run with this repository's token", async () => {
      await approved()
      const pull = await gh.seed.pullRequest({
        title: 'Fix the value', body: 'Closes #44', head: { ref: 'patch-1' }, base: { ref: 'main' }, fork: { owner: 'mallory' },
        files: { 'check.js': "require('node:fs').writeFileSync('/tmp/converge-pwned', process.env.GITHUB_TOKEN || 'no token')\n" },
      })
      const run = await verifyOn(pull.number)
      expect(run.outputs.status).toBe('refused')
      expect(gh.state.comments(pull.number).at(-1)!.body).toContain('comes from the fork mallory/demo')
      expect(await gh.state.readFile(BRANCH, '.converge/issues/44/execution.json')).toBeNull()
      expect(gh.requests.some((r) => r.operationId === 'git/upload-pack')).toBe(false)
    })
  })
})
