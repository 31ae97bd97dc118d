/**
 * The state branch under GitHub API faults (SPEC §4): with requests failing as GitHub's do (5xx, rate limits,
 * dropped connections, slow answers, a head that moves under a writer), every transition either lands as one
 * complete commit or fails with a clear error having written nothing, and the branch never holds a half-written
 * state. The branch is always read through the emulator (`gh.state`), never through the code under test.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createGitHubClient, type GitHubClient, type GitHubClientOptions } from '../../src/github/client.js'
import { GitHubStore } from '../../src/state/github-store.js'
import { transact, type TransactResult } from '../../src/state/store.js'
import { startEmulator, type Emulator, type FaultKind, type FaultRequest } from '../support/emulator/index.js'
import { advanceIssue, BranchAudit, transitionPaths } from './consistent-transitions.js'
import { loseAnswers } from './lost-answers.js'

const OWNER = 'octo-org'
const REPO = 'demo'
const BRANCH = 'converge/state'
const STALE_HEAD_COMMIT = 'Concurrent update (emulator stale-head fault)'

/** Retries without waiting seconds: the retry unit is 10 ms, writes are not spaced. */
const FAST: Partial<GitHubClientOptions> = { retryBaseMs: 10, writeIntervalMs: 0 }

function emulator(): Promise<Emulator> {
  return startEmulator({ owner: OWNER, repo: REPO, files: { 'README.md': '# demo\n' } })
}

/** A writer as one workflow run has it: its own client and store. */
function openWriter(gh: Emulator, options: Partial<GitHubClientOptions> = {}): { client: GitHubClient; store: GitHubStore } {
  const client = createGitHubClient({ token: gh.token, apiUrl: gh.url, graphqlUrl: gh.graphqlUrl, ...FAST, ...options })
  return { client, store: new GitHubStore({ client, owner: OWNER, repo: REPO, branch: BRANCH }) }
}

/** One state transition of issue `n`: 3 or 4 files in one commit, through transact(). */
function advance(store: GitHubStore, n: number): Promise<TransactResult> {
  return transact(store, advanceIssue(n), { prefetch: transitionPaths(n) })
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the operation to fail, and it succeeded')
}

/**
 * What makes a failure message clear: it is a real message (not empty, not `[object Object]`, not a web page)
 * and says what went wrong in terms a user can act on: the HTTP status, a rate limit, a moved branch, a timeout
 * or a dropped connection.
 */
function unclearness(error: unknown): string | undefined {
  if (!(error instanceof Error)) return `not an Error: ${String(error)}`
  const message = error.message
  if (message.trim() === '') return 'empty message'
  if (message.includes('[object Object]')) return `"${message}" contains [object Object]`
  if (/<\/?(html|body|h1|div|p)\b/i.test(message)) return `"${message}" is an HTML page`
  if (!/\b[45]\d\d\b|rate limit|moved|timed out|timeout|connection (reset|closed|dropped)/i.test(message)) {
    return `"${message}" names no HTTP status, rate limit, moved branch, timeout or dropped connection`
  }
  return undefined
}

function expectClearError(error: unknown, mustMatch?: RegExp): void {
  expect.soft(unclearness(error), 'the error message is clear').toBeUndefined()
  if (mustMatch) expect.soft((error as Error).message).toMatch(mustMatch)
}

const isSnapshotQuery = (request: FaultRequest) => request.graphql?.operation === 'query'
const isCommitMutation = (request: FaultRequest) => request.graphql?.fields.includes('createCommitOnBranch') === true
const isOperation = (operationId: string) => (request: FaultRequest) => request.operationId === operationId

/** The requests of one transition that can fail: the two of a transition, and the three creating the branch. */
const TARGETS = [
  { name: 'snapshot query', match: isSnapshotQuery, branchExists: true },
  { name: 'commit mutation', match: isCommitMutation, branchExists: true },
  { name: 'branch creation: tree', match: isOperation('git/create-tree'), branchExists: false },
  { name: 'branch creation: commit', match: isOperation('git/create-commit'), branchExists: false },
  { name: 'branch creation: ref', match: isOperation('git/create-ref'), branchExists: false },
] as const

/** Waits until the emulator has answered every request it delayed (a slow request keeps running after the client gave up). */
async function settleSlowRequests(gh: Emulator): Promise<void> {
  const deadline = Date.now() + 10_000
  while (gh.requests.some((request) => request.fault === 'slow' && request.status === 0)) {
    if (Date.now() > deadline) throw new Error('the emulator never answered a slow request')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

// GitHub's schema and REST description load on first use; later requests take milliseconds, so the timeouts of the
// slow-request tests measure the faults and not the loading.
beforeAll(async () => {
  const gh = await emulator()
  try {
    await advance(openWriter(gh).store, 1)
  } finally {
    await gh.close()
  }
})

// ---------------------------------------------------------------------------------------------------------------
// 1. A realistic workload under random faults
// ---------------------------------------------------------------------------------------------------------------

const SEEDS = [1, 2, 3, 4]
const RANDOM_KINDS: FaultKind[] = ['500', '502', 'secondary-rate-limit', '429', 'reset', 'stale-head']
const OPERATIONS = 30
const ISSUES = 4
/**
 * Three concurrent writers: one with the default retries, two that give up sooner, so that some operations do
 * fail (with 3 retries a request fails only if 4 attempts in a row are faulted, about 1 in 10,000).
 */
const WRITER_RETRIES = [3, 1, 0]

interface Operation {
  index: number
  issue: number
  writer: number
}

interface WorkloadOutcome {
  /** what the audits after each operation, of the whole history and after the rerun found wrong */
  inconsistencies: string[]
  succeeded: number
  failures: Array<{ operation: Operation; error: unknown }>
  /** transitions on the branch once the faulted run was over */
  transitionsAfterRun: number
  /** commits the writers made (the emulator's stale-head commits aside) */
  ownCommitsAfterRun: number
  rerunErrors: unknown[]
  transitionsAfterRerun: number
  seqsAfterRerun: Record<string, number>
  expectedSeqs: Record<string, number>
  violations: string | undefined
}

async function runWorkload(seed: number): Promise<WorkloadOutcome> {
  const gh = await emulator()
  try {
    const audit = new BranchAudit(gh, BRANCH)
    const writers = WRITER_RETRIES.map((retries) => openWriter(gh, { retries }))
    const operations: Operation[] = Array.from({ length: OPERATIONS }, (_, index) => ({
      index,
      issue: 1 + ((index * 7 + seed * 3 + Math.floor(index / 5)) % ISSUES),
      writer: index % writers.length,
    }))
    const inconsistencies: string[] = []
    const audited = async (label: string, check: () => Promise<unknown>) => {
      try {
        await check()
      } catch (error) {
        inconsistencies.push(`${label}: ${(error as Error).message}`)
      }
    }
    let succeeded = 0
    let reattempts = 0
    const failures: WorkloadOutcome['failures'] = []

    gh.faults.randomly({ rate: 0.1, kinds: RANDOM_KINDS, seed })
    const started = Date.now()
    await Promise.all(
      writers.map(async (writer, w) => {
        for (const operation of operations.filter((o) => o.writer === w)) {
          try {
            const result = await advance(writer.store, operation.issue)
            if (result.commit === null) inconsistencies.push(`operation ${operation.index} committed nothing`)
            succeeded += 1
            reattempts += result.attempts - 1
          } catch (error) {
            failures.push({ operation, error })
          }
          await audited(`after operation ${operation.index}`, () => audit.checkHead())
        }
      }),
    )
    const elapsed = Date.now() - started
    const faults = gh.faults.history.reduce<Record<string, number>>((counts, f) => ({ ...counts, [f.kind]: (counts[f.kind] ?? 0) + 1 }), {})
    const injected = gh.faults.injected
    gh.faults.clear()

    await audited('history after the faulted run', () => audit.checkHistory())
    const transitionsAfterRun = await audit.checkHead()
    const ownCommitsAfterRun = await audit.ownCommits()
    const requests = writers.reduce((sum, writer) => sum + writer.client.stats.requests, 0)
    // Each transition needs a snapshot query and a commit mutation; creating the branch takes tree, commit and ref.
    const minimum = 2 * OPERATIONS + 2

    const rerunErrors: unknown[] = []
    for (const { operation } of [...failures].sort((a, b) => a.operation.index - b.operation.index)) {
      try {
        await advance(writers[operation.writer]!.store, operation.issue)
      } catch (error) {
        rerunErrors.push(error)
      }
    }
    await audited('history after the rerun', () => audit.checkHistory())
    const history = await audit.checkHistory().catch(() => [])
    const last = history.at(-1)
    const expectedSeqs: Record<string, number> = {}
    for (const o of operations) expectedSeqs[`ISS-${o.issue}`] = (expectedSeqs[`ISS-${o.issue}`] ?? 0) + 1

    const failureKinds = failures.map(({ error }) => (error as { status?: number }).status ?? (error as Error).name)
    console.log(
      `seed ${seed}: ${OPERATIONS} operations by ${writers.length} concurrent writers in ${elapsed} ms; ` +
        `${injected} faults injected (${Object.entries(faults).map(([k, n]) => `${k} ×${n}`).join(', ')}); ` +
        `${requests} requests for a minimum of ${minimum}: ${requests - minimum} extra, ` +
        `of which request retries and ${reattempts} transact re-attempts after a moved head; ` +
        `${failures.length} operations failed (${failureKinds.join(', ') || 'none'}), ${failures.length - rerunErrors.length} completed on the rerun`,
    )
    let violations: string | undefined
    try {
      gh.expectNoViolations()
    } catch (error) {
      violations = (error as Error).message
    }
    return {
      inconsistencies,
      succeeded,
      failures,
      transitionsAfterRun,
      ownCommitsAfterRun,
      rerunErrors,
      transitionsAfterRerun: last?.transitions ?? 0,
      seqsAfterRerun: last?.seqs ?? {},
      expectedSeqs,
      violations,
    }
  } finally {
    await gh.close()
  }
}

describe.each(SEEDS)('30 transitions by 3 concurrent writers with 10%% of requests faulted (seed %i)', (seed) => {
  let outcome: WorkloadOutcome
  beforeAll(async () => {
    outcome = await runWorkload(seed)
  })

  it('never leaves a half-written state: after every operation and in every commit the files agree', () => {
    expect(outcome.inconsistencies).toEqual([])
    expect(outcome.violations).toBeUndefined()
  })

  it('applies each successful transition exactly once and each failed one not at all', () => {
    expect(outcome.succeeded + outcome.failures.length).toBe(OPERATIONS)
    expect(outcome.transitionsAfterRun).toBe(outcome.succeeded)
    expect(outcome.ownCommitsAfterRun).toBe(outcome.succeeded)
  })

  it('fails only with clear, specific errors', () => {
    for (const { operation, error } of outcome.failures) {
      expect.soft(unclearness(error), `operation ${operation.index} (writer ${operation.writer}, ISS-${operation.issue})`).toBeUndefined()
    }
  })

  it('completes the failed operations when they are run again without faults', () => {
    expect(outcome.rerunErrors).toEqual([])
    expect(outcome.transitionsAfterRerun).toBe(OPERATIONS)
    expect(outcome.seqsAfterRerun).toEqual(outcome.expectedSeqs)
  })
})

// ---------------------------------------------------------------------------------------------------------------
// 2. One fault on one request of a transition
// ---------------------------------------------------------------------------------------------------------------

describe('a fault on one request of a transition', () => {
  let gh: Emulator
  let audit: BranchAudit
  beforeEach(async () => {
    gh = await emulator()
    audit = new BranchAudit(gh, BRANCH)
  })
  afterEach(async () => {
    try {
      gh.expectNoViolations()
    } finally {
      await gh.close()
    }
  })

  /** The branch as a target needs it: absent to fault its creation, with one transition to fault a later one. */
  async function prepare(branchExists: boolean): Promise<number> {
    if (!branchExists) return 0
    await advance(openWriter(gh).store, 1)
    return 1
  }

  const ONCE_KINDS: FaultKind[] = ['500', '502', 'reset', '429', 'secondary-rate-limit']
  describe.each(TARGETS)('on the $name', (target) => {
    it.each(ONCE_KINDS)('a single %s is retried and the transition lands once, complete', async (kind) => {
      const before = await prepare(target.branchExists)
      const { store, client } = openWriter(gh)
      gh.faults.inject({ kind, match: target.match })

      const result = await advance(store, 2)

      expect(gh.faults.history.map((f) => f.kind)).toEqual([kind])
      expect(result.commit).toBe(await gh.state.branchHead(BRANCH))
      expect(result.attempts).toBe(1)
      // the faulted request, its one retry, and the transition's other requests
      expect(client.stats.requests).toBe((target.branchExists ? 2 : 4) + 1)
      const history = await audit.checkHistory()
      expect(history.map((c) => c.transitions)).toEqual(before ? [1, 2] : [1])
      expect(history.at(-1)!.seqs).toEqual(before ? { 'ISS-1': 1, 'ISS-2': 1 } : { 'ISS-2': 1 })
    })

    it('a persistent 500 fails after the retries with a clear error and writes nothing', async () => {
      const before = await prepare(target.branchExists)
      const headBefore = await gh.state.branchHead(BRANCH)
      const { store } = openWriter(gh)
      gh.faults.inject({ kind: '500', times: Infinity, match: target.match })

      const error = await rejection(advance(store, 2))

      expectClearError(error, /500/)
      expect((error as { status?: number }).status).toBe(500)
      expect(gh.faults.injected).toBe(4) // the request and its 3 retries
      expect(await gh.state.branchHead(BRANCH)).toBe(headBefore)
      expect((await audit.checkHistory()).length).toBe(before)
    })
  })

  it.each(['500', '502', 'reset', '429', 'secondary-rate-limit'] as const)(
    'a persistent %s on the commit mutation fails after at most 1 + retries attempts, with a clear error, and writes nothing',
    async (kind) => {
      await prepare(true)
      const headBefore = await gh.state.branchHead(BRANCH)
      const { store } = openWriter(gh)
      gh.faults.inject({ kind, times: Infinity, match: isCommitMutation })

      const error = await rejection(advance(store, 2))

      const expected = { '500': /500/, '502': /502/, reset: /connection|reset|closed/i, '429': /rate limit/i, 'secondary-rate-limit': /secondary rate limit/i }[kind]
      expectClearError(error, expected)
      expect(await gh.state.branchHead(BRANCH)).toBe(headBefore)
      expect(await audit.checkHead()).toBe(1)
      // GitHub asks integrations not to keep sending requests while rate limited; 3 retries means 4 attempts.
      expect(gh.faults.injected).toBeGreaterThan(1)
      expect(gh.faults.injected).toBeLessThanOrEqual(4)
    },
  )

  it('stale-head on the commit mutation: transact re-reads and re-applies on top of the other commit', async () => {
    await prepare(true)
    const { store } = openWriter(gh)
    gh.faults.inject({ kind: 'stale-head', match: isCommitMutation })

    const result = await advance(store, 2)

    expect(result.attempts).toBe(2)
    const commits = await gh.state.commits(BRANCH)
    expect(commits.map((c) => c.message.split('\n')[0])).toEqual([
      'ISS-2: new → planning (transition 2)',
      STALE_HEAD_COMMIT,
      'ISS-1: new → planning (transition 1)',
    ])
    expect(commits[0]!.parents).toEqual([commits[1]!.sha])
    expect((await audit.checkHistory()).at(-1)!.seqs).toEqual({ 'ISS-1': 1, 'ISS-2': 1 })
  })

  it('a writer that loses the race to another writer re-applies its change: the branch holds both changes', async () => {
    await prepare(true)
    const a = openWriter(gh)
    const b = openWriter(gh)
    let applied = 0

    const result = await transact(
      a.store,
      async (snapshot) => {
        // B lands a transition between A's read and A's commit, the first time only.
        if (applied++ === 0) await advance(b.store, 3)
        return advanceIssue(2)(snapshot)
      },
      { prefetch: transitionPaths(2) },
    )

    expect(result.attempts).toBe(2)
    const history = await audit.checkHistory()
    expect(history.map((c) => c.transitions)).toEqual([1, 2, 3])
    expect(history.at(-1)!.seqs).toEqual({ 'ISS-1': 1, 'ISS-2': 1, 'ISS-3': 1 })
  })

  it('two writers creating the branch at once, one losing its ref request to a reset: both transitions land once', async () => {
    const a = openWriter(gh)
    const b = openWriter(gh)
    gh.faults.inject({ kind: 'reset', match: isOperation('git/create-ref') })

    const results = await Promise.all([advance(a.store, 1), advance(b.store, 2)])

    expect(results.every((r) => r.commit !== null)).toBe(true)
    const history = await audit.checkHistory()
    expect(history.map((c) => c.transitions)).toEqual([1, 2])
    expect(history.at(-1)!.seqs).toEqual({ 'ISS-1': 1, 'ISS-2': 1 })
  })

  it('a reset on the commit mutation (dropped before GitHub applied it) is retried: one complete commit, no duplicate', async () => {
    await prepare(true)
    const { store } = openWriter(gh)
    gh.faults.inject({ kind: 'reset', match: isCommitMutation })

    const result = await advance(store, 1)

    const mutations = gh.requests.filter((r) => r.graphql?.fields.includes('createCommitOnBranch'))
    expect(mutations.map((r) => [r.fault ?? null, r.status])).toEqual([
      [null, 200], // the setup's transition
      ['reset', 0],
      [null, 200],
    ])
    expect(result).toMatchObject({ attempts: 1, commit: await gh.state.branchHead(BRANCH) })
    const history = await audit.checkHistory()
    expect(history.map((c) => c.transitions)).toEqual([1, 2])
    expect(history.at(-1)!.seqs).toEqual({ 'ISS-1': 2 })
    expect(await gh.state.readFile(BRANCH, '.converge/issues/1/plan.json')).toContain('"SOL-ISS-1-2"')
  })

  // GitHub can apply a request and still fail to answer it (a connection reset or a 502 from its proxy after the
  // commit landed). The retry then finds the head moved — by the writer's own commit — and transact re-applies
  // the transition on top of itself.
  it('an answer lost after the commit landed does not apply the transition twice', async () => {
    await prepare(true)
    const { store } = openWriter(gh)
    const lost = loseAnswers((r) => r.path === '/graphql' && r.body.includes('createCommitOnBranch'))
    let result: TransactResult
    try {
      result = await advance(store, 2)
    } finally {
      lost.restore()
    }

    expect(lost.lost).toEqual(['POST /graphql'])
    expect(result.commit).toBe(await gh.state.branchHead(BRANCH))
    const history = await audit.checkHistory()
    expect(history.at(-1)!.seqs, 'ISS-2 advanced once').toEqual({ 'ISS-1': 1, 'ISS-2': 1 })
    expect(history.map((c) => c.transitions)).toEqual([1, 2])
  })

  it('an answer lost after the branch was created does not apply the first transition twice', async () => {
    const { store } = openWriter(gh)
    const lost = loseAnswers((r) => r.method === 'POST' && r.path.endsWith('/git/refs'))
    let result: TransactResult
    try {
      result = await advance(store, 1)
    } finally {
      lost.restore()
    }

    expect(lost.lost).toEqual([`POST /repos/${OWNER}/${REPO}/git/refs`])
    expect(result.commit).toBe(await gh.state.branchHead(BRANCH))
    const history = await audit.checkHistory()
    expect(history.at(-1)!.seqs, 'ISS-1 advanced once').toEqual({ 'ISS-1': 1 })
    expect(history.map((c) => c.transitions)).toEqual([1])
  })
})

// ---------------------------------------------------------------------------------------------------------------
// 3. Slow answers
// ---------------------------------------------------------------------------------------------------------------

describe('slow answers with a 300 ms request timeout', () => {
  let gh: Emulator
  let audit: BranchAudit
  beforeEach(async () => {
    gh = await emulator()
    audit = new BranchAudit(gh, BRANCH)
    await advance(openWriter(gh).store, 1)
  })
  afterEach(async () => {
    try {
      await settleSlowRequests(gh)
      gh.expectNoViolations()
    } finally {
      await gh.close()
    }
  })

  it.each([
    { name: 'snapshot query', match: isSnapshotQuery },
    { name: 'commit mutation', match: isCommitMutation },
  ])('a $name slow once (1 s) times out, is retried and succeeds; the late attempt changes nothing', async ({ match }) => {
    const { store, client } = openWriter(gh, { requestTimeoutMs: 300 })
    gh.faults.inject({ kind: 'slow', delayMs: 1000, match })

    const started = Date.now()
    const result = await advance(store, 2)

    expect(Date.now() - started).toBeLessThan(1000)
    expect(result.commit).not.toBeNull()
    expect(client.stats.requests).toBeGreaterThanOrEqual(3)
    // The abandoned attempt is still handled by the server, a second later: a late commit must not land.
    await settleSlowRequests(gh)
    expect(await gh.state.branchHead(BRANCH)).toBe(result.commit)
    const history = await audit.checkHistory()
    expect(history.map((c) => c.transitions)).toEqual([1, 2])
  })

  it('a request slow every time fails with a message that says it timed out, and writes nothing', async () => {
    const headBefore = await gh.state.branchHead(BRANCH)
    const { store } = openWriter(gh, { requestTimeoutMs: 300 })
    gh.faults.inject({ kind: 'slow', delayMs: 1000, times: Infinity, match: isSnapshotQuery })

    const error = await rejection(advance(store, 2))

    expectClearError(error, /timed out|timeout/i)
    expect(gh.faults.injected).toBe(4)
    await settleSlowRequests(gh)
    expect(await gh.state.branchHead(BRANCH)).toBe(headBefore)
  })
})
