/**
 * Beyond one runner (SPEC §11), through dist/index.js as runners run it, against the API emulator (REST,
 * GraphQL and git over HTTP): `matrix` emits the ready tasks, one `execute-task` process per task runs at the
 * same time as the others (each in its own checkout, as matrix jobs would), and `report` publishes the result.
 * The executor is a real process that writes each declared file; verification runs tools/check.js.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ExecutionRecordSchema, IssueStateSchema } from '../../src/model/index.js'
import { runGit } from '../../src/git/git.js'
import { answerPlan, answerTask, issueBodyWithPlan, startAnswerRepo } from '../support/answer-plans.js'
import type { Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent, workflowDispatchEvent } from '../support/events.js'
import { disposeRuns, runAction, type ActionRun } from '../support/runner.js'
import { auditAfterEach } from '../support/state-audit.js'

const STATE = 'converge/state'
const N = 7
const WORK = `converge/issue-${N}`

/**
 * Writes `42` to each declared file (`41` for tasks in NEVER_TASKS); logs each run in RUN_LOG. With BARRIER_DIR,
 * it first waits until BARRIER_COUNT executors have started: every job has fetched the work branch before any
 * of them pushes, so their pushes race for sure.
 */
const EXECUTOR = `
const fs = require('node:fs')
const path = require('node:path')
const task = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))
const never = (process.env.NEVER_TASKS || '').split(',').includes(task.id)
const write = () => {
  for (const file of task.files) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true })
    fs.writeFileSync(file.path, never ? '41\\n' : '42\\n')
  }
  fs.appendFileSync(process.env.RUN_LOG, task.id + '\\n')
}
const barrier = process.env.BARRIER_DIR
if (!barrier) write()
else {
  fs.mkdirSync(barrier, { recursive: true })
  fs.writeFileSync(path.join(barrier, task.id), '')
  const until = Date.now() + 15000
  const timer = setInterval(() => {
    if (fs.readdirSync(barrier).length >= Number(process.env.BARRIER_COUNT) || Date.now() > until) { clearInterval(timer); write() }
  }, 20)
}
`
/** Three independent tasks, then T4 after T1 and T2. */
const PLAN = answerPlan([answerTask('T1', 'src/a.txt'), answerTask('T2', 'src/b.txt'), answerTask('T3', 'src/c.txt'), answerTask('T4', 'src/d.txt', ['T1', 'T2'])])

describe('scale-out: matrix, concurrent execute-task jobs, report (dist/index.js against the API emulator)', () => {
  let gh: Emulator
  let runLog: string
  beforeEach(async () => {
    gh = await startAnswerRepo(EXECUTOR)
    gh.seed.issue({ number: N, title: 'Write the answers', labels: ['converge:plan'], body: issueBodyWithPlan(PLAN) })
    runLog = `${gh.repoDir}.runs.log`
  })
  afterEach(async () => {
    await disposeRuns()
    try { gh.expectNoViolations() } finally { await gh.close() }
  })
  auditAfterEach('scale-out', () => gh)

  /** A workflow step of the scale-out workflow: `command` for `issue` (workflow_dispatch, as examples/workflows/scale-out.yml runs it). */
  /** `issue` null: no issue-number (the whole repository). */
  const step = (command: string, issue: number | null = N, options: { env?: Record<string, string>; inputs?: Record<string, string> } = {}) =>
    runAction({
      gh,
      event: workflowDispatchEvent({ gh, sender: 'alice', inputs: issue === null ? {} : { 'issue-number': String(issue) } }),
      inputs: {
        command, ...(issue === null ? {} : { 'issue-number': String(issue) }),
        'executor-command': 'node tools/executor.js', 'max-iterations': '2', ...options.inputs,
      },
      env: { GITHUB_SERVER_URL: gh.url, RUN_LOG: runLog, ...options.env },
    })
  const planAndApprove = async () => {
    await runAction({ gh, event: issueLabeledEvent({ gh, issue: N, label: 'converge:plan', sender: 'alice' }) })
    const approved = await runAction({ gh, event: issueCommentEvent({ gh, issue: N, body: '/converge approve', sender: 'alice' }) })
    expect(approved.outputs['quality-gate']).toBe('pass')
  }
  const matrixOf = (run: ActionRun) => JSON.parse(run.outputs.matrix!) as { include: Array<{ issue: number; task: string }> }
  /** The matrix jobs of one round, all at once. */
  let round = 0
  const executeAll = (run: ActionRun, env: Record<string, string> = {}) => {
    const { include } = matrixOf(run)
    const barrier = { BARRIER_DIR: `${gh.repoDir}.barrier-${++round}`, BARRIER_COUNT: String(include.length) }
    return Promise.all(include.map((entry) => step(`execute-task ${entry.task}`, entry.issue, { env: { ...barrier, ...env } })))
  }
  /** Push attempts: git asks for the refs first, and gives up there on a push that is not a fast-forward. */
  const pushes = () => gh.requests.filter((r) => r.operationId === 'git/info-refs' && r.query.service === 'git-receive-pack').length
  const record = async () => ExecutionRecordSchema.parse(JSON.parse((await gh.state.readFile(STATE, `.converge/issues/${N}/execution.json`))!))
  const issueState = async () => IssueStateSchema.parse(JSON.parse((await gh.state.readFile(STATE, `.converge/issues/${N}/issue.json`))!))
  const statuses = async () => Object.fromEntries(Object.entries((await record()).tasks).map(([id, r]) => [id, r.status]))
  const sticky = () => gh.state.comments(N).find((c) => c.body.startsWith(`<!-- converge:ISS-${N} -->`))!.body
  const workCommits = async () => {
    const { stdout } = await runGit(['log', '--format=%s', `main..${WORK}`], { cwd: gh.repoDir })
    return stdout.trim().split('\n').filter(Boolean).reverse()
  }
  const checkOf = (run: ActionRun) => gh.state.checkRuns().find((c) => c.id === Number(run.outputs['check-run-id']))!
  const runs = async () => {
    const { readFile } = await import('node:fs/promises')
    return (await readFile(runLog, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean)
  }

  it('runs three tasks in concurrent matrix jobs, reports, then a second round for the dependent task', async () => {
    await planAndApprove()

    // Round 1: the three independent tasks.
    const plan = await step('matrix')
    expect(plan.exitCode).toBe(0)
    expect(plan.outputs.matrix).toBe(`{"include":[{"issue":${N},"task":"T1"},{"issue":${N},"task":"T2"},{"issue":${N},"task":"T3"}]}`)
    expect(plan.outputs).toMatchObject({ status: 'planned', 'issue-id': `ISS-${N}`, 'tasks-total': '4' })
    expect(plan.summary).toContain('3 tasks ready')
    expect(plan.summary).toContain('waiting for dependencies: T4')

    const commentsBefore = gh.state.comments(N).length
    const checksBefore = gh.state.checkRuns().length
    const jobs = await executeAll(plan)
    for (const job of jobs) {
      expect(job.exitCode, job.stderr).toBe(0)
      expect(job.errors).toEqual([])
      expect(job.outputs.status).toBe('completed')
      expect(job.summary).toMatch(/ISS-7 · T\d: Write src\/.\.txt — converged \(commit `[0-9a-f]{7}`\)/)
    }
    // The matrix jobs publish nothing but their job summaries.
    expect(gh.state.comments(N)).toHaveLength(commentsBefore)
    expect(gh.state.checkRuns()).toHaveLength(checksBefore)
    expect(gh.state.pulls()).toEqual([])

    // All three had fetched the branch before the first push: the two later ones were rejected, rebased and pushed again.
    expect(pushes()).toBeGreaterThanOrEqual(5)
    // Every result recorded, every commit on the work branch: none lost to the concurrent writes and pushes.
    expect(await statuses()).toEqual({ T1: 'completed', T2: 'completed', T3: 'completed' })
    const commits = await workCommits()
    expect(new Set(commits)).toEqual(new Set(['T1: Write src/a.txt (ISS-7)', 'T2: Write src/b.txt (ISS-7)', 'T3: Write src/c.txt (ISS-7)']))
    const rec = await record()
    for (const [id, result] of Object.entries(rec.tasks)) {
      const { stdout } = await runGit(['show', '--name-only', '--format=', result.commit_hash!], { cwd: gh.repoDir })
      expect(stdout.trim(), id).toBe(result.files_modified.join('\n'))
    }

    const first = await step('report')
    expect(first.exitCode).toBe(0)
    expect(first.outputs).toMatchObject({ status: 'executing', 'tasks-total': '4', 'tasks-completed': '3', 'tasks-failed': '0' })
    expect(sticky()).toContain('1 task ready: run the matrix again')
    expect(checkOf(first)).toMatchObject({ name: `converge / ISS-${N}`, status: 'completed', conclusion: 'neutral' })
    const pull = gh.state.pulls().find((p) => p.pull!.headRef === WORK)!
    expect(pull).toMatchObject({ title: `Converge ISS-${N}: Write the answers`, state: 'open' })
    expect(pull.pull!.draft).toBe(true)
    expect(pull.body).toContain(`Closes #${N}`)
    expect(first.outputs['pull-request-number']).toBe(String(pull.number))

    // Round 2: T4, whose dependencies converged in round 1, starts from the work branch.
    const second = await step('matrix')
    expect(matrixOf(second).include).toEqual([{ issue: N, task: 'T4' }])
    expect(second.outputs.status).toBe('executing')
    const [t4] = await executeAll(second)
    expect(t4!.outputs.status).toBe('completed')
    expect(await workCommits()).toEqual([...commits, 'T4: Write src/d.txt (ISS-7)'])

    const final = await step('report')
    expect(final.outputs).toMatchObject({ status: 'completed', 'tasks-completed': '4', 'pull-request-number': String(pull.number), 'comment-id': first.outputs['comment-id'] })
    expect(checkOf(final)).toMatchObject({ status: 'completed', conclusion: 'success', output: expect.objectContaining({ title: '4/4 tasks converged · 4 criteria wait for a person' }) })
    // The pull request's head has the verdict too.
    const { stdout: head } = await runGit(['rev-parse', WORK], { cwd: gh.repoDir })
    expect(gh.state.checkRuns().filter((c) => c.headSha === head.trim()).at(-1)).toMatchObject({ conclusion: 'success' })
    expect(sticky()).toContain('4/4 tasks converged')
    expect(sticky()).not.toContain(gh.token)
    const updated = gh.state.pulls().find((p) => p.number === pull.number)!
    expect(updated.body).toContain('| T4 | Write src/d.txt | ✅ converged |')
    expect(await issueState()).toMatchObject({ status: 'completed', error: null })
    expect((await record()).status).toBe('completed')
    expect(final.summary).toContain('4/4 tasks converged')

    // Nothing is left: an empty matrix that says why, and nothing ran twice.
    const done = await step('matrix')
    expect(done.outputs.matrix).toBe('{"include":[]}')
    expect(done.summary).toContain('every task converged: run `report`')
    expect((await runs()).sort()).toEqual(['T1', 'T2', 'T3', 'T4'])
  }, 120_000)

  it('refuses what may not run: an unapproved plan (empty matrix), a task whose dependencies have not converged', async () => {
    await runAction({ gh, event: issueLabeledEvent({ gh, issue: N, label: 'converge:plan', sender: 'alice' }) })
    const unapproved = await step('matrix')
    expect(unapproved.outputs).toMatchObject({ status: 'refused', matrix: '{"include":[]}' })
    expect(unapproved.summary).toContain('is not approved')
    expect(gh.state.comments(N).at(-1)!.body).toContain('is not approved')

    // auto-approve approves a plan that passes its gate.
    const approved = await step('matrix', N, { inputs: { 'auto-approve': 'true' } })
    expect(matrixOf(approved).include.map((e) => e.task)).toEqual(['T1', 'T2', 'T3'])

    // Without an issue: the ready tasks of every planned issue of the run state; nothing executed yet to report.
    const repository = await step('matrix', null)
    expect(repository.exitCode).toBe(0)
    expect(repository.outputs).toMatchObject({ status: 'queued', 'issue-id': '' })
    expect(matrixOf(repository).include).toEqual(['T1', 'T2', 'T3'].map((t) => ({ issue: N, task: t })))
    expect((await step('report', null)).outputs.status).toBe('no-issue')

    const comments = gh.state.comments(N).length
    // The job of a workflow that auto-approves auto-approves too: an auto-approve recorded on the state branch is
    // honoured only by a run that would have given it (a push to the branch cannot forge one).
    const early = await step('execute-task T4', N, { inputs: { 'auto-approve': 'true' } })
    expect(early.exitCode).toBe(0)
    expect(early.outputs.status).toBe('refused')
    expect(early.warnings.join('\n')).toContain('T4 depends on T1, T2, which have not converged')
    expect(gh.state.comments(N)).toHaveLength(comments) // a matrix job answers on no issue
    expect(await runs()).toEqual([])
  })

  it('records a failed task; the report skips its dependents and fails the check run', async () => {
    await planAndApprove()
    const plan = await step('matrix')
    const jobs = await executeAll(plan, { NEVER_TASKS: 'T1' })
    expect(jobs.map((j) => j.outputs.status)).toEqual(['failed', 'completed', 'completed'])
    expect(jobs[0]!.warnings.join('\n')).toContain('T1 failed')

    const report = await step('report')
    expect(report.outputs).toMatchObject({ status: 'failed', 'tasks-completed': '2', 'tasks-failed': '1' })
    expect(await statuses()).toEqual({ T1: 'failed', T2: 'completed', T3: 'completed', T4: 'skipped' })
    expect(checkOf(report)).toMatchObject({ conclusion: 'failure' })
    expect(checkOf(report).annotations).toContainEqual(expect.objectContaining({ path: 'src/a.txt', annotation_level: 'failure' }))
    expect(sticky()).toContain('T4')
    expect(await workCommits()).toHaveLength(2)

    const next = await step('matrix')
    expect(next.outputs.matrix).toBe('{"include":[]}')
    expect(next.summary).toContain('failed: T1')
  }, 90_000)
})
