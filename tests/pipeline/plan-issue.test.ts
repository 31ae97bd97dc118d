import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IssueStateSchema, RunStateSchema, SolutionSchema } from '../../src/model/index.js'
import { planHash } from '../../src/plan/hash.js'
import { pipelinePlan } from '../../src/pipeline/plan-command.js'
import { statePaths } from '../../src/model/state-layout.js'
import { LocalGitStore } from '../../src/state/local-git-store.js'
import { transact } from '../../src/state/store.js'
import { signalIssue } from '../../src/pipeline/control.js'
import type { IssueDocument } from '../../src/planners/types.js'
import { bareRepo, countCommits, type TempRepo } from '../support/temp-repos.js'

const WELL_WRITTEN: IssueDocument = {
  number: 7,
  title: 'Add a health endpoint',
  labels: ['enhancement'],
  author: 'octocat',
  body: [
    'The load balancer needs a health check.',
    '',
    '## Tasks',
    '- [ ] Add `src/health.ts` exporting a handler that answers 200 with `{"status":"ok"}`',
    '- [ ] Register the route in `src/server.ts` (depends on T1)',
    '',
    '## Acceptance criteria',
    '- T1: GET /health answers 200 with body {"status":"ok"}',
    '- T2: the server routes /health to the handler without changing other routes',
    '',
    '## Verification',
    '```sh',
    'npm test',
    '```',
    '',
    'Risk: low',
  ].join('\n'),
}

const read = async (store: LocalGitStore, path: string) => (await store.snapshot()).read(path)

describe('plan pipeline on the local state branch', () => {
  let repo: TempRepo
  let store: LocalGitStore
  beforeEach(async () => {
    repo = await bareRepo()
    store = new LocalGitStore({ repoDir: repo.dir })
  })
  afterEach(() => repo.cleanup())

  it('commits issue, plan, run state and event in one commit with a message that says what changed', async () => {
    const { result } = await pipelinePlan(store, WELL_WRITTEN, 'auto', '2026-01-01T00:00:00Z')
    expect(result.analysis.gate).toBe('pass')
    expect(result.commit).toMatch(/^[0-9a-f]{40}$/)
    expect(await countCommits(repo, store.branch)).toBe(1)
    expect(await repo.git('log', '-1', '--format=%s', store.branch)).toBe('ISS-7: planned SOL-ISS-7-1 (2 tasks, gate pass)')

    const plan = SolutionSchema.parse(JSON.parse((await read(store, statePaths.plan(7)))!))
    expect(plan.id).toBe('SOL-ISS-7-1')
    expect(planHash(plan)).toBe(result.planHash)
    const issue = IssueStateSchema.parse(JSON.parse((await read(store, statePaths.issue(7)))!))
    expect(issue).toMatchObject({ id: 'ISS-7', status: 'planned', solution_id: 'SOL-ISS-7-1', author: 'octocat', labels: ['enhancement'] })
    expect(issue.body_sha).toMatch(/^sha256:[0-9a-f]{64}$/)
    const run = RunStateSchema.parse(JSON.parse((await read(store, statePaths.runState))!))
    expect(run.issues['ISS-7']).toMatchObject({ status: 'planned', solution_id: 'SOL-ISS-7-1' })
    expect(run.history.at(-1)).toMatchObject({ issue_id: 'ISS-7', from: null, to: 'planned' })
    expect(await read(store, statePaths.events(7))).toContain('ISS-7: plan SOL-ISS-7-1')
  })

  it('makes no commit when the same issue is planned again, and keeps an approval', async () => {
    await pipelinePlan(store, WELL_WRITTEN, 'auto', '2026-01-01T00:00:00Z')
    // Approve the stored plan (the approve command arrives later; the file format is what matters here).
    await transact(store, async (snapshot) => {
      const plan = SolutionSchema.parse(JSON.parse((await snapshot.read(statePaths.plan(7)))!))
      const approved = { ...plan, approval: { plan_hash: planHash(plan), approved_by: 'octocat', approved_at: '2026-01-01T01:00:00Z' } }
      return { message: 'ISS-7: approved', files: { [statePaths.plan(7)]: `${JSON.stringify(approved, null, 2)}\n` } }
    })
    const again = await pipelinePlan(store, WELL_WRITTEN, 'auto', '2026-01-02T00:00:00Z')
    expect(again.result.commit).toBeNull()
    expect(again.result.unchanged).toBe(true)
    expect(await countCommits(repo, store.branch)).toBe(2)
    expect(JSON.parse((await read(store, statePaths.plan(7)))!).approval.approved_by).toBe('octocat')
  })

  it('re-plans an edited issue as a new solution without the old approval', async () => {
    await pipelinePlan(store, WELL_WRITTEN, 'auto', '2026-01-01T00:00:00Z')
    const edited = { ...WELL_WRITTEN, body: WELL_WRITTEN.body.replace('- [ ] Register', '- [ ] Add a test in `test/health.test.ts` (depends on T1)\n- [ ] Register') }
    const { result } = await pipelinePlan(store, edited, 'auto', '2026-01-02T00:00:00Z')
    expect(result.solution!.id).toBe('SOL-ISS-7-2')
    expect(result.solution!.approval).toBeUndefined()
    expect(await countCommits(repo, store.branch)).toBe(2)
  })

  it('records only the failed issue state for an invalid plan, with its errors as feedback', async () => {
    const bad: IssueDocument = {
      ...WELL_WRITTEN,
      body: 'Plan:\n```json\n{"description":"Two tasks","tasks":[{"id":"T1","title":"A","action":"Add","depends_on":["T2"]},{"id":"T2","title":"B","action":"Add","depends_on":["T1"]}]}\n```',
    }
    const { result } = await pipelinePlan(store, bad, 'auto', '2026-01-01T00:00:00Z')
    expect(result.analysis.gate).toBe('fail')
    expect(result.analysis.errors.map((e) => e.message)).toEqual(['Circular dependency: T1 → T2 → T1'])
    expect(await read(store, statePaths.plan(7))).toBeUndefined()
    const issue = IssueStateSchema.parse(JSON.parse((await read(store, statePaths.issue(7)))!))
    expect(issue.status).toBe('failed')
    expect(issue.error).toContain('Circular dependency: T1 → T2 → T1')
    expect(issue.feedback).toHaveLength(1)
    expect(await repo.git('log', '-1', '--format=%s', store.branch)).toBe('ISS-7: plan rejected (1 error)')

    // The same bad plan again changes nothing.
    const again = await pipelinePlan(store, bad, 'auto', '2026-01-02T00:00:00Z')
    expect(again.result.commit).toBeNull()
    expect(await countCommits(repo, store.branch)).toBe(1)
  })

  it('keeps a stored plan when a later planning attempt fails', async () => {
    await pipelinePlan(store, WELL_WRITTEN, 'auto', '2026-01-01T00:00:00Z')
    const before = await read(store, statePaths.plan(7))
    await pipelinePlan(store, { ...WELL_WRITTEN, body: '```json\n{ "tasks": [ not json\n```' }, 'auto', '2026-01-02T00:00:00Z')
    expect(await read(store, statePaths.plan(7))).toBe(before)
    expect(JSON.parse((await read(store, statePaths.issue(7)))!).status).toBe('failed')
  })

  it('leaves a paused issue paused when its unchanged issue is planned again', async () => {
    await pipelinePlan(store, WELL_WRITTEN, 'auto', '2026-01-01T00:00:00Z')
    await signalIssue(store, 7, 'pause', 'octocat', '2026-01-01T01:00:00Z')
    const again = await pipelinePlan(store, WELL_WRITTEN, 'auto', '2026-01-02T00:00:00Z')
    expect(again.result.commit).toBeNull()
    expect(JSON.parse((await read(store, statePaths.issue(7)))!).status).toBe('paused')
  })
})
