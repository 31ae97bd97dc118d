import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IssueStateSchema, RunStateSchema, type IssueState } from '../../src/model/index.js'
import { epicOf, refreshEpic, renderEpicComment, rollUp } from '../../src/pipeline/epic.js'
import { pipelinePlan } from '../../src/pipeline/plan-command.js'
import type { IssueDocument } from '../../src/planners/types.js'
import { statePaths, toStateJson } from '../../src/model/state-layout.js'
import { LocalGitStore } from '../../src/state/local-git-store.js'
import { transact } from '../../src/state/store.js'
import { bareRepo, type TempRepo } from '../support/temp-repos.js'

const NOW = '2026-01-01T00:00:00Z'

const EPIC: IssueDocument = {
  number: 10,
  title: 'Login, end to end',
  labels: ['epic'],
  body: ['We ship login in three steps, in order:', '', '1. #11 Session store', '2. #12 Login form', '3. #13 Logout'].join('\n'),
}

const child = (number: number, extra = ''): IssueDocument => ({
  number,
  title: `Child ${number}`,
  labels: [],
  body: [
    `Part of #10.${extra}`,
    '',
    '## Tasks',
    `- [ ] Add \`src/child${number}.ts\` exporting a handler that answers 200`,
    '',
    '## Acceptance criteria',
    '- T1: GET /child answers 200',
    '',
    '## Verification',
    '```sh',
    'npm test',
    '```',
  ].join('\n'),
})

describe('epics through the plan pipeline (local mode, as `converge plan --issue-file`)', () => {
  let repo: TempRepo
  let store: LocalGitStore
  const issueState = async (n: number) => IssueStateSchema.parse(JSON.parse((await (await store.snapshot()).read(statePaths.issue(n)))!))
  beforeEach(async () => {
    repo = await bareRepo()
    store = new LocalGitStore({ repoDir: repo.dir })
  })
  afterEach(() => repo.cleanup())

  it('an issue whose list references other issues is recorded with its children, not planned as tasks', async () => {
    const { result, epic, output } = await pipelinePlan(store, EPIC, 'auto', NOW)
    expect(epic?.source).toMatchObject({ ordered: true, children: [{ number: 11, title: 'Session store' }, { number: 12 }, { number: 13 }] })
    expect(result.solution).toBeUndefined()
    expect(output.notes[0]).toContain('ISS-10 is an epic of #11, #12, #13, in this order')
    expect(await (await store.snapshot()).read(statePaths.plan(10))).toBeUndefined()
    expect(await issueState(10)).toMatchObject({ status: 'planned', solution_id: null, children: [11, 12, 13] })
    // Each child is registered, knows its epic, and waits for the children listed before it.
    expect(await issueState(11)).toMatchObject({ status: 'registered', parent: 10, title: 'Session store' })
    expect((await issueState(11)).blocked_by).toBeUndefined()
    expect(await issueState(13)).toMatchObject({ parent: 10, blocked_by: [11, 12] })
    const run = RunStateSchema.parse(JSON.parse((await (await store.snapshot()).read(statePaths.runState))!))
    expect(run.issues['ISS-13']).toMatchObject({ status: 'registered', blocked_by: [11, 12] })
    expect(run.queue).toEqual([])
    // The same epic again changes nothing.
    expect((await pipelinePlan(store, EPIC, 'auto', '2026-01-02T00:00:00Z')).result.commit).toBeNull()
  })

  it('a child planned later keeps its epic and what it waits for, and adds what its own text says (not its epic)', async () => {
    await pipelinePlan(store, EPIC, 'auto', NOW)
    const { result } = await pipelinePlan(store, child(12, ' Depends on #20. Start after #10 is under way.'), 'auto', NOW)
    expect(result.solution).toBeDefined()
    expect(await issueState(12)).toMatchObject({ status: 'planned', parent: 10, blocked_by: [11, 20] })
    const run = RunStateSchema.parse(JSON.parse((await (await store.snapshot()).read(statePaths.runState))!))
    expect(run.issues['ISS-12']!.blocked_by).toEqual([11, 20])
  })

  it('GitHub relations: sub-issues make an epic, the parent and blocked_by are recorded on a child', async () => {
    const github = { subIssues: [{ number: 21, title: 'API', state: 'open' }, { number: 22, title: 'UI', state: 'closed' }] }
    const { epic } = await pipelinePlan(store, { number: 20, title: 'Epic', labels: [], body: 'Tracking issue.' }, 'auto', NOW, undefined, { relations: github })
    expect(epic?.children.map((c) => [c.number, c.done])).toEqual([[21, false], [22, true]])
    await pipelinePlan(store, child(21), 'auto', NOW, undefined, { relations: { parent: 20, blockedBy: [30] } })
    expect(await issueState(21)).toMatchObject({ parent: 20, blocked_by: [30] })
  })

  it('a list of references with open work of its own is planned, and records its children', async () => {
    const mixed: IssueDocument = { ...child(40), body: `${child(40).body}\n\n## Related\n\n- [ ] #41\n- [ ] #42\n` }
    const { result, epic } = await pipelinePlan(store, mixed, 'auto', NOW)
    expect(epic).toBeUndefined()
    expect(result.solution).toBeDefined()
    expect(await issueState(40)).toMatchObject({ status: 'planned', children: [41, 42] })
  })

  it('the epic rolls up: failed while a child failed, completed once every child is completed or closed', async () => {
    await pipelinePlan(store, EPIC, 'auto', NOW)
    const setStatus = (n: number, status: IssueState['status']) => transact(store, async (snapshot) => {
      const state = IssueStateSchema.parse(JSON.parse((await snapshot.read(statePaths.issue(n)))!))
      return { message: `test: ISS-${n} ${status}`, files: { [statePaths.issue(n)]: toStateJson({ ...state, status }) } }
    })
    await setStatus(11, 'completed')
    await setStatus(12, 'failed')
    const failed = await refreshEpic(store, 10, new Set(), NOW)
    expect(failed?.issueState).toMatchObject({ status: 'failed', error: 'Child issue #12 failed' })
    await setStatus(12, 'executing')
    expect((await refreshEpic(store, 10, new Set(), NOW))?.issueState.status).toBe('executing')
    await setStatus(12, 'completed')
    const done = await refreshEpic(store, 10, new Set([13]), NOW)
    expect(done?.issueState).toMatchObject({ status: 'completed', error: null })
    expect(done?.commit).toMatch(/^[0-9a-f]{40}$/)
    expect(await issueState(10)).toMatchObject({ status: 'completed' })
    // Nothing changed since: no commit.
    expect((await refreshEpic(store, 10, new Set([13]), NOW))?.commit).toBeNull()
    expect(await refreshEpic(store, 11, new Set(), NOW)).toBeUndefined()
  })
})

describe('epic pieces (pure)', () => {
  it('rollUp: ticked or closed children count as done; an unplanned child keeps the epic planned', () => {
    const c = (number: number, status?: IssueState['status'], done = false) => ({ number, title: `#${number}`, ...(status ? { status } : {}), done, blockedBy: [] })
    expect(rollUp([c(1, 'completed'), c(2, undefined, true)])).toEqual({ status: 'completed', error: null })
    expect(rollUp([c(1, 'completed'), c(2)])).toEqual({ status: 'planned', error: null })
    expect(rollUp([c(1, 'failed'), c(2, 'failed', true)])).toEqual({ status: 'failed', error: 'Child issue #1 failed' })
  })

  it('epicOf ignores a reference to the issue itself', () => {
    expect(epicOf({ number: 5, body: '- [ ] #5\n- [ ] #6\n' })?.children.map((c) => c.number)).toEqual([6])
  })

  it('the comment lists each child, its state, its section and what it waits for', () => {
    const text = renderEpicComment({ number: 10, title: 'Login' }, { status: 'planned', error: null }, [
      { number: 11, title: 'Store', section: 'Backend', status: 'completed', done: false, blockedBy: [] },
      { number: 12, title: 'Form', section: 'Frontend', done: false, blockedBy: [11] },
    ], '/converge')
    expect(text).toContain('### Converge · epic #10: planned')
    expect(text).toContain('**1/2** children done.')
    expect(text).toContain('| #11 | Store | Backend | completed | — |')
    expect(text).toContain('| #12 | Form | Frontend | not planned yet | #11 |')
  })
})
