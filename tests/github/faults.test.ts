/**
 * The state branch under GitHub API faults (SPEC §4): with requests failing as GitHub's do (5xx, rate limits,
 * dropped connections, slow answers, a head that moves under a writer), every transition either lands as one
 * complete commit or fails with a clear error having written nothing, and the branch never holds a half-written
 * state. The branch is always read through the emulator, never through the code under test.
 *
 * Most of the time goes to the emulator's git processes, so the targeted tests share one emulator and each works
 * on a branch of its own; they run one at a time (faults are per emulator).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGitHubClient, type GitHubClient, type GitHubClientOptions } from '../../src/github/client.js'
import { GitHubStore } from '../../src/state/github-store.js'
import { transact, type TransactResult } from '../../src/state/store.js'
import {
  startEmulator, type Emulator, type FaultKind, type FaultRequest, type FaultRule, type InjectedFault, type RequestRecord,
} from '../support/emulator/index.js'
import { advanceIssue, BranchAudit, STALE_HEAD_COMMIT, transitionPaths } from './consistent-transitions.js'
import { loseAnswers } from './lost-answers.js'
import { unclearMessage } from '../support/clear-errors.js'
import { FULL_SUITE } from '../support/suite-size.js'

const OWNER = 'octo-org'
const REPO = 'demo'
const BRANCH = 'converge/state'

/** Retries without waiting seconds: the retry unit is 10 ms, writes are not spaced. */
const FAST: Partial<GitHubClientOptions> = { retryBaseMs: 10, writeIntervalMs: 0 }

function emulator(): Promise<Emulator> {
  return startEmulator({ owner: OWNER, repo: REPO, files: { 'README.md': '# demo\n' } })
}

/** A writer as one workflow run has it: its own client and store. */
function openWriter(
  gh: Emulator,
  branch: string,
  options: Partial<GitHubClientOptions> = {},
): { client: GitHubClient; store: GitHubStore } {
  const client = createGitHubClient({ token: gh.token, apiUrl: gh.url, graphqlUrl: gh.graphqlUrl, ...FAST, ...options })
  return { client, store: new GitHubStore({ client, owner: OWNER, repo: REPO, branch }) }
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

/** Why a failure is not clear, if it is not (see unclearMessage). */
function unclearness(error: unknown): string | undefined {
  if (!(error instanceof Error)) return `not an Error: ${String(error)}`
  return unclearMessage(error.message)
}

/** Soft, so that a test goes on to check what was written when only the message is wrong. */
function expectClearError(error: unknown, mustMatch: RegExp): void {
  expect.soft(unclearness(error), 'the error message is clear').toBeUndefined()
  expect.soft((error as Error).message).toMatch(mustMatch)
}

const isSnapshotQuery = (request: FaultRequest) => request.graphql?.operation === 'query'
const isCommitMutation = (request: FaultRequest) => request.graphql?.fields.includes('createCommitOnBranch') === true
const isOperation = (operationId: string) => (request: FaultRequest) => request.operationId === operationId

/** The requests of a transition: the two of a transition on the branch, and the three that create the branch. */
const TARGETS = [
  { name: 'snapshot query', match: isSnapshotQuery, branchExists: true },
  { name: 'commit mutation', match: isCommitMutation, branchExists: true },
  { name: 'branch creation: tree', match: isOperation('git/create-tree'), branchExists: false },
  { name: 'branch creation: commit', match: isOperation('git/create-commit'), branchExists: false },
  { name: 'branch creation: ref', match: isOperation('git/create-ref'), branchExists: false },
] as const

async function settleSlowRequests(gh: Emulator): Promise<void> {
  const deadline = Date.now() + 10_000
  while (gh.requests.some((request) => request.fault === 'slow' && request.status === 0)) {
    if (Date.now() > deadline) throw new Error('the emulator never answered a slow request')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

// One emulator for the targeted tests; loading GitHub's schema and REST description (first use in this process)
// happens here, so that the timeouts of the slow-answer tests measure the faults and not the loading.
let shared: Emulator
beforeAll(async () => {
  shared = await emulator()
  await advance(openWriter(shared, 'warm-up').store, 1)
  await advance(openWriter(shared, 'warm-up').store, 1)
})
afterAll(async () => {
  await shared?.close()
})

/** What one targeted test works with: the shared emulator, a branch of its own, and what happened during the test. */
interface Lab {
  gh: Emulator
  branch: string
  audit: BranchAudit
  writer(options?: Partial<GitHubClientOptions>): { client: GitHubClient; store: GitHubStore }
  inject(rule: FaultRule): void
  /** The branch with one transition of ISS-1, put there without requests (nothing of it is faulted or counted). */
  seedFirstTransition(): Promise<string>
  /** faults injected during this test */
  faults(): InjectedFault[]
  /** requests sent during this test */
  requests(): RequestRecord[]
}

let labs = 0
function lab(test: (lab: Lab) => Promise<void>): () => Promise<void> {
  return async () => {
    const gh = shared
    const branch = `${BRANCH}-${++labs}`
    const firstFault = gh.faults.history.length
    const firstRequest = gh.requests.length
    const firstViolation = gh.violations.length
    gh.faults.clear()
    try {
      await test({
        gh,
        branch,
        audit: new BranchAudit(gh, branch),
        writer: (options) => openWriter(gh, branch, options),
        inject: (rule) => gh.faults.inject(rule),
        seedFirstTransition: async () => {
          const change = await advanceIssue(1)({ head: null, read: async () => undefined })
          return gh.seed.commit({ branch, files: change.files, message: change.message })
        },
        faults: () => gh.faults.history.slice(firstFault),
        requests: () => gh.requests.slice(firstRequest),
      })
    } finally {
      gh.faults.clear()
      await settleSlowRequests(gh)
    }
    expect(gh.violations.slice(firstViolation), 'requests GitHub would have refused').toEqual([])
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 1. A realistic workload under random faults
// ---------------------------------------------------------------------------------------------------------------

// One workload in `npm test`, three in CI.
const SEEDS = FULL_SUITE ? [1, 2, 3] : [1]
const RANDOM_KINDS: FaultKind[] = ['500', '502', 'secondary-rate-limit', '429', 'reset', 'stale-head']
const OPERATIONS = 30
const ISSUES = 4
/**
 * Three concurrent writers: one with the default 3 retries, two that give up sooner, so that some operations do
 * fail (with 3 retries a request fails only when 4 attempts in a row are faulted, about 1 in 10,000).
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
  let violations: string | undefined
  const gh = await emulator()
  try {
    const audit = new BranchAudit(gh, BRANCH)
    const writers = WRITER_RETRIES.map((retries) => openWriter(gh, BRANCH, { retries }))
    const operations: Operation[] = Array.from({ length: OPERATIONS }, (_, index) => ({
      index,
      issue: 1 + ((index * 7 + seed * 3 + Math.floor(index / 5)) % ISSUES),
      writer: index % writers.length,
    }))
    const inconsistencies: string[] = []
    const audited = async <T>(label: string, check: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await check()
      } catch (error) {
        inconsistencies.push(`${label}: ${(error as Error).message}`)
        return undefined
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
    const injected = gh.faults.injected
    const faults = Object.entries(
      gh.faults.history.reduce<Record<string, number>>((counts, f) => ({ ...counts, [f.kind]: (counts[f.kind] ?? 0) + 1 }), {}),
    )
    gh.faults.clear()

    const headAfterRun = await gh.state.branchHead(BRANCH)
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
    // One walk of the history (every commit, the faulted run's and the rerun's), as walking it costs a git process a commit.
    const afterRerun = (await audited('history', () => audit.checkHistory())) ?? []
    const afterRun = afterRerun.slice(0, afterRerun.findIndex((commit) => commit.sha === headAfterRun) + 1)
    const expectedSeqs: Record<string, number> = {}
    for (const o of operations) expectedSeqs[`ISS-${o.issue}`] = (expectedSeqs[`ISS-${o.issue}`] ?? 0) + 1

    const failed = failures.map(({ error }) => (error as { status?: number }).status ?? (error as Error).name)
    console.log(
      `seed ${seed}: ${OPERATIONS} operations by ${writers.length} concurrent writers (retries ${WRITER_RETRIES.join('/')}) in ${elapsed} ms; ` +
        `${injected} faults injected (${faults.map(([kind, n]) => `${kind} ×${n}`).join(', ')}); ` +
        `${requests} requests for a minimum of ${minimum}: ${requests - minimum} extra (request retries, and ${reattempts} ` +
        `transact re-attempts after a moved head); ${failures.length} operations failed (${failed.join(', ') || 'none'}), ` +
        `${failures.length - rerunErrors.length} of them completed on the rerun`,
    )
    try {
      gh.expectNoViolations()
    } catch (error) {
      violations = (error as Error).message
    }
    return {
      inconsistencies,
      succeeded,
      failures,
      transitionsAfterRun: afterRun.at(-1)?.transitions ?? 0,
      ownCommitsAfterRun: afterRun.filter((commit) => commit.own).length,
      rerunErrors,
      transitionsAfterRerun: afterRerun.at(-1)?.transitions ?? 0,
      seqsAfterRerun: afterRerun.at(-1)?.seqs ?? {},
      expectedSeqs,
      violations,
    }
  } finally {
    await gh.close()
  }
}

describe('30 transitions by 3 concurrent writers with one request in ten faulted', () => {
  const outcomes = new Map<number, WorkloadOutcome>()
  beforeAll(async () => {
    for (const seed of SEEDS) outcomes.set(seed, await runWorkload(seed))
  }, 600_000) // about 17 s a seed in CI; a guard against a hang, not a measure

  describe.each(SEEDS)('seed %i', (seed) => {
    it('never leaves a half-written state: after every operation and in every commit the files agree', () => {
      const outcome = outcomes.get(seed)!
      expect(outcome.inconsistencies).toEqual([])
      expect(outcome.violations).toBeUndefined()
    })

    it('applies each successful transition exactly once and each failed one not at all', () => {
      const outcome = outcomes.get(seed)!
      expect(outcome.succeeded + outcome.failures.length).toBe(OPERATIONS)
      expect(outcome.transitionsAfterRun).toBe(outcome.succeeded)
      expect(outcome.ownCommitsAfterRun).toBe(outcome.succeeded)
    })

    it('fails only with clear, specific errors', () => {
      for (const { operation, error } of outcomes.get(seed)!.failures) {
        const label = `operation ${operation.index} (writer ${operation.writer}, ISS-${operation.issue})`
        expect.soft(unclearness(error), label).toBeUndefined()
      }
    })

    it('completes the failed operations when they are run again without faults', () => {
      const outcome = outcomes.get(seed)!
      expect(outcome.rerunErrors).toEqual([])
      expect(outcome.transitionsAfterRerun).toBe(OPERATIONS)
      expect(outcome.seqsAfterRerun).toEqual(outcome.expectedSeqs)
    })
  })
})


// ---------------------------------------------------------------------------------------------------------------
// 2. Faults on one request of a transition
// ---------------------------------------------------------------------------------------------------------------

describe.each(TARGETS)('one fault on the $name', (target) => {
  it.each(['502', 'reset', '429', 'secondary-rate-limit'] as const)(
    'a single %s is retried and the transition lands once, complete',
    (kind) =>
      lab(async ({ gh, branch, audit, writer, inject, seedFirstTransition, faults }) => {
        if (target.branchExists) await seedFirstTransition()
        const { store, client } = writer()
        inject({ kind, match: target.match })

        const result = await advance(store, 2)

        expect(faults().map((f) => f.kind)).toEqual([kind])
        expect(result).toEqual({ commit: await gh.state.branchHead(branch), attempts: 1 })
        // the transition's requests (2 on the branch, 4 creating it) and one retry
        expect(client.stats.requests).toBe((target.branchExists ? 2 : 4) + 1)
        const history = await audit.checkHistory()
        expect(history.map((c) => c.transitions)).toEqual(target.branchExists ? [1, 2] : [1])
        expect(history.at(-1)!.seqs).toEqual(target.branchExists ? { 'ISS-1': 1, 'ISS-2': 1 } : { 'ISS-2': 1 })
      })(),
  )

  it(
    'a persistent 500 fails after 3 retries with a clear error and writes nothing',
    lab(async ({ gh, branch, audit, writer, inject, seedFirstTransition, faults }) => {
      const headBefore = target.branchExists ? await seedFirstTransition() : null
      const { store } = writer()
      inject({ kind: '500', times: Infinity, match: target.match })

      const error = await rejection(advance(store, 2))

      expectClearError(error, /\b500\b/)
      expect((error as { status?: number }).status).toBe(500)
      expect(faults()).toHaveLength(4)
      expect(await gh.state.branchHead(branch)).toBe(headBefore)
      expect(await audit.checkHistory()).toHaveLength(target.branchExists ? 1 : 0)
    }),
  )
})

describe('a persistent fault on the commit mutation', () => {
  it.each([
    { kind: '502', message: /\b502\b/ },
    { kind: 'reset', message: /connection|reset|closed/i },
    { kind: '429', message: /rate limit/i },
    { kind: 'secondary-rate-limit', message: /secondary rate limit/i },
  ] as const)('$kind: fails after at most 4 attempts (3 retries) with a clear error, and writes nothing', ({ kind, message }) =>
    lab(async ({ gh, branch, audit, writer, inject, seedFirstTransition, faults }) => {
      const headBefore = await seedFirstTransition()
      const { store } = writer()
      inject({ kind, times: Infinity, match: isCommitMutation })

      const error = await rejection(advance(store, 2))

      expectClearError(error, message)
      expect(await gh.state.branchHead(branch)).toBe(headBefore)
      expect(await audit.checkHead()).toBe(1)
      // GitHub asks integrations not to keep sending requests while they are limited: 3 retries are 4 attempts.
      expect(faults().length).toBeGreaterThan(1)
      expect(faults().length).toBeLessThanOrEqual(4)
    })(),
  )
})

describe('a head that moves under a writer', () => {
  it(
    'stale-head on the commit mutation: transact re-reads and re-applies on top of the other commit',
    lab(async ({ gh, branch, audit, writer, inject, seedFirstTransition }) => {
      await seedFirstTransition()
      const { store } = writer()
      inject({ kind: 'stale-head', match: isCommitMutation })

      const result = await advance(store, 2)

      expect(result.attempts).toBe(2)
      const commits = await gh.state.commits(branch)
      expect(commits.map((c) => c.message.split('\n')[0])).toEqual([
        'ISS-2: new → planning (transition 2)',
        STALE_HEAD_COMMIT,
        'ISS-1: new → planning (transition 1)',
      ])
      expect(commits[0]!.parents).toEqual([commits[1]!.sha])
      expect((await audit.checkHistory()).at(-1)!.seqs).toEqual({ 'ISS-1': 1, 'ISS-2': 1 })
    }),
  )

  it(
    'a writer that loses the race to another writer re-applies its change: the branch holds both changes',
    lab(async ({ audit, writer, seedFirstTransition }) => {
      await seedFirstTransition()
      const a = writer()
      const b = writer()
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
    }),
  )

  it(
    'three writers at once, two of their commits hit by stale-head: every transition lands once',
    lab(async ({ audit, writer, inject, seedFirstTransition }) => {
      await seedFirstTransition()
      const writers = [writer(), writer(), writer()]
      inject({ kind: 'stale-head', times: 2, match: isCommitMutation })

      await Promise.all(writers.map((w, i) => advance(w.store, 2 + i)))

      const history = await audit.checkHistory()
      expect(history.filter((c) => c.own).map((c) => c.transitions)).toEqual([1, 2, 3, 4])
      expect(history.filter((c) => !c.own)).toHaveLength(2)
      expect(history.at(-1)!.seqs).toEqual({ 'ISS-1': 1, 'ISS-2': 1, 'ISS-3': 1, 'ISS-4': 1 })
    }),
  )

  it(
    'two writers creating the branch at once, one losing its ref request to a reset: both transitions land once',
    lab(async ({ audit, writer, inject, faults }) => {
      const a = writer()
      const b = writer()
      inject({ kind: 'reset', match: isOperation('git/create-ref') })

      const results = await Promise.all([advance(a.store, 1), advance(b.store, 2)])

      expect(results.every((r) => r.commit !== null)).toBe(true)
      expect(faults().map((f) => f.kind)).toEqual(['reset'])
      const history = await audit.checkHistory()
      expect(history.map((c) => c.transitions)).toEqual([1, 2])
      expect(history.at(-1)!.seqs).toEqual({ 'ISS-1': 1, 'ISS-2': 1 })
    }),
  )

  it(
    'a reset on the commit mutation (dropped before GitHub applied it) is retried: one complete commit, no duplicate',
    lab(async ({ gh, branch, audit, writer, inject, seedFirstTransition, requests }) => {
      await seedFirstTransition()
      const { store } = writer()
      inject({ kind: 'reset', match: isCommitMutation })

      const result = await advance(store, 1)

      const mutations = requests().filter((r) => r.graphql?.fields.includes('createCommitOnBranch'))
      expect(mutations.map((r) => [r.fault ?? null, r.status])).toEqual([
        ['reset', 0],
        [null, 200],
      ])
      expect(result).toEqual({ commit: await gh.state.branchHead(branch), attempts: 1 })
      const history = await audit.checkHistory()
      expect(history.map((c) => c.transitions)).toEqual([1, 2])
      expect(history.at(-1)!.seqs).toEqual({ 'ISS-1': 2 })
      expect(JSON.parse((await gh.state.readFile(branch, '.converge/issues/1/plan.json'))!)).toMatchObject({ id: 'SOL-ISS-1-2' })
    }),
  )
})

// GitHub can apply a request and still fail to answer it (a connection reset, or a 502 from its front end after the
// commit landed). The retry of the request then finds the head moved — by the writer's own commit — and transact
// re-applies the transition on top of itself.
describe('an answer lost after GitHub applied the request', () => {
  it(
    'a lost answer to the commit mutation does not apply the transition twice',
    lab(async ({ gh, branch, audit, writer, seedFirstTransition }) => {
      await seedFirstTransition()
      const lost = loseAnswers((r) => r.path === '/graphql' && r.body.includes('createCommitOnBranch'))
      const { store } = writer({ fetch: lost.fetch })
      const result = await advance(store, 2)

      expect(lost.lost).toEqual(['POST /graphql'])
      expect(result.commit).toBe(await gh.state.branchHead(branch))
      const history = await audit.checkHistory()
      expect(history.at(-1)!.seqs, 'ISS-2 advanced once').toEqual({ 'ISS-1': 1, 'ISS-2': 1 })
      expect(history.map((c) => c.transitions)).toEqual([1, 2])
    }),
  )

  it(
    'a lost answer to the ref request creating the branch does not apply the first transition twice',
    lab(async ({ gh, branch, audit, writer }) => {
      const lost = loseAnswers((r) => r.method === 'POST' && r.path.endsWith('/git/refs'))
      const { store } = writer({ fetch: lost.fetch })
      const result = await advance(store, 1)

      expect(lost.lost).toEqual([`POST /repos/${OWNER}/${REPO}/git/refs`])
      expect(result.commit).toBe(await gh.state.branchHead(branch))
      const history = await audit.checkHistory()
      expect(history.at(-1)!.seqs, 'ISS-1 advanced once').toEqual({ 'ISS-1': 1 })
      expect(history.map((c) => c.transitions)).toEqual([1])
    }),
  )
})

// ---------------------------------------------------------------------------------------------------------------
// 3. Slow answers
// ---------------------------------------------------------------------------------------------------------------

// The timeout leaves room for a loaded machine (a 300 ms one failed every answer at a load average of 14); the slow
// answer is well past it.
describe('slow answers with a 1.5 s request timeout', () => {
  it.each([
    { name: 'snapshot query', match: isSnapshotQuery },
    { name: 'commit mutation', match: isCommitMutation },
  ])('a $name slow once (4 s) times out, is retried and succeeds; the late attempt changes nothing', ({ match }) =>
    lab(async ({ gh, branch, audit, writer, inject, seedFirstTransition, faults }) => {
      await seedFirstTransition()
      const { store, client } = writer({ requestTimeoutMs: 1500 })
      inject({ kind: 'slow', delayMs: 4000, match })

      const result = await advance(store, 2)

      expect(result.commit).not.toBeNull()
      expect(faults().map((f) => f.kind)).toEqual(['slow'])
      // Without the timeout the slow request would simply have been answered, once: 2 requests in all.
      expect(client.stats.byRoute['POST /graphql']).toBeGreaterThanOrEqual(3)
      // The emulator still handles the abandoned attempt, a second after it came: a late commit must not land.
      await settleSlowRequests(gh)
      expect(await gh.state.branchHead(branch)).toBe(result.commit)
      const history = await audit.checkHistory()
      expect(history.map((c) => c.transitions)).toEqual([1, 2])
      expect(history.at(-1)!.seqs).toEqual({ 'ISS-1': 1, 'ISS-2': 1 })
    })(),
  )

  it(
    'a request slow every time fails with a message that says it timed out, and writes nothing',
    lab(async ({ gh, branch, writer, inject, seedFirstTransition, faults }) => {
      const headBefore = await seedFirstTransition()
      const { store } = writer({ requestTimeoutMs: 1500 })
      inject({ kind: 'slow', delayMs: 4000, times: Infinity, match: isSnapshotQuery })

      const error = await rejection(advance(store, 2))

      expectClearError(error, /timed out|timeout/i)
      expect(faults()).toHaveLength(4)
      await settleSlowRequests(gh)
      expect(await gh.state.branchHead(branch)).toBe(headBefore)
    }),
  )
})
