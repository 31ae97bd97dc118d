import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SolutionSchema } from '../../src/model/index.js'
import { planHash } from '../../src/plan/hash.js'
import { approvedHashArgument, approveIfPassing, approvePlan } from '../../src/pipeline/approve.js'
import { signalIssue } from '../../src/pipeline/control.js'
import { pipelinePlan } from '../../src/pipeline/plan-command.js'
import { statePaths, toStateJson } from '../../src/model/state-layout.js'
import { LocalGitStore } from '../../src/state/local-git-store.js'
import type { IssueDocument } from '../../src/planners/types.js'
import { bareRepo, countCommits, type TempRepo } from '../support/temp-repos.js'

const GOOD: IssueDocument = {
  number: 3, title: 'Add a health endpoint', labels: [],
  body: '## Tasks\n- [ ] Add `src/health.ts` answering 200\n\n## Acceptance criteria\n- GET /health answers 200 with {"status":"ok"}\n\n## Verification\n```sh\nnpm test\n```\n\nRisk: low',
}
const VAGUE: IssueDocument = { number: 4, title: 'Make it faster', labels: [], body: 'It is slow.' }

describe('approve and control signals', () => {
  let repo: TempRepo
  let store: LocalGitStore
  beforeEach(async () => {
    repo = await bareRepo()
    store = new LocalGitStore({ repoDir: repo.dir })
  })
  afterEach(() => repo.cleanup())
  const plan = async (n: number) => SolutionSchema.parse(JSON.parse((await (await store.snapshot()).read(statePaths.plan(n)))!))

  it('binds the approval to the plan hash, once', async () => {
    await pipelinePlan(store, GOOD, 'auto', '2026-01-01T00:00:00Z')
    const first = await approvePlan(store, 3, 'alice', '2026-01-01T01:00:00Z')
    expect(first).toMatchObject({ ok: true, alreadyApproved: false })
    const stored = await plan(3)
    expect(stored.approval).toEqual({ plan_hash: planHash(stored), approved_by: 'alice', approved_at: '2026-01-01T01:00:00Z', issue: 3, plan_id: stored.id })
    const again = await approvePlan(store, 3, 'bob', '2026-01-01T02:00:00Z')
    expect(again).toMatchObject({ ok: true, alreadyApproved: true, commit: null })
    expect((await plan(3)).approval!.approved_by).toBe('alice')
  })

  it('approves only the hash the approver read: a re-plan in between is refused with both hashes', async () => {
    await pipelinePlan(store, GOOD, 'auto', '2026-01-01T00:00:00Z')
    const hash = planHash(await plan(3))
    expect(await approvePlan(store, 3, 'alice', '2026-01-01T01:00:00Z', {}, 'sha256:0123456789ab')).toEqual({
      ok: false, reason: `you approved sha256:0123456789ab, but the plan of ISS-3 is now ${hash} (SOL-ISS-3-1): it was planned again since. Read the plan as it is now and approve its hash`,
    })
    expect((await plan(3)).approval).toBeUndefined()
    const approved = await approvePlan(store, 3, 'alice', '2026-01-01T01:00:00Z', { via: 'comment', comment_id: 7, comment_on: 3 }, hash.slice(0, 19))
    expect(approved).toMatchObject({ ok: true, summary: expect.stringContaining(`(${hash})`) })
    expect((await plan(3)).approval).toMatchObject({ issue: 3, via: 'comment', comment_id: 7, comment_on: 3 })
  })

  it('sees an approval as stale once the stored plan is edited, and approves the new content', async () => {
    await pipelinePlan(store, GOOD, 'auto', '2026-01-01T00:00:00Z')
    await approvePlan(store, 3, 'alice', '2026-01-01T01:00:00Z')
    const approved = await plan(3)
    const edited = { ...approved, tasks: approved.tasks.map((t) => ({ ...t, title: `${t.title} (edited)` })) }
    const head = (await store.snapshot()).head
    await store.commit({ message: 'edit the plan by hand', files: { [statePaths.plan(3)]: toStateJson(edited) } }, head)
    expect(planHash(edited)).not.toBe(edited.approval!.plan_hash)
    const reapproved = await approvePlan(store, 3, 'bob', '2026-01-01T02:00:00Z')
    expect(reapproved).toMatchObject({ ok: true, alreadyApproved: false })
    expect((await plan(3)).approval).toMatchObject({ approved_by: 'bob', plan_hash: planHash(edited) })
  })

  it('says what the approver of a plan gated review accepts; a plan that passes needs no such sentence', async () => {
    const manualOnly = {
      description: 'Tidy the health page', analysis: { risk: 'low', impact: 'low', complexity: 'low' },
      tasks: [{
        id: 'T1', title: 'Tidy the health page', action: 'Update', description: 'Tidy it', files: [{ path: 'src/health.ts', action: 'modify', changes: ['Tidy'] }],
        implementation: ['Tidy'], convergence: { criteria: ['The health page lists every check'], verification: 'Manual: open /health and read it', definition_of_done: 'Operators read the page at a glance' },
      }],
    }
    const REVIEW: IssueDocument = { number: 5, title: 'Tidy the health page', labels: [], body: `\`\`\`json\n${JSON.stringify(manualOnly)}\n\`\`\`\n` }
    const planned = await pipelinePlan(store, REVIEW, 'auto', '2026-01-01T00:00:00Z')
    expect(planned.result.analysis.gate).toBe('review')
    const approved = await approvePlan(store, 5, 'alice', '2026-01-01T01:00:00Z')
    expect(approved).toMatchObject({ ok: true, accepted: expect.stringMatching(/^the gate said review \(\d+\/100\): by approving, @alice accepts 3 findings: T1 can only be verified by hand.*Nothing will be verified by a command/) })
    expect((approved as { accepted: string }).accepted).toContain('criterion of T1 no command checks')
    await pipelinePlan(store, GOOD, 'auto', '2026-01-01T00:00:00Z')
    expect(await approvePlan(store, 3, 'alice', '2026-01-01T01:00:00Z')).not.toHaveProperty('accepted')
  })

  it('refuses to approve what is missing or fails its gate', async () => {
    expect(await approvePlan(store, 3, 'alice', '2026-01-01T00:00:00Z')).toEqual({ ok: false, reason: 'ISS-3 has no plan yet: run `/converge plan` first' })
    await pipelinePlan(store, VAGUE, 'auto', '2026-01-01T00:00:00Z')
    const refused = await approvePlan(store, 4, 'alice', '2026-01-01T01:00:00Z')
    expect(refused).toMatchObject({ ok: false, reason: expect.stringContaining('fails its quality gate') })
    // The three most severe findings, then how many more.
    expect((refused as { reason: string }).reason).toMatch(/^SOL-ISS-4-1 fails its quality gate \(\d+\/100\): improve the plan, then plan again\. Approving it would accept 5 findings: [^;]+; [^;]+; [^;]+; and 2 more in the plan's findings$/)
  })

  it("records a new approving comment anew, naming the issue's author; the same comment again changes nothing", async () => {
    await pipelinePlan(store, { ...GOOD, author: 'carol' }, 'auto', '2026-01-01T00:00:00Z')
    const first = await approvePlan(store, 3, 'alice', '2026-01-01T01:00:00Z', { via: 'comment', comment_id: 7, comment_on: 3 })
    const hash = planHash(await plan(3))
    expect(first).toMatchObject({ ok: true, alreadyApproved: false, summary: `Approved by @alice: SOL-ISS-3-1 (${hash}), made from @carol's issue.` })
    expect(await approvePlan(store, 3, 'alice', '2026-01-01T01:30:00Z', { via: 'comment', comment_id: 7, comment_on: 3 })).toMatchObject({ ok: true, alreadyApproved: true, commit: null })
    const second = await approvePlan(store, 3, 'bob', '2026-01-01T02:00:00Z', { via: 'comment', comment_id: 8, comment_on: 3 })
    expect(second).toMatchObject({ ok: true, alreadyApproved: true, commit: expect.any(String), summary: `Already approved: SOL-ISS-3-1 (${hash}), made from @carol's issue.` })
    expect((await plan(3)).approval).toMatchObject({ approved_by: 'bob', comment_id: 8 })
    const workflow = await approvePlan(store, 3, 'bob', '2026-01-01T03:00:00Z', { via: 'workflow', run: 'https://github.com/o/r/actions/runs/12' })
    expect(workflow).toMatchObject({ ok: true, commit: expect.any(String) })
    expect((await plan(3)).approval).toMatchObject({ via: 'workflow', run: 'https://github.com/o/r/actions/runs/12' })
  })

  it('refuses to approve a plan whose re-plan was rejected: the stored plan is not what the issue now asks', async () => {
    await pipelinePlan(store, GOOD, 'auto', '2026-01-01T00:00:00Z')
    const cycle = {
      description: 'Two tasks waiting on each other', analysis: { risk: 'low', impact: 'low', complexity: 'low' },
      tasks: ['T1', 'T2'].map((id, i) => ({
        id, title: `Step ${id}`, action: 'Update', description: 'Do it', depends_on: [i ? 'T1' : 'T2'], files: [{ path: `src/${id}.ts`, action: 'create', changes: [] }],
        implementation: ['Do it'], convergence: { criteria: ['GET /health answers 200'], verification: 'npm test', definition_of_done: 'The page answers' },
      })),
    }
    const rejected = await pipelinePlan(store, { ...GOOD, body: `\`\`\`json\n${JSON.stringify(cycle)}\n\`\`\`\n` }, 'auto', '2026-01-01T00:30:00Z')
    expect(rejected.result.issueState.status).toBe('failed')
    expect(await approvePlan(store, 3, 'alice', '2026-01-01T01:00:00Z')).toEqual({
      ok: false, reason: 'The last plan for ISS-3 was rejected: fix it and run `/converge plan` again',
    })
    expect((await plan(3)).approval).toBeUndefined()
  })

  it('auto-approves a plan that passes its gate once, as auto-approve, and never one gated review', async () => {
    await pipelinePlan(store, GOOD, 'auto', '2026-01-01T00:00:00Z')
    const stored = await plan(3)
    const first = await approveIfPassing(store, 3, stored, 'converge-bot', '2026-01-01T01:00:00Z')
    expect(first.approvedNow).toBe(true)
    expect(first.plan.approval).toEqual({ plan_hash: planHash(stored), approved_by: 'converge-bot', approved_at: '2026-01-01T01:00:00Z', issue: 3, plan_id: stored.id, via: 'auto-approve' })
    expect(await plan(3)).toEqual(first.plan)
    const commits = await countCommits(repo, store.branch)
    const again = await approveIfPassing(store, 3, first.plan, 'someone-else', '2026-01-01T02:00:00Z')
    expect(again).toEqual({ plan: first.plan, approvedNow: false })
    expect(await countCommits(repo, store.branch)).toBe(commits)

    const manualOnly = {
      description: 'Tidy the health page', analysis: { risk: 'low', impact: 'low', complexity: 'low' },
      tasks: [{
        id: 'T1', title: 'Tidy the health page', action: 'Update', description: 'Tidy it', files: [{ path: 'src/health.ts', action: 'modify', changes: ['Tidy'] }],
        implementation: ['Tidy'], convergence: { criteria: ['The health page lists every check'], verification: 'Manual: open /health and read it', definition_of_done: 'Operators read the page at a glance' },
      }],
    }
    await pipelinePlan(store, { number: 5, title: 'Tidy', labels: [], body: `\`\`\`json\n${JSON.stringify(manualOnly)}\n\`\`\`\n` }, 'auto', '2026-01-01T00:00:00Z')
    const review = await plan(5)
    expect(await approveIfPassing(store, 5, review, 'converge-bot', '2026-01-01T01:00:00Z')).toEqual({ plan: review, approvedNow: false })
    expect((await plan(5)).approval).toBeUndefined()
  })

  it('pauses, resumes and stops only what can be, and says why not', async () => {
    expect(await signalIssue(store, 3, 'pause', 'alice', '2026-01-01T00:00:00Z')).toEqual({
      ok: false, reason: 'ISS-3 is not known to Converge yet: run `/converge plan` first',
    })
    await pipelinePlan(store, GOOD, 'auto', '2026-01-01T00:00:00Z')
    expect(await signalIssue(store, 3, 'resume', 'alice', '2026-01-01T00:01:00Z')).toEqual({ ok: false, reason: 'ISS-3 is planned: nothing to resume' })
    expect(await signalIssue(store, 3, 'pause', 'alice', '2026-01-01T00:02:00Z')).toMatchObject({ ok: true, status: 'paused' })
    expect(await signalIssue(store, 3, 'stop', 'alice', '2026-01-01T00:03:00Z')).toMatchObject({ ok: true, status: 'failed' })
    expect(await signalIssue(store, 3, 'resume', 'alice', '2026-01-01T00:04:00Z')).toMatchObject({ ok: true, status: 'planned' })
    expect(await countCommits(repo, store.branch)).toBe(4)
  })
})

describe('approvedHashArgument', () => {
  const refusal = { error: '`approve` takes the plan\'s content hash as the comment shows it (sha256: and at least 12 hex digits), or nothing' }
  it('takes the hash as the comment shows it: 12 to 64 hex digits, with or without sha256: and the ellipsis, in either case', () => {
    expect(approvedHashArgument([])).toEqual({})
    expect(approvedHashArgument(['sha256:3f2a0123abcd'])).toEqual({ hash: 'sha256:3f2a0123abcd' })
    expect(approvedHashArgument(['3F2A0123ABCD…', 'extra'])).toEqual({ hash: 'sha256:3f2a0123abcd' })
    expect(approvedHashArgument(['SHA256:' + 'a'.repeat(64)])).toEqual({ hash: `sha256:${'a'.repeat(64)}` })
  })
  it('refuses fewer than 12 digits, more than 64, and anything that is no hash', () => {
    for (const given of ['sha256:3f2a0123abc', 'a'.repeat(65), 'sha256:', 'sha256:3f2a0123abcg', 'xsha256:3f2a0123abcd', '3f2a0123abcd…x', 'please'])
      expect(approvedHashArgument([given]), given).toEqual(refusal)
  })
})
