/**
 * Issue 16 through the action's commands and the API emulator: an epic with three sub-issues, one blocked by
 * another; `sync` and the queue order them; `execute` on the blocked one first is refused with the reason; the
 * epic rolls up; `publish-tasks: sub-issues` mirrors an approved plan's tasks.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openBlockersOf } from '../../src/action/blocked-gate.js'
import { mirrorTasks, taskMarker } from '../../src/action/publish-tasks.js'
import { ExecutionRecordSchema, IssueStateSchema, RunStateSchema, SolutionSchema } from '../../src/model/index.js'
import { statePaths } from '../../src/model/state-layout.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { routeIssueBody } from '../support/route-issue.js'
import { auditAfterEach } from '../support/state-audit.js'
import { actionSession, command } from './session.js'

const BRANCH = 'converge/state'

const plannable = (what: string, name: string) => routeIssueBody(what, name)

let gh: Emulator
let sha: string
let sessions: Array<{ dispose(): Promise<void> }> = []
const session = async (options: Parameters<typeof actionSession>[1] = {}) => {
  const s = await actionSession(gh, { sha, ...options })
  sessions.push(s)
  return s
}
const stateFile = async (path: string) => JSON.parse((await gh.state.readFile(BRANCH, path))!)
const lastComment = (n: number) => gh.state.comments(n).at(-1)?.body ?? ''

beforeEach(async () => {
  gh = await startEmulator({ owner: 'octo-org', repo: 'demo' })
  sha = await gh.seed.commit({ files: { 'README.md': '# demo\n' } })
  gh.seed.user({ login: 'alice' })
  gh.seed.permission('alice', 'write')
})

afterEach(async () => {
  for (const s of sessions) await s.dispose()
  sessions = []
  gh.expectNoViolations()
  await gh.close()
})
// Registered after the hook that closes the emulator, so it runs before it.
auditAfterEach('epics', () => gh)

describe('an epic with three sub-issues, one blocked by another', () => {
  beforeEach(() => {
    gh.seed.issue({ number: 1, title: 'Health checks, end to end', body: 'Tracking issue for the health checks.' })
    gh.seed.issue({ number: 2, title: 'Health endpoint', body: plannable('Add a health endpoint', 'health') })
    gh.seed.issue({ number: 3, title: 'Readiness endpoint', body: plannable('Add a readiness endpoint', 'ready') })
    gh.seed.issue({ number: 4, title: 'Liveness endpoint', body: plannable('Add a liveness endpoint', 'live') })
    for (const n of [2, 3, 4]) gh.seed.subIssue(1, n)
    gh.seed.blockedBy(3, 2)
  })

  it('plan records the epic and its children; sync queues #3 after #2; execute on #3 first waits for #2', async () => {
    const s = await session()
    const epic = await command(s, 'plan', 1)
    expect(epic).toMatchObject({ status: 'planned', issueNumber: 1 })
    expect(await stateFile(statePaths.issue(1))).toMatchObject({ children: [2, 3, 4], solution_id: null })
    expect(await gh.state.readFile(BRANCH, statePaths.plan(1))).toBeNull()
    expect(lastComment(1)).toContain('### Converge · epic #1: planned')
    expect(lastComment(1)).toContain('| #2 | Health endpoint | not planned yet | — |')

    for (const n of [2, 3, 4]) expect((await command(s, 'plan', n)).status).toBe('planned')
    expect(IssueStateSchema.parse(await stateFile(statePaths.issue(3)))).toMatchObject({ parent: 1, blocked_by: [2] })
    // Each child's planning rolls the epic's comment forward.
    expect(lastComment(1)).toContain('| #3 | Readiness endpoint | planned | #2 |')

    await command(s, 'sync', 0)
    const run = RunStateSchema.parse(await stateFile(statePaths.runState))
    const order = run.queue.map((i) => i.issue_id)
    expect(order.indexOf('ISS-2')).toBeLessThan(order.indexOf('ISS-3'))
    const item3 = run.queue.find((i) => i.issue_id === 'ISS-3')!
    expect(item3.reason).toMatch(/^after S-\d+: waits for #2 \(S-\d+\)$/)
    expect(item3.depends_on).toContain(run.queue.find((i) => i.issue_id === 'ISS-2')!.item_id)

    const blocked = await command(s, 'execute', 3)
    expect(blocked).toMatchObject({ status: 'blocked', notice: 'Converge: ISS-3 waits for #2 (queued): execute again when it is done.' })
    expect(blocked.failure).toBeUndefined()
    expect(lastComment(3)).toContain('ISS-3 waits for #2 (queued): execute again when it is done.')
    expect(gh.state.checkRuns().at(-1)).toMatchObject({ name: 'converge / ISS-3', conclusion: 'neutral', output: { title: 'Waits for #2' } })
    // Nothing ran: no execution record, the issue is where it was.
    expect(await gh.state.readFile(BRANCH, statePaths.execution(3))).toBeNull()
    expect(await stateFile(statePaths.issue(3))).toMatchObject({ status: 'queued' })
  })

  it('a blocker closed on GitHub is done; the epic completes when every child is closed', async () => {
    const s = await session()
    await command(s, 'plan', 1)
    await command(s, 'plan', 3)
    expect(await openBlockersOf(s, 3)).toEqual([{ number: 2, status: 'not planned' }])
    await closeOnGitHub(2)
    expect(await openBlockersOf(s, 3)).toEqual([])

    await closeOnGitHub(3)
    await closeOnGitHub(4)
    expect(await command(s, 'plan', 1)).toMatchObject({ status: 'completed' })
    expect(lastComment(1)).toContain('**3/3** children done.')
  })
})

async function closeOnGitHub(n: number) {
  const response = await fetch(`${gh.url}/repos/octo-org/demo/issues/${n}`, {
    method: 'PATCH',
    headers: { authorization: `token ${gh.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ state: 'closed' }),
  })
  expect(response.status).toBe(200)
}

describe('an epic written as a task list', () => {
  it('an ordered list of references: each child waits for the ones before it', async () => {
    gh.seed.issue({ number: 5, title: 'Search', body: 'In order:\n\n- [ ] #6 Index\n- [x] #7 Query parser\n- [ ] #8 Results page\n' })
    for (const n of [6, 7, 8]) gh.seed.issue({ number: n, title: `Child ${n}` })
    const s = await session()
    expect(await command(s, 'plan', 5)).toMatchObject({ status: 'planned' })
    expect(await stateFile(statePaths.issue(8))).toMatchObject({ parent: 5, blocked_by: [6, 7] })
    // #7 is ticked: done, although open on GitHub.
    expect(lastComment(5)).toContain('**1/3** children done.')
  })
})

describe('publish-tasks: sub-issues', () => {
  beforeEach(() => {
    gh.seed.issue({ number: 20, title: 'Health endpoint', body: plannable('Add a health endpoint', 'health') })
  })

  it('after approval, each task is a sub-issue with its criteria, T2 blocked by T1; again: no duplicates; closed as tasks converge', async () => {
    const s = await session({ inputs: { 'publish-tasks': 'sub-issues' } })
    await command(s, 'plan', 20)
    expect(gh.state.subIssues(20)).toEqual([])
    await command(s, 'approve', 20)
    const subs = gh.state.subIssues(20).map((n) => gh.state.issue(n)!)
    expect(subs.map((i) => i.title)).toEqual([expect.stringMatching(/^T1: /), expect.stringMatching(/^T2: /)])
    expect(subs[0]!.body).toContain(taskMarker(20, 'T1'))
    expect(subs[0]!.body).toContain('- [ ] GET /health answers 200')
    expect(gh.state.blockedBy(subs[1]!.number)).toEqual([subs[0]!.number])

    await command(s, 'approve', 20)
    expect(gh.state.subIssues(20)).toHaveLength(2)

    const plan = SolutionSchema.parse(await stateFile(statePaths.plan(20)))
    const execution = ExecutionRecordSchema.parse({
      solution_id: plan.id, issue_id: 'ISS-20', plan_hash: 'sha256:x', status: 'running', started_at: s.now, executed_at: null,
      tasks: {
        T1: {
          task_id: 'T1', status: 'completed', started_at: s.now, executed_at: s.now, duration_ms: 1, files_modified: [], commit_hash: null,
          tests_passed: true, convergence_verified: [], attempts: 1, error: null,
        },
      },
    })
    const closed = await mirrorTasks(s, 20, plan, execution)
    expect(closed).toEqual({ created: [], closed: ['T1'] })
    expect(gh.state.issue(subs[0]!.number)!.state).toBe('closed')
    expect(gh.state.issue(subs[1]!.number)!.state).toBe('open')
  })

  it('none by default; a token without issues: write gets a clear warning, not a crash', async () => {
    const s = await session()
    await command(s, 'plan', 20)
    await command(s, 'approve', 20)
    expect(gh.state.subIssues(20)).toEqual([])

    gh.seed.token('reader-token', 'reader')
    gh.seed.permission('reader', 'read')
    const reader = await session({ token: 'reader-token', inputs: { 'publish-tasks': 'sub-issues' } })
    const plan = SolutionSchema.parse(await stateFile(statePaths.plan(20)))
    const result = await mirrorTasks(reader, 20, plan)
    expect(result.warning).toMatch(/^publish-tasks: Cannot .*: GitHub answered 403 \(Resource not accessible by integration\)\. The token needs the "issues: write" permission/)
    expect(gh.state.subIssues(20)).toEqual([])
  })
})
