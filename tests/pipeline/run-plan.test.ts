/**
 * `executeIssue` / `verifyIssue` on a local repository: the state branch in a LocalGitStore, the work branch
 * `converge/issue-<n>` as committer (as `converge execute` sets it up), and a scripted executor — a real
 * process that writes each declared file, with behaviour the test sets per task in a config file.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CONVERGE_IDENTITY, identityEnv, runGit } from '../../src/git/git.js'
import { WorkBranch } from '../../src/git/work-branch.js'
import type { Solution } from '../../src/model/index.js'
import { planHash } from '../../src/plan/hash.js'
import { approvePlan } from '../../src/pipeline/approve.js'
import { signalIssue } from '../../src/pipeline/control.js'
import { readIssueFiles } from '../../src/pipeline/issue-files.js'
import { pipelinePlan } from '../../src/pipeline/plan-command.js'
import { systemClock } from '../../src/pipeline/run-context.js'
import { executeIssue, verifyIssue, type ExecuteOptions, type RunPlanResult } from '../../src/pipeline/run-plan.js'
import { mergeLoop } from '../../src/pipeline/run-record.js'
import type { RunPolicy } from '../../src/pipeline/run-request.js'
import type { IssueDocument } from '../../src/planners/types.js'
import { statePaths, toStateJson } from '../../src/model/state-layout.js'
import { LocalGitStore } from '../../src/state/local-git-store.js'
import type { StateStore } from '../../src/state/store.js'
import { answerPlan, answerTask, checkScript, issueBodyWithPlan, type Answer } from '../support/answer-plans.js'
import { testPolicy } from '../support/run-policy.js'
import { FULL_SUITE } from '../support/suite-size.js'

const N = 42
const WORK_BRANCH = `converge/issue-${N}`

/**
 * The scripted executor. Per task (config.json beside it): `never` write `wrong`; `convergeOnRun[id]`: write `ok`
 * only from that run of the task on; `gate`: announce `waiting-<id>` and wait for `go-<id>` before writing;
 * `sleepMs`: take that long. Every run is logged as `start <id>` / `end <id>` in runs.log.
 */
const EXECUTOR = `
const fs = require('node:fs')
const path = require('node:path')
const dir = __dirname
const config = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'))
const task = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))
const logFile = path.join(dir, 'runs.log')
fs.appendFileSync(logFile, 'start ' + task.id + '\\n')
const run = fs.readFileSync(logFile, 'utf8').split('\\n').filter((l) => l === 'start ' + task.id).length
const good = !(config.never || []).includes(task.id) && run >= ((config.convergeOnRun || {})[task.id] || 1)
const finish = () => {
  for (const file of task.files) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true })
    fs.writeFileSync(file.path, good ? 'ok\\n' : 'wrong\\n')
  }
  fs.appendFileSync(logFile, 'end ' + task.id + '\\n')
}
if ((config.gate || []).includes(task.id)) {
  fs.writeFileSync(path.join(dir, 'waiting-' + task.id), '')
  const timer = setInterval(() => {
    if (fs.existsSync(path.join(dir, 'go-' + task.id))) { clearInterval(timer); finish() }
  }, 10)
} else setTimeout(finish, config.sleepMs || 0)
`

interface ExecutorConfig {
  never?: string[]
  convergeOnRun?: Record<string, number>
  gate?: string[]
  sleepMs?: number
}

/** Each task writes `ok` to its file, which tools/check.cjs checks. */
const OK: Answer = { value: 'ok', check: 'tools/check.cjs' }
/** A chain T1 → T2 → T4 and T3 beside it (T4 also waits for T3). */
const FILES = { T1: 'src/a.txt', T2: 'src/b.txt', T3: 'src/c.txt', T4: 'src/d.txt' } as const
const PLAN = answerPlan([answerTask('T1', FILES.T1, [], OK), answerTask('T2', FILES.T2, ['T1'], OK), answerTask('T3', FILES.T3, [], OK), answerTask('T4', FILES.T4, ['T2', 'T3'], OK)])
const ISSUE: IssueDocument = { number: N, title: 'Write the answers', labels: [], body: issueBodyWithPlan(PLAN) }

let root: string
let repo: string
let tools: string
let store: LocalGitStore
const now = systemClock

const git = async (...args: string[]) =>
  (await runGit(['-c', 'commit.gpgsign=false', ...args], { cwd: repo, env: identityEnv({ name: 'Test User', email: 'test@example.com' }) })).stdout.trim()

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'converge-run-plan-'))
  repo = join(root, 'repo')
  tools = join(root, 'tools')
  await mkdir(join(repo, 'tools'), { recursive: true })
  await mkdir(tools)
  await writeFile(join(tools, 'executor.cjs'), EXECUTOR)
  await configure({})
  await writeFile(join(repo, 'README.md'), '# answers\n')
  await writeFile(join(repo, OK.check), checkScript(OK.value))
  await git('init', '--quiet', '--initial-branch=main')
  await git('add', '--all')
  await git('commit', '--quiet', '-m', 'initial')
  store = new LocalGitStore({ repoDir: repo })
})
afterEach(() => rm(root, { recursive: true, force: true }))

const configure = (config: ExecutorConfig) => writeFile(join(tools, 'config.json'), JSON.stringify(config))

async function planAndApprove(): Promise<Solution> {
  const { result } = await pipelinePlan(store, ISSUE, 'explicit', now())
  expect(result.analysis.errors).toEqual([])
  const approved = await approvePlan(store, N, 'alice', now())
  expect(approved).toMatchObject({ ok: true })
  return (approved as { solution: Solution }).solution
}

/** Options as `converge execute` sets them: the work branch checked out before the tasks, each converged task committed. */
function executeOptions(overrides: Partial<ExecuteOptions> = {}, policy: Partial<RunPolicy> = {}): ExecuteOptions {
  let branch: WorkBranch | undefined
  return {
    policy: testPolicy(`${JSON.stringify(process.execPath)} ${JSON.stringify(join(tools, 'executor.cjs'))}`, policy),
    repoDir: repo,
    workRoot: join(root, 'work'),
    secrets: [],
    now,
    executorEnv: {},
    beforeTasks: async () => {
      branch = await WorkBranch.prepare({ repoDir: repo, branch: WORK_BRANCH, identity: CONVERGE_IDENTITY })
    },
    committer: { commitTask: (task, issue, others) => branch!.commitTask(task, issue, others), discardTask: (task, others) => branch!.discardTask(task, others) },
    ...overrides,
  }
}

const state = async () => readIssueFiles(await store.snapshot(), N, now())
const statuses = async () => {
  const { execution } = await state()
  return Object.fromEntries(Object.entries(execution!.tasks).map(([id, r]) => [id, r.status]))
}
const runLog = async () => (await readFile(join(tools, 'runs.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean)
/** How many times the executor started for each task. */
const runsPerTask = async () => {
  const counts: Record<string, number> = {}
  for (const line of await runLog()) if (line.startsWith('start ')) counts[line.slice(6)] = (counts[line.slice(6)] ?? 0) + 1
  return counts
}
const ok = (result: RunPlanResult) => {
  if (!result.ok) throw new Error(`expected the run to start: ${result.reason}`)
  return result
}

describe('executeIssue', () => {
  it('runs a chain and parallel tasks to convergence, each committed to the work branch and recorded', async () => {
    const plan = await planAndApprove()
    await configure({ sleepMs: 300 })
    const progress: string[][] = []
    const result = ok(await executeIssue(store, N, executeOptions({ onProgress: (record) => progress.push(Object.keys(record.tasks)) })))

    expect(result.record.status).toBe('completed')
    expect(result.issue.status).toBe('completed')
    expect([...result.ran].sort()).toEqual(['T1', 'T2', 'T3', 'T4'])
    expect(progress.map((ids) => ids.length)).toEqual([1, 2, 3, 4])

    // Dependencies first; never more than maxParallel executors at once, and T1 and T3 side by side.
    const log = await runLog()
    const at = (line: string) => log.indexOf(line)
    expect(at('start T2')).toBeGreaterThan(at('end T1'))
    expect(at('start T4')).toBeGreaterThan(Math.max(at('end T2'), at('end T3')))
    let running = 0
    let most = 0
    for (const line of log) most = Math.max(most, (running += line.startsWith('start ') ? 1 : -1))
    expect(most).toBe(2)
    expect(at('start T3')).toBeLessThan(at('end T1'))

    const { issue, execution, loop, events } = await state()
    expect(issue!.status).toBe('completed')
    expect(execution).toMatchObject({ solution_id: plan.id, issue_id: `ISS-${N}`, plan_hash: planHash(plan), mode: 'execute', status: 'completed' })
    expect(execution!.executed_at).not.toBeNull()

    // One commit a task on the work branch, with exactly the task's file.
    expect(await git('symbolic-ref', '--short', 'HEAD')).toBe(WORK_BRANCH)
    const onBranch = (await git('rev-list', `main..${WORK_BRANCH}`)).split('\n')
    expect(onBranch).toHaveLength(4)
    for (const [id, file] of Object.entries(FILES)) {
      const task = execution!.tasks[id]!
      expect(task).toMatchObject({ task_id: id, status: 'completed', attempts: 1, tests_passed: true, error: null, files_modified: [file] })
      // Its commit's lines, for the board: one line added ('ok'), in a file of its own.
      expect(task.file_stats).toEqual([{ path: file, added: 1, removed: 0 }])
      expect(onBranch).toContain(task.commit_hash)
      expect(await git('log', '-1', '--format=%s', task.commit_hash!)).toBe(`${id}: Write ${file} (ISS-${N})`)
      expect(await git('show', '--format=', '--name-only', task.commit_hash!)).toBe(file)
      expect(await git('show', `${task.commit_hash}:${file}`)).toBe('ok')
    }
    expect(await git('status', '--porcelain')).toBe('')

    // loop.json: every task's entry, although T1 and T3 ran side by side from the same loop state.
    const develop = loop!.skill_state!.develop
    expect(develop.tasks.map((t) => t.id).sort()).toEqual(['T1', 'T2', 'T3', 'T4'])
    expect(develop.tasks.every((t) => t.status === 'completed')).toBe(true)
    expect(develop).toMatchObject({ total: 4, completed: 4 })
    // …and it agrees with execution.json: the loop completed, each task's files are those its commit changed.
    expect(loop).toMatchObject({ status: 'completed', completed_at: expect.any(String) })
    for (const t of develop.tasks) expect(t.files_changed).toEqual(execution!.tasks[t.id]!.files_modified)
    expect(events).toContain(`execution of ${plan.id} started`)
    expect(await (await store.snapshot()).read(statePaths.executionReport(N))).toContain('T4')
  })

  it('skips the dependents of a task that never converges (on-failure skip) and says why the run failed', async () => {
    await planAndApprove()
    await configure({ never: ['T2'] })
    const result = ok(await executeIssue(store, N, executeOptions({}, { maxIterations: 2 })))

    expect(await statuses()).toEqual({ T1: 'completed', T2: 'failed', T3: 'completed', T4: 'skipped' })
    const { issue, execution } = await state()
    expect(execution!.status).toBe('failed')
    expect(execution!.tasks.T2).toMatchObject({ attempts: 2, commit_hash: null, files_modified: [], error: expect.stringMatching(/^Not converged after 2 attempts: `node tools\/check.cjs src\/b.txt` exited with code 1/) })
    expect(execution!.tasks.T4).toMatchObject({ attempts: 0, error: 'Skipped: depends on T2, which failed' })
    expect(issue!.status).toBe('failed')
    expect(issue!.error).toMatch(/^1 of 4 tasks failed \(T2: Not converged after 2 attempts/)
    // Kept as feedback for the next planning (the agent planner's prompt shows it).
    expect(issue!.feedback.at(-1)).toMatchObject({ source: 'execution', message: issue!.error })
    expect(issue!.error).toContain('T4 skipped')
    expect(result.issue).toEqual(issue)
    expect((await state()).loop).toMatchObject({ status: 'failed', failure_reason: issue!.error })
    expect(await runsPerTask()).toEqual({ T1: 1, T2: 2, T3: 1 })
  })

  it('starts nothing new after a failure with on-failure abort', async () => {
    await planAndApprove()
    await configure({ never: ['T1'] })
    const result = ok(await executeIssue(store, N, executeOptions({}, { onFailure: 'abort' })))

    // T3 was already running beside T1; T2 and T4 never started and have no result.
    expect(await statuses()).toEqual({ T1: 'failed', T3: 'completed' })
    expect(Object.keys(await runsPerTask()).sort()).toEqual(['T1', 'T3'])
    expect(result.record.status).toBe('failed')
    const { issue } = await state()
    expect(issue!.status).toBe('failed')
    expect(issue!.error).toContain('T2, T4 not started (the run was aborted after T1 failed)')
  })

  it('runs a task that did not converge again, from the start, with on-failure retry', async () => {
    await planAndApprove()
    await configure({ convergeOnRun: { T2: 3 } })
    const result = ok(await executeIssue(store, N, executeOptions({}, { onFailure: 'retry', maxRetries: 2 })))

    expect(result.record.status).toBe('completed')
    expect(result.record.tasks.T2).toMatchObject({ status: 'completed', attempts: 3, error: null })
    expect(result.record.tasks.T1!.attempts).toBe(1)
    expect((await runsPerTask()).T2).toBe(3)
    for (const round of [1, 2, 3]) expect(existsSync(join(root, 'work', `ISS-${N}`, 'T2', `round-${round}`, 'attempt-1', 'task.json'))).toBe(true)
    const { execution } = await state()
    expect((await git('rev-list', `main..${WORK_BRANCH}`)).split('\n')).toContain(execution!.tasks.T2!.commit_hash)
    expect(await git('show', '--format=', '--name-only', execution!.tasks.T2!.commit_hash!)).toBe(FILES.T2)
  })

  // The cases under `it.runIf(FULL_SUITE)` take paths the others show in `npm test` (retries, resumes): CI runs them.
  it.runIf(FULL_SUITE)('gives up on a task after 1 + maxRetries rounds, attempts summed', async () => {
    await planAndApprove()
    await configure({ never: ['T3'] })
    ok(await executeIssue(store, N, executeOptions({}, { onFailure: 'retry', maxRetries: 1, maxIterations: 2 })))
    const { execution } = await state()
    expect(execution!.tasks.T3).toMatchObject({ status: 'failed', attempts: 4 })
    expect(execution!.tasks.T4!.status).toBe('skipped')
    expect((await runsPerTask()).T3).toBe(4)
  })

  it('stops starting tasks once maxErrors tasks failed', async () => {
    await planAndApprove()
    await configure({ never: ['T1'] })
    ok(await executeIssue(store, N, executeOptions({}, { maxParallel: 1, maxErrors: 1 })))

    // T1 failed: its dependents are skipped, and T3 (independent) is not started.
    expect(await statuses()).toEqual({ T1: 'failed', T2: 'skipped', T4: 'skipped' })
    expect(Object.keys(await runsPerTask())).toEqual(['T1'])
    const { issue, execution } = await state()
    expect(execution!.status).toBe('failed')
    expect(issue!.error).toContain('T3 not started (1 task failed (max-errors 1))')
  })

  it('resumes: converged tasks are not run again, failed ones only when retried (with their skipped dependents)', async () => {
    await planAndApprove()
    await configure({ never: ['T2'] })
    ok(await executeIssue(store, N, executeOptions()))
    expect(await statuses()).toEqual({ T1: 'completed', T2: 'failed', T3: 'completed', T4: 'skipped' })
    const firstCommits = await state().then(({ execution }) => [execution!.tasks.T1!.commit_hash, execution!.tasks.T3!.commit_hash])

    // The executor would now succeed, but a plain rerun does not retry what failed.
    await configure({})
    const again = ok(await executeIssue(store, N, executeOptions()))
    expect(again.ran).toEqual([])
    expect(again.record.status).toBe('failed')
    expect(await statuses()).toEqual({ T1: 'completed', T2: 'failed', T3: 'completed', T4: 'skipped' })
    expect(await runsPerTask()).toEqual({ T1: 1, T2: 1, T3: 1 })

    const retried = ok(await executeIssue(store, N, executeOptions({ retry: ['T2'] })))
    expect([...retried.ran].sort()).toEqual(['T2', 'T4'])
    expect(retried.record.status).toBe('completed')
    expect(retried.issue.status).toBe('completed')
    expect(await runsPerTask()).toEqual({ T1: 1, T2: 2, T3: 1, T4: 1 })
    const { execution, events } = await state()
    // Earlier results carried over as they were, the new commits on top of the earlier ones.
    expect([execution!.tasks.T1!.commit_hash, execution!.tasks.T3!.commit_hash]).toEqual(firstCommits)
    expect((await git('rev-list', `main..${WORK_BRANCH}`)).split('\n')).toHaveLength(4)
    expect(events).toContain('(resumed: 2 tasks already converged)')
    expect(events).toContain('**Retrying**: T2')
  })

  it.runIf(FULL_SUITE)('retries every failed task with retry: failed', async () => {
    await planAndApprove()
    await configure({ never: ['T1', 'T3'] })
    ok(await executeIssue(store, N, executeOptions()))
    expect(await statuses()).toEqual({ T1: 'failed', T2: 'skipped', T3: 'failed', T4: 'skipped' })
    await configure({})
    const retried = ok(await executeIssue(store, N, executeOptions({ retry: 'failed' })))
    expect(retried.record.status).toBe('completed')
    expect(await runsPerTask()).toEqual({ T1: 2, T2: 1, T3: 2, T4: 1 })
  })

  it('refuses what it cannot run, and runs nothing', async () => {
    // No plan yet.
    expect(await executeIssue(store, N, executeOptions())).toEqual({ ok: false, reason: `ISS-${N} has no plan yet: run \`/converge plan\` first` })

    // Planned, not approved.
    const { result } = await pipelinePlan(store, ISSUE, 'explicit', now())
    const id = result.solution!.id
    expect(await executeIssue(store, N, executeOptions())).toEqual({
      ok: false, reason: `${id} is not approved: its commands run only after \`/converge approve\``,
    })

    // Approved, then edited on the state branch.
    await approvePlan(store, N, 'alice', now())
    const { plan } = await state()
    const edited = { ...plan!, tasks: plan!.tasks.map((t) => (t.id === 'T3' ? { ...t, test: { ...t.test, commands: ['node -e "process.exit(0)"'] } } : t)) }
    const head = (await store.snapshot()).head
    await store.commit({ message: 'edit the plan by hand', files: { [statePaths.plan(N)]: toStateJson(edited) } }, head)
    expect(await executeIssue(store, N, executeOptions())).toEqual({
      ok: false, reason: `${id} changed after it was approved: its commands run only after \`/converge approve\` of the current content`,
    })
    expect(await verifyIssue(store, N, executeOptions())).toMatchObject({ ok: false, reason: expect.stringContaining('changed after it was approved') })

    // Retry before any execution.
    await approvePlan(store, N, 'alice', now())
    expect(await executeIssue(store, N, executeOptions({ retry: ['T1'] }))).toEqual({
      ok: false, reason: `${id} has not been executed yet: run \`/converge execute\` first`,
    })

    // Nothing ran, nothing was recorded, the work branch was not even created.
    expect(await runLog()).toEqual([])
    const after = await state()
    expect(after.execution).toBeUndefined()
    expect(after.issue!.status).toBe('planned')
    expect(await git('for-each-ref', `refs/heads/${WORK_BRANCH}`)).toBe('')
  })

  it.runIf(FULL_SUITE)('runs nothing again once every task converged, but records the end again (for the report an earlier run may have lost)', async () => {
    await planAndApprove()
    ok(await executeIssue(store, N, executeOptions()))
    const first = (await state()).execution!

    const again = ok(await executeIssue(store, N, executeOptions()))
    expect(again.ran).toEqual([])
    expect(again.record).toMatchObject({ status: 'completed', tasks: first.tasks })
    expect(again.issue.status).toBe('completed')
    expect((await state()).execution!.tasks).toEqual(first.tasks)
    expect(await runsPerTask()).toEqual({ T1: 1, T2: 1, T3: 1, T4: 1 })
  })

  it.runIf(FULL_SUITE)('a verify after an execute keeps what the execute recorded: the next execute runs nothing again and commits nothing twice', async () => {
    await planAndApprove()
    ok(await executeIssue(store, N, executeOptions()))
    const executed = (await state()).execution!
    const commits = await git('rev-list', '--count', WORK_BRANCH)

    // Verified on main, where the work is not: every task fails verification, and the record says so.
    await git('checkout', '--quiet', 'main')
    const { committer: _c, beforeTasks: _b, ...options } = executeOptions()
    const verified = ok(await verifyIssue(store, N, options))
    expect(verified.record).toMatchObject({ mode: 'verify', status: 'failed', executed_tasks: executed.tasks })
    expect(Object.values(verified.record.tasks).every((r) => r.status !== 'completed')).toBe(true)
    // Recorded beside the execution: the completed execution does not become a failed one.
    expect(verified.issue).toMatchObject({ status: 'completed', error: null })

    const again = ok(await executeIssue(store, N, executeOptions()))
    expect(again.ran).toEqual([])
    expect(again.record).toMatchObject({ mode: 'execute', status: 'completed', tasks: executed.tasks })
    expect(again.record.executed_tasks).toBeUndefined()
    expect(await runsPerTask()).toEqual({ T1: 1, T2: 1, T3: 1, T4: 1 })
    expect(await git('rev-list', '--count', WORK_BRANCH)).toBe(commits)
  })

  it('a read of pause/stop that fails while a task runs halts the run with the error (no task recorded as failed), and a rerun goes on', async () => {
    await planAndApprove()
    // GitHub fails past the client's retries exactly when a task asks whether to go on.
    let down = true
    let reads = 0
    const controlRead = (prefetch?: readonly string[]) => prefetch?.length === 1 && prefetch[0] === statePaths.issue(N)
    const flaky: StateStore = {
      branch: store.branch,
      // The first read (before the first task) works; the next ones fail.
      snapshot: (prefetch) => (down && controlRead(prefetch) && ++reads > 1 ? Promise.reject(new Error('GitHub API POST /graphql failed: 403 secondary rate limit')) : store.snapshot(prefetch)),
      commit: (change, head) => store.commit(change, head),
    }
    // Whichever asked first (a running task, or the scheduler before the next one) stops the run with the error.
    await expect(executeIssue(flaky, N, executeOptions({ controlIntervalMs: 0 }))).rejects.toThrow(/^ISS-\d+: the run stopped (during T\d|before its next task): GitHub API POST \/graphql failed: 403 secondary rate limit\. Run it again/)
    const { issue, execution } = await state()
    expect(Object.values(execution!.tasks).filter((r) => r.status === 'failed')).toEqual([])
    expect(issue!.error).toMatch(/the run stopped (during T\d|before its next task)/)

    down = false
    expect(ok(await executeIssue(flaky, N, executeOptions({ controlIntervalMs: 0 }))).record.status).toBe('completed')
  })

  it('refuses to retry when nothing failed, and unknown tasks', async () => {
    const plan = await planAndApprove()
    ok(await executeIssue(store, N, executeOptions()))
    const stateHead = (await store.snapshot()).head

    expect(await executeIssue(store, N, executeOptions({ retry: 'failed' }))).toEqual({ ok: false, reason: `No task of ${plan.id} failed: nothing to retry` })
    expect(await executeIssue(store, N, executeOptions({ retry: ['T9'] }))).toEqual({
      ok: false, reason: `T9 is not a task of ${plan.id} (tasks: T1, T2, T3, T4)`,
    })
    expect(await executeIssue(store, N, executeOptions({ retry: ['T2', 'X', 'Y'] }))).toEqual({
      ok: false, reason: `X, Y are not tasks of ${plan.id} (tasks: T1, T2, T3, T4)`,
    })
    expect((await store.snapshot()).head).toBe(stateHead)
    expect(await runsPerTask()).toEqual({ T1: 1, T2: 1, T3: 1, T4: 1 })
  })

  it('a run whose beforeTasks throws leaves the issue and its execution as they were, and says why in the event log', async () => {
    await planAndApprove()
    await configure({ never: ['T2'] })
    ok(await executeIssue(store, N, executeOptions()))
    const before = await state()

    await configure({})
    const result = await executeIssue(store, N, executeOptions({
      beforeTasks: async () => { throw new Error('your local changes would be overwritten by checkout') },
    }))
    const reason = 'Execution could not start: your local changes would be overwritten by checkout'
    expect(result).toEqual({ ok: false, reason })
    const { issue, execution, events } = await state()
    expect(issue).toEqual(before.issue)
    expect(execution).toEqual(before.execution)
    expect(events).toContain('run refused before it began')
    expect(events).toContain(`**Why**: ${reason}`)
    expect(await runsPerTask()).toEqual({ T1: 1, T2: 1, T3: 1 })

    // The next run starts normally and leaves the failed task alone.
    const next = ok(await executeIssue(store, N, executeOptions()))
    expect(next.ran).toEqual([])
    expect(next.issue.status).toBe('failed')
  })

  // BUG (src/pipeline/run-plan.ts, startRun + abandonRun): startRun records the execution without the results
  // of the tasks being retried; when beforeTasks then throws, abandonRun keeps that record, so T2's earlier
  // failure is lost. A later `retry: 'failed'` is refused ("nothing to retry") although T2 never converged.
  // Remove `.fails` once that is fixed.
  it('keeps the failed result of a task whose retry could not start', async () => {
    await planAndApprove()
    await configure({ never: ['T2'] })
    ok(await executeIssue(store, N, executeOptions()))
    const before = (await state()).execution!
    const failing = await executeIssue(store, N, executeOptions({ retry: ['T2'], beforeTasks: async () => { throw new Error('checkout failed') } }))
    expect(failing).toMatchObject({ ok: false })
    expect((await state()).execution!.tasks.T2).toEqual(before.tasks.T2)
    await configure({})
    expect(ok(await executeIssue(store, N, executeOptions({ retry: 'failed' }))).record.status).toBe('completed')
  })

  it('records a converged task whose commit fails as failed', async () => {
    await planAndApprove()
    const branch = { current: undefined as WorkBranch | undefined }
    const result = ok(await executeIssue(store, N, executeOptions({
      beforeTasks: async () => {
        branch.current = await WorkBranch.prepare({ repoDir: repo, branch: WORK_BRANCH, identity: CONVERGE_IDENTITY })
      },
      committer: {
        commitTask: async (task, issue, others) => {
          if (task.id === 'T1') throw new Error('disk full')
          return branch.current!.commitTask(task, issue, others)
        },
        discardTask: (task, others) => branch.current!.discardTask(task, others),
      },
    })))
    expect(result.record.tasks.T1).toMatchObject({
      status: 'failed', commit_hash: null, tests_passed: true, error: 'Converged, but its changes could not be committed: disk full',
    })
    expect(await statuses()).toEqual({ T1: 'failed', T2: 'skipped', T3: 'completed', T4: 'skipped' })
    expect((await state()).issue!.error).toContain('T1: Converged, but its changes could not be committed: disk full')
  })

  it('stops at a pause recorded by another writer at the task boundary: the running task finishes and is recorded; resume goes on', async () => {
    await planAndApprove()
    await configure({ gate: ['T2'] })
    const running = executeIssue(store, N, executeOptions({ controlIntervalMs: 0 }, { maxParallel: 1 }))

    // T2's executor is running: pause the issue as `/converge pause` would, then let the executor finish.
    await waitFor(join(tools, 'waiting-T2'))
    expect(await signalIssue(store, N, 'pause', 'bob', now())).toMatchObject({ ok: true, status: 'paused' })
    await writeFile(join(tools, 'go-T2'), '')
    const paused = ok(await running)

    expect(paused.record.status).toBe('paused')
    expect(paused.ran).toEqual(['T1', 'T2'])
    const { issue, execution } = await state()
    expect(issue!.status).toBe('paused')
    expect(execution!.status).toBe('paused')
    // T2 was running when the pause came: it finished, converged and was committed; nothing after it started.
    expect(Object.keys(execution!.tasks).sort()).toEqual(['T1', 'T2'])
    expect(execution!.tasks.T2).toMatchObject({ status: 'completed', commit_hash: expect.stringMatching(/^[0-9a-f]{40}$/) })
    expect(await runsPerTask()).toEqual({ T1: 1, T2: 1 })

    await configure({})
    expect(await executeIssue(store, N, executeOptions())).toEqual({ ok: false, reason: `ISS-${N} is paused: run \`/converge resume\` first` })
    expect(await signalIssue(store, N, 'resume', 'bob', now())).toMatchObject({ ok: true, status: 'planned' })
    const resumed = ok(await executeIssue(store, N, executeOptions({ controlIntervalMs: 0 })))
    expect(resumed.record.status).toBe('completed')
    expect([...resumed.ran].sort()).toEqual(['T3', 'T4'])
    expect(await runsPerTask()).toEqual({ T1: 1, T2: 1, T3: 1, T4: 1 })
    expect((await git('rev-list', `main..${WORK_BRANCH}`)).split('\n')).toHaveLength(4)
  })
})

describe('verifyIssue', () => {
  it('checks every task against the code as it is, a failure skipping nothing', async () => {
    const plan = await planAndApprove()
    await mkdir(join(repo, 'src'))
    await writeFile(join(repo, FILES.T1), 'ok\n')
    await writeFile(join(repo, FILES.T2), 'not yet\n')
    await writeFile(join(repo, FILES.T3), 'ok\n')
    await writeFile(join(repo, FILES.T4), 'ok\n')
    const { committer: _c, beforeTasks: _b, ...options } = executeOptions()
    const result = ok(await verifyIssue(store, N, options))

    expect(result.record).toMatchObject({ mode: 'verify', status: 'failed', plan_hash: planHash(plan) })
    expect(await statuses()).toEqual({ T1: 'completed', T2: 'failed', T3: 'completed', T4: 'completed' })
    const { issue, execution } = await state()
    expect(execution!.mode).toBe('verify')
    expect(execution!.tasks.T2).toMatchObject({ attempts: 1, tests_passed: false, error: expect.stringContaining('expected ok, got not yet') })
    expect(issue!.status).toBe('failed')
    expect(issue!.error).toMatch(/^1 of 4 tasks did not pass verification \(T2: /)
    // No executor ran, nothing was committed.
    expect(await runLog()).toEqual([])
    expect(await git('symbolic-ref', '--short', 'HEAD')).toBe('main')

    // Fixed by hand: verify starts afresh (nothing carried over) and passes.
    await writeFile(join(repo, FILES.T2), 'ok\n')
    const again = ok(await verifyIssue(store, N, options))
    expect(again.record.status).toBe('completed')
    expect([...again.ran].sort()).toEqual(['T1', 'T2', 'T3', 'T4'])
    expect((await state()).issue!.status).toBe('completed')
  })
})

describe('mergeLoop', () => {
  it('keeps the entries of tasks that ran side by side', async () => {
    await planAndApprove()
    ok(await executeIssue(store, N, executeOptions({}, { maxParallel: 2 })))
    const { loop } = await state()
    // Merging a stale copy that knows only T1 keeps every other task's entry.
    const stale = structuredClone(loop!)
    stale.skill_state!.develop.tasks = stale.skill_state!.develop.tasks.filter((t) => t.id === 'T1')
    const merged = mergeLoop(loop, stale, 'T1')
    expect(merged.skill_state!.develop.tasks.map((t) => t.id).sort()).toEqual(['T1', 'T2', 'T3', 'T4'])
    expect(merged.skill_state!.develop).toMatchObject({ total: 4, completed: 4 })
  })
})

async function waitFor(path: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (existsSync(path)) return
    await delay(20)
  }
  throw new Error(`${path} did not appear in 10 s`)
}
