/**
 * Beyond one runner (SPEC §11), the pipeline side: which tasks are ready (`readiness`, `buildMatrix`), the
 * matrix of an issue or of the repository (`planMatrix`), one task in a matrix job (`executeTask`) and the
 * issue's status afterwards (`reportIssue`).
 *
 * The end-to-end flows use a bare repository as "GitHub": the state branch lives in it (a LocalGitStore, one
 * instance per job, so concurrent jobs race on its compare-and-swap as separate runners would) and the work
 * branch is pushed to it over file:// from one clone per job.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CONVERGE_IDENTITY, identityEnv, runGit } from '../../src/git/git.js'
import { WorkBranch, WorkBranchError, type GitRemote } from '../../src/git/work-branch.js'
import type { ExecutionRecord, Solution, Task, TaskResult } from '../../src/model/index.js'
import { planHash } from '../../src/plan/hash.js'
import { approvePlan } from '../../src/pipeline/approve.js'
import { signalIssue } from '../../src/pipeline/control.js'
import { readIssueFiles } from '../../src/pipeline/issue-files.js'
import { pipelinePlan } from '../../src/pipeline/plan-command.js'
import { systemClock } from '../../src/pipeline/run-context.js'
import { executeTask, type ExecuteTaskOptions, type ExecuteTaskResult } from '../../src/pipeline/scale-out/execute-task.js'
import { planMatrix } from '../../src/pipeline/scale-out/matrix.js'
import { EMPTY_MATRIX, buildMatrix, currentRecord, readiness } from '../../src/pipeline/scale-out/readiness.js'
import { issuesToReport, reportIssue } from '../../src/pipeline/scale-out/report.js'
import type { IssueDocument } from '../../src/planners/types.js'
import { LocalGitStore } from '../../src/state/local-git-store.js'
import { task } from '../support/tasks.js'
import { answerPlan, answerTask, checkScript, issueBodyWithPlan, type Answer } from '../support/answer-plans.js'
import { testPolicy } from '../support/run-policy.js'

const solution = (tasks: Task[]): Solution => ({ id: 'SOL-ISS-1-1', issue_id: 'ISS-1', description: 'd', strategy_type: 's', tasks, is_bound: true })
const result = (id: string, status: TaskResult['status']): TaskResult => ({
  task_id: id, status, started_at: null, executed_at: null, duration_ms: 0, files_modified: [], commit_hash: null,
  tests_passed: null, convergence_verified: [], attempts: 1, error: status === 'failed' ? 'boom' : null,
})
const recordOf = (plan: Solution, results: Record<string, TaskResult['status']>): ExecutionRecord => ({
  solution_id: plan.id, issue_id: 'ISS-1', plan_hash: planHash(plan), mode: 'execute', status: 'running', started_at: 't', executed_at: null,
  tasks: Object.fromEntries(Object.entries(results).map(([id, status]) => [id, result(id, status)])),
})
const idsOf = (tasks: ReadonlyArray<{ id: string }>) => tasks.map((t) => t.id)

describe('readiness', () => {
  // T1 a, T2 b, T3 b (shares T2's file), T4 after T1 and T2, T5 after T4, T6 c.
  const plan = solution([
    task('T1', [], ['src/a.ts']), task('T2', [], ['src/b.ts']), task('T3', [], ['./src/b.ts']),
    task('T4', ['T1', 'T2'], ['src/d.ts']), task('T5', ['T4'], ['src/e.ts']), task('T6', [], ['src/c.ts']),
  ])

  it('takes the tasks whose dependencies converged, conflict-free on files, greedy in plan order', () => {
    const r = readiness(plan, undefined)
    expect(idsOf(r.ready)).toEqual(['T1', 'T2', 'T6'])
    expect(r.deferred).toEqual([expect.objectContaining({ task: expect.objectContaining({ id: 'T3' }), conflictsWith: 'T2', path: 'src/b.ts' })])
    expect(idsOf(r.waiting)).toEqual(['T4', 'T5'])
    expect(r.halted).toBeNull()

    const next = readiness(plan, recordOf(plan, { T1: 'completed', T2: 'completed', T6: 'completed' }))
    expect(idsOf(next.ready)).toEqual(['T3', 'T4'])
    expect(idsOf(next.completed)).toEqual(['T1', 'T2', 'T6'])
    expect(idsOf(next.waiting)).toEqual(['T5'])
  })

  it('counts only the record of the plan as it is, from an execute run', () => {
    const record = recordOf(plan, { T1: 'completed' })
    expect(currentRecord(plan, record)).toBe(record)
    expect(currentRecord(plan, { ...record, mode: 'verify' })).toBeUndefined()
    expect(currentRecord(solution([task('T1', [], ['x'])]), record)).toBeUndefined()
    expect(currentRecord(plan, undefined)).toBeUndefined()
  })

  it('blocks the dependents of a failed task, transitively, and decides skipped tasks afresh', () => {
    const r = readiness(plan, recordOf(plan, { T1: 'completed', T2: 'failed', T4: 'skipped', T6: 'completed' }))
    expect(idsOf(r.failed)).toEqual(['T2'])
    expect(r.blocked.map((b) => [b.task.id, b.failed])).toEqual([['T4', 'T2'], ['T5', 'T2']])
    expect(idsOf(r.ready)).toEqual(['T3'])

    // T2 converged on a retry: its skipped dependent is ready again.
    const retried = readiness(plan, recordOf(plan, { T1: 'completed', T2: 'completed', T4: 'skipped', T6: 'completed' }))
    expect(idsOf(retried.ready)).toEqual(['T3', 'T4'])
    expect(retried.blocked).toEqual([])
  })

  it('halts after a failure with on-failure abort, and at max-errors', () => {
    const record = recordOf(plan, { T1: 'failed' })
    const aborted = readiness(plan, record, { onFailure: 'abort' })
    expect(aborted.ready).toEqual([])
    expect(aborted.halted).toBe('T1 failed and on-failure is abort')
    expect(idsOf(aborted.held)).toEqual(['T2', 'T3', 'T6'])
    expect(readiness(plan, record, { maxErrors: 1 }).halted).toBe('1 task failed (max-errors 1)')
    expect(idsOf(readiness(plan, record, { onFailure: 'skip', maxErrors: 2 }).ready)).toEqual(['T2', 'T6'])
  })

  it('treats a declared directory as touching every file inside it', () => {
    const dirs = solution([task('T1', [], ['lib']), task('T2', [], ['lib/x.ts']), task('T3', [], ['library.ts'])])
    const r = readiness(dirs, undefined)
    expect(idsOf(r.ready)).toEqual(['T1', 'T3'])
    expect(r.deferred.map((d) => [d.task.id, d.conflictsWith])).toEqual([['T2', 'T1']])
  })
})

describe('buildMatrix', () => {
  it('emits {"include":[…]} in order, and {"include":[]} when nothing is ready', () => {
    const built = buildMatrix([{ issue: 42, tasks: ['T1', 'T2'] }, { issue: 7, tasks: ['T3'] }])
    expect(built.json).toBe('{"include":[{"issue":42,"task":"T1"},{"issue":42,"task":"T2"},{"issue":7,"task":"T3"}]}')
    expect(built.leftover).toEqual([])
    expect(built.limitedBy).toBeNull()
    expect(buildMatrix([]).json).toBe(EMPTY_MATRIX)
    expect(JSON.parse(EMPTY_MATRIX)).toEqual({ include: [] })
  })

  it('caps the jobs at 256 and leaves the rest for the next round', () => {
    const tasks = Array.from({ length: 300 }, (_, i) => `T${i + 1}`)
    const built = buildMatrix([{ issue: 1, tasks: tasks.slice(0, 200) }, { issue: 2, tasks: tasks.slice(200) }])
    expect(built.include).toHaveLength(256)
    expect(built.leftover).toHaveLength(44)
    expect(built.leftover[0]).toEqual({ issue: 2, task: 'T257' })
    expect(built.limitedBy).toBe('jobs')
    expect(buildMatrix([{ issue: 1, tasks: ['T1', 'T2', 'T3'] }], { maxJobs: 2 }).leftover).toEqual([{ issue: 1, task: 'T3' }])
  })

  it('keeps the output under the byte limit', () => {
    const one = Buffer.byteLength('{"include":[{"issue":1,"task":"T1"}]}')
    const built = buildMatrix([{ issue: 1, tasks: ['T1', 'T2', 'T3'] }], { maxBytes: one + 10 })
    expect(built.include).toEqual([{ issue: 1, task: 'T1' }])
    expect(built.limitedBy).toBe('bytes')
    expect(Buffer.byteLength(built.json)).toBeLessThanOrEqual(one + 10)
    // Exactly at the limit fits.
    expect(buildMatrix([{ issue: 1, tasks: ['T1'] }], { maxBytes: one }).include).toHaveLength(1)
  })
})

// ---------------------------------------------------------------------------------------------------------
// With a state branch and a work branch

const N = 42
const WORK_BRANCH = `converge/issue-${N}`

/** Writes `ok` to every declared file (`wrong` for tasks in config.never); logs `start <id>` in runs.log. */
const EXECUTOR = `
const fs = require('node:fs')
const path = require('node:path')
const config = JSON.parse(fs.readFileSync(path.join(__dirname, 'config.json'), 'utf8'))
const task = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))
fs.appendFileSync(path.join(__dirname, 'runs.log'), 'start ' + task.id + '\\n')
setTimeout(() => {
  for (const file of task.files) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true })
    fs.writeFileSync(file.path, (config.never || []).includes(task.id) ? 'wrong\\n' : 'ok\\n')
  }
}, config.sleepMs || 0)
`
/** Each task writes `ok` to its file, which tools/check.cjs checks. */
const OK: Answer = { value: 'ok', check: 'tools/check.cjs' }
/** T1, T2, T3 side by side; T4 after T1 and T2. */
const PLAN = answerPlan([answerTask('T1', 'src/a.txt', [], OK), answerTask('T2', 'src/b.txt', [], OK), answerTask('T3', 'src/c.txt', [], OK), answerTask('T4', 'src/d.txt', ['T1', 'T2'], OK)])
const issueDoc = (n: number, plan: unknown = PLAN): IssueDocument => ({ number: n, title: 'Write the answers', labels: [], body: issueBodyWithPlan(plan) })

let root: string
let bare: string
let tools: string
let remote: GitRemote
let store: LocalGitStore
let clones = 0
const now = systemClock
const git = async (cwd: string, ...args: string[]) =>
  (await runGit(['-c', 'commit.gpgsign=false', ...args], { cwd, env: identityEnv({ name: 'Test User', email: 'test@example.com' }) })).stdout.trim()

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'converge-scale-out-'))
  tools = join(root, 'tools')
  const seed = join(root, 'seed')
  bare = join(root, 'origin.git')
  await mkdir(join(seed, 'tools'), { recursive: true })
  await mkdir(tools)
  await writeFile(join(tools, 'executor.cjs'), EXECUTOR)
  await configure({})
  await writeFile(join(seed, 'README.md'), '# answers\n')
  await writeFile(join(seed, OK.check), checkScript(OK.value))
  await git(seed, 'init', '--quiet', '--initial-branch=main')
  await git(seed, 'add', '--all')
  await git(seed, 'commit', '--quiet', '-m', 'initial')
  await git(root, 'init', '--quiet', '--bare', bare)
  await git(seed, 'push', '--quiet', bare, 'main:refs/heads/main')
  remote = { url: pathToFileURL(bare).href, token: 'x' }
  store = new LocalGitStore({ repoDir: bare })
})
afterEach(() => rm(root, { recursive: true, force: true }))

const configure = (config: { never?: string[]; sleepMs?: number }) => writeFile(join(tools, 'config.json'), JSON.stringify(config))

async function planned(n = N, plan: unknown = PLAN, approve = true): Promise<Solution> {
  const { result } = await pipelinePlan(store, issueDoc(n, plan), 'explicit', now())
  expect(result.analysis.errors).toEqual([])
  if (!approve) return result.solution!
  const approved = await approvePlan(store, n, 'alice', now())
  if (!approved.ok) throw new Error(approved.reason)
  return approved.solution
}

/** A matrix job: its own checkout of main, its own store instance (as its own runner would have), pushing with retries. */
async function job(taskId: string, overrides: Partial<ExecuteTaskOptions> = {}, n = N): Promise<ExecuteTaskResult> {
  const dir = join(root, `job-${++clones}`)
  await git(root, 'clone', '--quiet', '--branch', 'main', remote.url, dir)
  let branch: WorkBranch | undefined
  return executeTask(new LocalGitStore({ repoDir: bare }), n, taskId, {
    repoDir: dir,
    workRoot: join(root, `work-${clones}`),
    policy: testPolicy(`${JSON.stringify(process.execPath)} ${JSON.stringify(join(tools, 'executor.cjs'))}`),
    secrets: [],
    now,
    beforeTasks: async () => {
      branch = await WorkBranch.prepare({ repoDir: dir, branch: `converge/issue-${n}`, remote, identity: CONVERGE_IDENTITY, pushRetries: 10, pushRetryUnitMs: 20 })
    },
    committer: { commitTask: (t, issue, others) => branch!.commitTask(t, issue, others), discardTask: (t, others) => branch!.discardTask(t, others) },
    ...overrides,
  })
}
const ok = (r: ExecuteTaskResult) => {
  if (!r.ok) throw new Error(`expected the task to run: ${r.reason}`)
  return r
}
const state = async (n = N) => readIssueFiles(await store.snapshot(), n, now())
const statuses = async () => Object.fromEntries(Object.entries((await state()).execution!.tasks).map(([id, r]) => [id, r.status]))
const branchLog = async () => (await git(bare, 'log', '--format=%s', `main..${WORK_BRANCH}`)).split('\n').filter(Boolean).reverse()
const runs = async () => (await readFile(join(tools, 'runs.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean)
const report = (n = N) => reportIssue(store, n, { now: now(), secrets: [], onFailure: 'skip', maxErrors: 10 })

describe('planMatrix', () => {
  it('refuses a plan that is not approved, or changed since: an empty matrix and the reason', async () => {
    await planned(N, PLAN, false)
    const matrix = await planMatrix(store, { issue: N }, { now: now() })
    expect(matrix.json).toBe(EMPTY_MATRIX)
    expect(matrix.issues[0]!.refused).toMatch(/is not approved/)
    expect(matrix.summary).toContain('nothing is ready')
    expect(matrix.summary).toContain('is not approved')

    // auto-approve approves a plan that passes its gate, as the asking actor.
    const approved = await planMatrix(store, { issue: N }, { now: now(), autoApproveAs: 'alice' })
    expect(approved.issues[0]!.approved).toBe(true)
    expect(approved.json).toBe(`{"include":[{"issue":${N},"task":"T1"},{"issue":${N},"task":"T2"},{"issue":${N},"task":"T3"}]}`)
    expect((await state()).plan!.approval).toMatchObject({ approved_by: 'alice' })

    // A new plan for the issue is not approved.
    await planned(N, { ...PLAN, description: 'Write the answers again' }, false)
    expect((await planMatrix(store, { issue: N }, { now: now() })).issues[0]!.refused).toMatch(/not approved|changed after it was approved/)
  })

  it('says why nothing is ready, and what to do', async () => {
    await planned()
    for (const id of ['T1', 'T2', 'T3']) ok(await job(id))
    ok(await job('T4'))
    const done = await planMatrix(store, { issue: N }, { now: now() })
    expect(done.json).toBe(EMPTY_MATRIX)
    expect(done.summary).toContain('every task converged: run `report`')
  })

  it('covers every planned issue of the run state, one conflict-free set each, capped', async () => {
    await planned(N)
    await planned(7)
    await pipelinePlan(store, issueDoc(8), 'explicit', now()) // planned, not approved
    const all = await planMatrix(store, 'repository', { now: now() })
    expect(all.include).toEqual([7, 7, 7, N, N, N].map((issue, i) => ({ issue, task: `T${(i % 3) + 1}` })))
    expect(all.summary).toContain('**ISS-8**')
    expect(all.summary).toContain('is not approved')

    const capped = await planMatrix(store, 'repository', { now: now(), maxJobs: 4 })
    expect(capped.include).toHaveLength(4)
    expect(capped.leftover).toEqual([{ issue: N, task: 'T2' }, { issue: N, task: 'T3' }])
    expect(capped.summary).toContain('left for the next round')
    expect(capped.summary).toContain('2 ready tasks did not fit')
  })
})

describe('executeTask and reportIssue', () => {
  it('runs three tasks in concurrent jobs: every result recorded, one commit each on the work branch, then the next round', async () => {
    const plan = await planned()
    await configure({ sleepMs: 50 })
    const first = await planMatrix(store, { issue: N }, { now: now() })
    const results = await Promise.all(first.include.map((e) => job(e.task)))
    for (const r of results) expect(ok(r).result, ok(r).result?.error ?? '').toMatchObject({ status: 'completed' })

    const { execution, issue } = await state()
    expect(issue!.status).toBe('executing')
    expect(execution).toMatchObject({ plan_hash: planHash(plan), mode: 'execute', status: 'running' })
    expect(await statuses()).toEqual({ T1: 'completed', T2: 'completed', T3: 'completed' })
    // None lost to the concurrent pushes; each recorded commit is on the branch with the task's file only.
    const log = await branchLog()
    expect(new Set(log)).toEqual(new Set(['T1: Write src/a.txt (ISS-42)', 'T2: Write src/b.txt (ISS-42)', 'T3: Write src/c.txt (ISS-42)']))
    for (const [id, r] of Object.entries(execution!.tasks)) {
      expect(await git(bare, 'merge-base', '--is-ancestor', r.commit_hash!, WORK_BRANCH).then(() => true), id).toBe(true)
      expect(await git(bare, 'show', '--name-only', '--format=', r.commit_hash!), id).toBe(r.files_modified.join('\n'))
    }

    // The jobs left the issue executing and the record running: the report has nothing to change.
    const head = (await store.snapshot()).head
    const afterRound1 = await report()
    expect(afterRound1).toMatchObject({ ok: true, changed: false, headline: '1 task ready: run the matrix again (3/4 tasks converged).' })
    expect(afterRound1.ok && afterRound1.record!.status).toBe('running')
    expect((await store.snapshot()).head).toBe(head)
    expect(await issuesToReport(store)).toEqual([N])

    const second = await planMatrix(store, { issue: N }, { now: now() })
    expect(second.include).toEqual([{ issue: N, task: 'T4' }])
    ok(await job('T4'))
    // T4's job started from the work branch: T1 and T2's files were there.
    expect(await branchLog()).toHaveLength(4)
    expect(await git(bare, 'show', `${WORK_BRANCH}:src/a.txt`)).toBe('ok')

    const final = await report()
    expect(final).toMatchObject({ ok: true, headline: '4/4 tasks converged.' })
    const done = await state()
    expect(done.issue).toMatchObject({ status: 'completed', error: null })
    expect(done.execution).toMatchObject({ status: 'completed' })
    expect(done.execution!.executed_at).not.toBeNull()
    expect(done.run.issues[`ISS-${N}`]!.status).toBe('completed')
    expect(await readFile(join(await exportState(), 'execution.md'), 'utf8')).toContain('T4')
    expect(await issuesToReport(store)).toEqual([])
  })

  it('refuses a task that is not in the plan, or whose dependencies have not converged; runs a converged one not again', async () => {
    await planned()
    expect(await job('T9')).toMatchObject({ ok: false, started: false, reason: expect.stringMatching(/T9 is not a task of SOL-ISS-42-\d+ \(tasks: T1, T2, T3, T4\)/) })
    expect(await job('T4')).toMatchObject({ ok: false, reason: expect.stringContaining('T4 depends on T1, T2, which have not converged (T1 has not run yet, T2 has not run yet)') })
    expect((await state()).execution).toBeUndefined()

    ok(await job('T1'))
    const again = ok(await job('T1'))
    expect(again.ran).toBe(false)
    expect((await runs()).filter((l) => l === 'start T1')).toHaveLength(1)
  })

  it('refuses every task of an unapproved or paused issue', async () => {
    await planned(N, PLAN, false)
    expect(await job('T1')).toMatchObject({ ok: false, reason: expect.stringContaining('is not approved') })
    await approvePlan(store, N, 'alice', now())
    expect((await signalIssue(store, N, 'pause', 'alice', now())).ok).toBe(true)
    expect(await job('T1')).toMatchObject({ ok: false, reason: expect.stringContaining('is paused') })
    expect(await runs()).toEqual([])
  })

  it('records a failed task, undoes its changes, and the report skips its dependents and fails the issue', async () => {
    await planned()
    await configure({ never: ['T2'] })
    const results = await Promise.all(['T1', 'T2', 'T3'].map((id) => job(id)))
    const failed = ok(results[1]!)
    expect(failed.result).toMatchObject({ status: 'failed', commit_hash: null })
    expect(failed.result!.error).toContain('expected ok, got wrong')
    expect(await branchLog()).toHaveLength(2)

    const r = await report()
    expect(r).toMatchObject({ ok: true, changed: true })
    expect(await statuses()).toEqual({ T1: 'completed', T2: 'failed', T3: 'completed', T4: 'skipped' })
    const { issue, execution } = await state()
    expect(issue!.status).toBe('failed')
    expect(issue!.error).toContain('1 of 4 tasks failed (T2:')
    expect(issue!.error).toContain('T4 skipped')
    expect(execution!.tasks.T4!.error).toBe('Skipped: depends on T2, which failed')
    expect(execution!.status).toBe('failed')
    expect((await planMatrix(store, { issue: N }, { now: now() })).summary).toContain('failed: T2')

    // Running the failed task again by name (a re-run of its matrix job) converges it; T4 is ready again.
    await configure({})
    ok(await job('T2'))
    const after = await report()
    expect(after).toMatchObject({ ok: true, headline: '1 task ready: run the matrix again (3/4 tasks converged).' })
    expect((await state()).execution!.tasks.T4).toBeUndefined()
    expect((await state()).issue!.status).toBe('executing')
  })
})

describe('WorkBranch pushRetries (jobs pushing to one branch)', () => {
  const prepare = async (name: string, pushRetries?: number) => {
    const dir = join(root, name)
    await git(root, 'clone', '--quiet', '--branch', 'main', remote.url, dir)
    const branch = await WorkBranch.prepare({ repoDir: dir, branch: WORK_BRANCH, remote, identity: CONVERGE_IDENTITY, pushRetryUnitMs: 1, ...(pushRetries !== undefined ? { pushRetries } : {}) })
    return { dir, branch }
  }
  const declare = (id: string, path: string) => ({ id, title: `Write ${path}`, files: [{ path }] })

  it('rebases its commit onto what another job pushed meanwhile, and pushes it', async () => {
    const a = await prepare('a')
    const b = await prepare('b', 3)
    await writeFile(join(a.dir, 'a.txt'), 'a\n')
    await writeFile(join(b.dir, 'b.txt'), 'b\n')
    const first = await a.branch.commitTask(declare('T1', 'a.txt'), N, [])
    const second = await b.branch.commitTask(declare('T2', 'b.txt'), N, [])
    expect(await branchLog()).toEqual(['T1: Write a.txt (ISS-42)', 'T2: Write b.txt (ISS-42)'])
    // The commit it reports is the rebased one, on top of the other job's.
    expect(await git(bare, 'rev-parse', WORK_BRANCH)).toBe(second!.commit)
    expect(await git(bare, 'rev-parse', `${second!.commit}^`)).toBe(first!.commit)
    expect(await git(b.dir, 'status', '--porcelain')).toBe('')
  })

  it('without pushRetries, a branch that moved is an error; commits that conflict are not forced', async () => {
    const a = await prepare('a')
    const b = await prepare('b')
    const c = await prepare('c', 3)
    for (const job of [a, b, c]) await writeFile(join(job.dir, 'same.txt'), `${job.dir}\n`)
    await a.branch.commitTask(declare('T1', 'same.txt'), N, [])
    await expect(b.branch.commitTask(declare('T2', 'same.txt'), N, [])).rejects.toThrow(/moved on .* since this run fetched it/)
    const conflict = c.branch.commitTask(declare('T3', 'same.txt'), N, [])
    await expect(conflict).rejects.toThrow(WorkBranchError)
    await expect(conflict).rejects.toThrow(/other jobs pushed commits that conflict with this one/)
    expect(await branchLog()).toEqual(['T1: Write same.txt (ISS-42)'])
    // The rebase was undone: the job's branch is as it was, its own commit on top of main.
    expect(await git(c.dir, 'log', '--format=%s', 'main..HEAD')).toBe('T3: Write same.txt (ISS-42)')
    expect(await git(c.dir, 'status', '--porcelain')).toBe('')
  })
})

/** The issue's files on the state branch, checked out into a directory. */
async function exportState(): Promise<string> {
  const dir = join(root, 'state-export')
  await rm(dir, { recursive: true, force: true })
  await git(root, 'clone', '--quiet', '--branch', 'converge/state', remote.url, dir)
  return join(dir, `.converge/issues/${N}`)
}
