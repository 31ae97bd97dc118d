import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGitHubClient, type GitHubClient } from '../../src/github/client.js'
import { IssueStateSchema, RunStateSchema, type RunState } from '../../src/model/index.js'
import { pipelinePlan } from '../../src/pipeline/plan-command.js'
import { syncIssues } from '../../src/pipeline/sync.js'
import { GitHubStore } from '../../src/state/github-store.js'
import { statePaths, toStateJson } from '../../src/model/state-layout.js'
import { transact } from '../../src/state/store.js'
import { recordIssue } from '../../src/state/transitions.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { FIVE_ISSUES, planBody, type PlannedIssueSpec } from './support.js'

const REPO = { owner: 'octo-org', repo: 'queue' }
const BRANCH = 'converge/state'

describe('sync keeps the queue current (through the API emulator)', () => {
  let gh: Emulator
  let client: GitHubClient
  let store: GitHubStore
  const runState = async (): Promise<RunState> => RunStateSchema.parse(JSON.parse((await gh.state.readFile(BRANCH, statePaths.runState))!))
  const issueState = async (n: number) => IssueStateSchema.parse(JSON.parse((await gh.state.readFile(BRANCH, statePaths.issue(n)))!))
  const queueOf = (run: RunState) => run.queue.map((i) => `${i.item_id} #${i.issue_id.slice(4)} ${i.group} ${i.status}`)
  const commits = async () => (await gh.state.commits(BRANCH)).length
  const plan = (spec: PlannedIssueSpec, labels: string[] = []) =>
    pipelinePlan(store, { number: spec.number, title: spec.title, body: planBody(spec), labels }, 'auto', '2026-02-01T00:00:00Z')
  const sync = (day: number) => syncIssues(store, client, REPO, { now: `2026-02-${String(day).padStart(2, '0')}T00:00:00Z` })

  beforeEach(async () => {
    gh = await startEmulator({ ...REPO, files: { 'README.md': '# queue\n' } })
    client = createGitHubClient({ token: gh.token, apiUrl: gh.url, graphqlUrl: gh.graphqlUrl, retryBaseMs: 10, writeIntervalMs: 0 })
    store = new GitHubStore({ client, ...REPO, branch: BRANCH })
    for (const spec of FIVE_ISSUES) gh.seed.issue({ number: spec.number, title: spec.title, body: planBody(spec), updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, spec.number)) })
    for (let n = 6; n <= 20; n++) gh.seed.issue({ number: n, title: `Unplanned ${n}`, updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 1, n)) })
    for (const spec of FIVE_ISSUES) await plan(spec)
  })
  afterEach(async () => {
    try { gh.expectNoViolations() } finally { await gh.close() }
  })

  it('queues the planned issues in one commit: groups, reasons, planned → queued; then an unchanged sync is free', async () => {
    const before = await commits()
    const requests = client.stats.requests
    const result = await sync(2)
    expect(result).toMatchObject({ unchanged: false, added: 15, total: 20, queue: { items: 5, groups: 2, queued: 5, left: 0, skipped: 0 } })
    // state read, listing, next ETag, one read-ahead of 5 plans + 5 issue files + 5 event logs, one commit
    expect(client.stats.requests - requests).toBe(5)
    expect(await commits()).toBe(before + 1)
    expect((await gh.state.commits(BRANCH))[0]!.message.split('\n')[0]).toBe(
      'sync: 20 open issues (+15 new, 0 updated, -0 closed); queue: 5 solutions in 2 groups (5 newly queued, 0 left)',
    )

    const run = await runState()
    expect(queueOf(run)).toEqual(['S-1 #1 S2 pending', 'S-2 #2 P1 pending', 'S-3 #3 S2 pending', 'S-4 #4 P1 pending', 'S-5 #5 S2 pending'])
    expect(run.queue[2]).toMatchObject({ depends_on: ['S-1'], position: 2, reason: 'after S-1: both change src/a.ts (same priority medium: #1 before #3)', files: ['src/a.ts', 'src/b.ts'] })
    expect(run.queue_built_at).toBe('2026-02-02T00:00:00Z')
    for (const n of [1, 2, 3, 4, 5]) {
      expect(run.issues[`ISS-${n}`]!.status).toBe('queued')
      expect((await issueState(n)).status).toBe('queued')
    }
    expect(run.history.filter((t) => t.to === 'queued').map((t) => t.note)).toEqual(['queued as S-1 in S2', 'queued as S-2 in P1', 'queued as S-3 in S2', 'queued as S-4 in P1', 'queued as S-5 in S2'])
    expect(await gh.state.readFile(BRANCH, statePaths.events(3))).toContain('ISS-3: queued as S-3\n\n**Solution**: SOL-ISS-3-1 | **Group**: S2 (sequential, position 2) | **Why**: after S-1: both change src/a.ts')

    const again = client.stats.requests
    expect(await sync(3)).toMatchObject({ unchanged: true, commit: null, queue: { items: 5, groups: 2 } })
    expect(client.stats.requests - again).toBe(2) // one state read, one conditional listing answered 304
    expect(await commits()).toBe(before + 1)
  })

  it('queues an issue planned after the last sync even when GitHub has nothing new, reading only its files', async () => {
    await sync(2)
    const sixth = { number: 6, title: 'Touch a.ts again', files: ['src/a.ts'], priority: 'critical' as const }
    await plan(sixth)
    const requests = client.stats.requests
    const result = await sync(3)
    expect(result).toMatchObject({ unchanged: false, added: 0, queue: { items: 6, queued: 1 } })
    expect(client.stats.requests - requests).toBe(4) // state read, 304 listing, one read-ahead, one commit
    const run = await runState()
    // The critical solution goes first in the group it joins; the parallel group is unchanged.
    expect(queueOf(run)).toEqual(['S-1 #6 S2 pending', 'S-2 #1 S2 pending', 'S-3 #2 P1 pending', 'S-4 #3 S2 pending', 'S-5 #4 P1 pending', 'S-6 #5 S2 pending'])
    expect(run.queue[1]!.reason).toBe('after S-1: both change src/a.ts (priority critical before medium (most urgent task))')
    expect((await gh.state.commits(BRANCH))[0]!.message.split('\n')[0]).toBe('sync: no issue changed; queue: 6 solutions in 2 groups (1 newly queued, 0 left)')
  })

  it('shows a finished issue in the queue until the next sync, which takes it out; closed issues leave too', async () => {
    await sync(2)
    await transact(store, async (snapshot) => {
      const run = RunStateSchema.parse(JSON.parse((await snapshot.read(statePaths.runState))!))
      const issue = IssueStateSchema.parse(JSON.parse((await snapshot.read(statePaths.issue(1)))!))
      const done = { ...issue, status: 'completed' as const }
      return { message: 'ISS-1: execution completed', files: { [statePaths.issue(1)]: toStateJson(done), [statePaths.runState]: toStateJson(recordIssue(run, done, '2026-02-02T12:00:00Z')) } }
    })
    expect(queueOf(await runState())[0]).toBe('S-1 #1 S2 completed')

    await client.rest.issues.update({ ...REPO, issue_number: 4, state: 'closed' })
    const result = await sync(3)
    expect(result.queue).toMatchObject({ items: 3, left: 2, queued: 0 })
    const run = await runState()
    expect(queueOf(run)).toEqual(['S-1 #2 P1 pending', 'S-2 #3 S2 pending', 'S-3 #5 S2 pending'])
    expect(run.queue[2]!.reason).toBe('after S-2: both change src/b.ts (same priority medium: #3 before #5)')
    expect(run.issues['ISS-4']).toMatchObject({ status: 'queued', closed: true })
    expect(run.issues['ISS-1']).toMatchObject({ status: 'completed' })

    // Reopened, it is queued again, with the plan the queue still knew.
    await client.rest.issues.update({ ...REPO, issue_number: 4, state: 'open' })
    await sync(4)
    expect(queueOf(await runState())).toEqual(['S-1 #2 P1 pending', 'S-2 #3 S2 pending', 'S-3 #4 P1 pending', 'S-4 #5 S2 pending'])
  })

  it('orders by a priority label of the issue over the priority of its tasks', async () => {
    await sync(2)
    await client.rest.issues.addLabels({ ...REPO, issue_number: 5, labels: ['priority: high'] })
    const requests = client.stats.requests
    await sync(3)
    expect(client.stats.requests - requests).toBe(4) // state read, listing, next ETag, commit: no plan read again
    const run = await runState()
    expect(run.issues['ISS-5']!.priority).toBe('high')
    expect(queueOf(run)).toEqual(['S-1 #5 S2 pending', 'S-2 #1 S2 pending', 'S-3 #2 P1 pending', 'S-4 #3 S2 pending', 'S-5 #4 P1 pending'])
    expect(run.queue[0]).toMatchObject({ priority: 'high', priority_source: 'label' })
    expect(run.queue[3]!.reason).toBe('after S-2: both change src/a.ts (same priority medium: #1 before #3)')
    // #1 shares no file with #5, which goes first: it waits for its turn, and names the item it conflicts with.
    expect(run.queue[1]!.reason).toBe('after S-1, one at a time in S2: it changes src/a.ts like S-4, which comes later (priority high before medium)')
  })

  it('records a planned issue whose plan is missing as an error once, and queues the rest', async () => {
    await store.commit({ message: 'lose a plan', files: { [statePaths.plan(2)]: null } }, (await store.snapshot()).head)
    const first = await sync(2)
    expect(first.queue).toMatchObject({ items: 4, skipped: 1 })
    const run = await runState()
    expect(run.errors.map((e) => e.message)).toEqual(['ISS-2 is planned but not queued: .converge/issues/2/plan.json is missing'])
    const again = await sync(3)
    expect(again).toMatchObject({ unchanged: true })
    expect((await runState()).errors).toHaveLength(1)
  })
})
