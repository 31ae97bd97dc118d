/**
 * Beyond one runner (SPEC §11), the pipeline side: which tasks are ready to run as matrix jobs (`matrix`),
 * one task carried out in a matrix job (`execute-task`), and the issue's status once the jobs are done
 * (`report`).
 *
 * The state branch is the only thing the jobs share. Every job records its own task result with `transact`
 * (a compare-and-swap commit, re-applied when another job got there first), so N jobs finishing at once
 * lose nothing; the execution record is created by whichever job starts first and kept by the others.
 *
 * Readiness (pure): a task is ready when it has no result for the current plan (a `skipped` result is
 * decided afresh), every dependency is recorded `completed`, and it shares no file with a task taken before
 * it (greedy in plan order: the rest waits for the next round). Dependents of a failed task are blocked (the
 * report records them as skipped); failed tasks run again only when asked for by name (`execute-task T2`,
 * or `retry`). With `on-failure: abort`, or once `max-errors` tasks failed, nothing new is ready.
 */
import { executionOfPlan, ExecutionRecordSchema, IssueStateSchema, RunStateSchema, SolutionSchema, wasStopped, type ExecutionRecord, type IssueState, type Solution, type Task, type TaskResult } from '../model/index.js'
import { analyseDag, normalisePath } from '../plan/dag.js'
import { planHash } from '../plan/hash.js'
import { renderExecutionMarkdown } from '../report/execution-md.js'
import { code, inline } from '../report/markdown.js'
import { renderTaskEvent } from '../report/task-event.js'
import { statePaths, toStateJson } from '../state/layout.js'
import { readStateJson } from '../state/state-files.js'
import { transact, type StateSnapshot, type StateStore } from '../state/store.js'
import { recordIssue, withFeedback } from '../state/transitions.js'
import { approveIfPassing } from './approve.js'
import { simpleEvent } from './events.js'
import { appendEvent, issueFilePaths, readIssueFiles } from './issue-files.js'
import { endedLoop, skippedResult } from './run-finish.js'
import { recordLoop, recordTask } from './run-record.js'
import { controlSignals } from './run-schedule.js'
import { gateRefusal } from './run-start.js'
import { convergeAndCommit, earlierBaseline, type TaskRunOptions } from './run-task.js'

/** GitHub runs at most 256 jobs per matrix. */
export const MATRIX_MAX_JOBS = 256
/** GitHub keeps at most 1 MB of outputs per job: the matrix gets all of it but a margin for the other outputs. */
export const MATRIX_MAX_BYTES = 1_000_000 - 16_384

export const EMPTY_MATRIX = '{"include":[]}'

export interface MatrixEntry {
  issue: number
  task: string
}

/** What stops new tasks after failures (the `on-failure` and `max-errors` inputs, as `execute` reads them). */
export interface FailurePolicy {
  onFailure?: 'retry' | 'skip' | 'abort'
  maxErrors?: number
}

export interface Readiness {
  /** Ready to run now, conflict-free on files, in plan order. */
  ready: Task[]
  /** Ready by their dependencies, but sharing a file with a task in `ready`: the next round. */
  deferred: Array<{ task: Task; conflictsWith: string; path: string }>
  /** Waiting for dependencies that have not completed yet (none of them failed). */
  waiting: Task[]
  /** Depending, directly or not, on a failed task: skipped. `failed` is that task. */
  blocked: Array<{ task: Task; failed: string }>
  completed: Task[]
  failed: Task[]
  /** Could run, but the run halted (`halted` says why). */
  held: Task[]
  /** Why nothing new starts although tasks remain: on-failure abort, or max-errors reached. */
  halted: string | null
}

/** The execution record when it belongs to the plan as it is now (same hash, an `execute` run). */
export function currentRecord(plan: Solution, execution: ExecutionRecord | undefined): ExecutionRecord | undefined {
  return executionOfPlan(execution, planHash(plan))
}

/** Which tasks of `plan` can run now, given the results in `record` (see the header). Pure. */
export function readiness(plan: Solution, record: ExecutionRecord | undefined, policy: FailurePolicy = {}): Readiness {
  const results = record?.tasks ?? {}
  const byId = new Map(plan.tasks.map((t) => [t.id, t]))
  const order = analyseDag(plan.tasks).order
  const out: Readiness = { ready: [], deferred: [], waiting: [], blocked: [], completed: [], failed: [], held: [], halted: null }
  /** Per task not completed: the failed task it waits on for good, if any. */
  const blockedBy = new Map<string, string>()
  const candidates = new Set<string>()
  const state = new Map<string, 'completed' | 'failed' | 'other'>()
  for (const id of order) {
    const task = byId.get(id)!
    const status = results[id]?.status
    if (status === 'completed' || status === 'failed') {
      state.set(id, status)
      continue
    }
    state.set(id, 'other')
    const root = task.depends_on.map((d) => (state.get(d) === 'failed' ? d : blockedBy.get(d))).find((r) => r !== undefined)
    if (root !== undefined) blockedBy.set(id, root)
    else if (task.depends_on.every((d) => state.get(d) === 'completed')) candidates.add(id)
  }

  const failures = plan.tasks.filter((t) => state.get(t.id) === 'failed')
  if (failures.length && policy.onFailure === 'abort') out.halted = `${failures[0]!.id} failed and on-failure is abort`
  else if (policy.maxErrors !== undefined && failures.length >= policy.maxErrors)
    out.halted = `${failures.length} task${failures.length === 1 ? '' : 's'} failed (max-errors ${policy.maxErrors})`

  const taken: Array<{ id: string; paths: string[] }> = []
  for (const task of plan.tasks) {
    const id = task.id
    if (state.get(id) === 'completed') out.completed.push(task)
    else if (state.get(id) === 'failed') out.failed.push(task)
    else if (blockedBy.has(id)) out.blocked.push({ task, failed: blockedBy.get(id)! })
    else if (!candidates.has(id)) out.waiting.push(task)
    else if (out.halted) out.held.push(task)
    else {
      const paths = task.files.map((f) => normalisePath(f.path))
      const clash = taken.flatMap((t) => {
        const path = paths.find((p) => t.paths.some((q) => overlaps(p, q)))
        return path === undefined ? [] : [{ id: t.id, path }]
      })[0]
      if (clash) out.deferred.push({ task, conflictsWith: clash.id, path: clash.path })
      else {
        out.ready.push(task)
        taken.push({ id, paths })
      }
    }
  }
  return out
}

/** The same file, or one inside the other (a declared directory). */
function overlaps(a: string, b: string): boolean {
  const dir = (p: string) => (p.endsWith('/') ? p : `${p}/`)
  return a === b || a.startsWith(dir(b)) || b.startsWith(dir(a))
}

export interface BuiltMatrix {
  include: MatrixEntry[]
  /** `{"include":[…]}`, compact: the `matrix` output. */
  json: string
  /** Ready, but over GitHub's limits: the next round. */
  leftover: MatrixEntry[]
  limitedBy: 'jobs' | 'bytes' | null
  /** The limits applied. */
  maxJobs: number
  maxBytes: number
}

/**
 * The matrix of the ready tasks, issue after issue, in order, within GitHub's limits (`maxJobs` jobs,
 * `maxBytes` bytes of JSON); what does not fit is left for the next round.
 */
export function buildMatrix(
  sets: ReadonlyArray<{ issue: number; tasks: readonly string[] }>,
  limits: { maxJobs?: number; maxBytes?: number } = {},
): BuiltMatrix {
  const maxJobs = limits.maxJobs ?? MATRIX_MAX_JOBS
  const maxBytes = limits.maxBytes ?? MATRIX_MAX_BYTES
  const include: MatrixEntry[] = []
  const leftover: MatrixEntry[] = []
  let limitedBy: BuiltMatrix['limitedBy'] = null
  let bytes = Buffer.byteLength(EMPTY_MATRIX)
  for (const { issue, tasks } of sets) {
    for (const task of tasks) {
      const entry = { issue, task }
      const size = Buffer.byteLength(JSON.stringify(entry)) + (include.length ? 1 : 0)
      if (limitedBy === null && include.length >= maxJobs) limitedBy = 'jobs'
      if (limitedBy === null && bytes + size > maxBytes) limitedBy = 'bytes'
      if (limitedBy !== null) {
        leftover.push(entry)
        continue
      }
      include.push(entry)
      bytes += size
    }
  }
  return { include, json: JSON.stringify({ include }), leftover, limitedBy, maxJobs, maxBytes }
}

// ---------------------------------------------------------------------------------------------------------
// matrix

export interface IssueMatrix {
  n: number
  title: string
  /** Why the issue's tasks may not run (the gate); the other fields are then absent. */
  refused?: string
  plan?: Solution
  issue?: IssueState
  record?: ExecutionRecord
  readiness?: Readiness
  /** Approved by this command (auto-approve). */
  approved?: boolean
}

export interface MatrixOptions extends FailurePolicy {
  now: string
  maxJobs?: number
  maxBytes?: number
  /** `auto-approve`: approves, as this actor, a plan that passes its gate and is not approved yet. */
  autoApproveAs?: string
}

export interface MatrixPlan extends BuiltMatrix {
  issues: IssueMatrix[]
  /** Markdown for the job summary: what is in the matrix, what waits, and why. */
  summary: string
}

/** Issue statuses the repository-wide matrix looks at: the others have nothing to run or are paused. */
const RUNNABLE = new Set(['planned', 'queued', 'executing'])
/** Issues read per snapshot (each one query of 4 files an issue). */
const ISSUES_PER_SNAPSHOT = 25

/**
 * `matrix`: the ready tasks of one issue, or of every issue of the run state that is planned, queued or
 * executing (in issue-number order, one conflict-free set per issue), capped to GitHub's limits.
 */
export async function planMatrix(store: StateStore, scope: { issue: number } | 'repository', options: MatrixOptions): Promise<MatrixPlan> {
  let numbers: number[]
  if (scope === 'repository') {
    numbers = await issuesInRunState(store, (status) => RUNNABLE.has(status))
  } else numbers = [scope.issue]

  const issues: IssueMatrix[] = []
  for (let i = 0; i < numbers.length; i += ISSUES_PER_SNAPSHOT) {
    const chunk = numbers.slice(i, i + ISSUES_PER_SNAPSHOT)
    const snapshot = await store.snapshot(chunk.flatMap((n) => [statePaths.issue(n), statePaths.plan(n), statePaths.execution(n)]))
    for (const n of chunk) issues.push(await issueMatrix(store, snapshot, n, options))
  }
  const built = buildMatrix(
    issues.flatMap((i) => (i.readiness ? [{ issue: i.n, tasks: i.readiness.ready.map((t) => t.id) }] : [])),
    { ...(options.maxJobs !== undefined ? { maxJobs: options.maxJobs } : {}), ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}) },
  )
  return { ...built, issues, summary: renderMatrixSummary(issues, built, scope === 'repository') }
}

async function issueMatrix(store: StateStore, snapshot: StateSnapshot, n: number, options: MatrixOptions): Promise<IssueMatrix> {
  const issue = await readStateJson(snapshot, statePaths.issue(n), IssueStateSchema)
  let plan = await readStateJson(snapshot, statePaths.plan(n), SolutionSchema)
  const execution = await readStateJson(snapshot, statePaths.execution(n), ExecutionRecordSchema)
  let approved = false
  if (options.autoApproveAs && issue && plan) ({ plan, approvedNow: approved } = await approveIfPassing(store, n, plan, options.autoApproveAs, options.now))
  const title = issue?.title ?? `#${n}`
  const refused = gateRefusal(n, issue, plan)
  if (refused !== null || !plan || !issue) return { n, title, refused: refused ?? `ISS-${n} has no plan yet` }
  const record = currentRecord(plan, execution)
  return { n, title, plan, issue, ...(record ? { record } : {}), readiness: readiness(plan, record, options), ...(approved ? { approved } : {}) }
}

const ids = (tasks: ReadonlyArray<{ id: string }>) => tasks.map((t) => t.id).join(', ')
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** The job summary of `matrix`. */
export function renderMatrixSummary(issues: readonly IssueMatrix[], built: BuiltMatrix, repository: boolean): string {
  const lines: string[] = []
  const count = built.include.length
  lines.push(count ? `### Converge matrix: ${plural(count, 'task')} ready` : '### Converge matrix: nothing is ready', '')
  if (repository && issues.length === 0) lines.push('No issue of the run state is planned, queued or executing: nothing to run.', '')
  for (const entry of issues) {
    const heading = `**ISS-${entry.n}** — ${inline(entry.title)}`
    if (entry.refused) {
      lines.push(`- ${heading}: not run: ${entry.refused}.`)
      continue
    }
    const r = entry.readiness!
    const total = entry.plan!.tasks.length
    const parts: string[] = [`${r.completed.length}/${total} converged`]
    const inMatrix = built.include.filter((e) => e.issue === entry.n).map((e) => e.task)
    const left = built.leftover.filter((e) => e.issue === entry.n).map((e) => e.task)
    if (inMatrix.length) parts.push(`in the matrix: ${inMatrix.join(', ')}`)
    if (left.length) parts.push(`ready, left for the next round (over GitHub's limit): ${left.join(', ')}`)
    if (r.deferred.length) parts.push(`next round (shares a file with a task in this one): ${r.deferred.map((d) => `${d.task.id} (${code(d.path)} with ${d.conflictsWith})`).join(', ')}`)
    if (r.waiting.length) parts.push(`waiting for dependencies: ${ids(r.waiting)}`)
    if (r.failed.length) parts.push(`failed: ${ids(r.failed)} (\`retry\` or \`execute-task <id>\` runs them again)`)
    if (r.blocked.length) parts.push(`blocked by a failed task: ${r.blocked.map((b) => `${b.task.id} (by ${b.failed})`).join(', ')}`)
    if (r.halted) parts.push(`halted: ${r.halted}${r.held.length ? `; not started: ${ids(r.held)}` : ''}`)
    if (!inMatrix.length && !left.length) parts.push(nothingReady(r, total))
    lines.push(`- ${heading}${entry.approved ? ' (approved now: auto-approve)' : ''}: ${parts.join('; ')}.`)
  }
  if (built.limitedBy) {
    const limit = built.limitedBy === 'jobs'
      ? `at most ${built.maxJobs} jobs per matrix${built.maxJobs === MATRIX_MAX_JOBS ? ', as GitHub allows' : ''}`
      : `at most ${built.maxBytes.toLocaleString('en-US')} bytes of matrix (GitHub keeps 1 MB of outputs per job)`
    lines.push('', `${plural(built.leftover.length, 'ready task')} did not fit (${limit}): run \`matrix\` again after this round.`)
  }
  return `${lines.join('\n')}\n`
}

/** Why an issue has nothing in the matrix, and what to do next. */
function nothingReady(r: Readiness, total: number): string {
  if (r.completed.length === total) return 'every task converged: run `report` to publish the result'
  if (r.halted) return 'nothing more runs: run `report`, then `retry` the failed tasks'
  if (r.failed.length) return 'nothing else can run until the failed tasks converge: run `report`, then `retry` them'
  return 'nothing is ready'
}

// ---------------------------------------------------------------------------------------------------------
// execute-task

/** What `execute` needs to carry out one task (the checkout: the work branch, once `beforeTask` prepared it). */
export interface ExecuteTaskOptions extends TaskRunOptions {
  signal?: AbortSignal
  controlIntervalMs?: number
  /** Runs once the task is recorded as started, before it runs (checking out the work branch). */
  beforeTask?: () => Promise<void>
}

export type ExecuteTaskResult =
  | {
      ok: true
      plan: Solution
      issue: IssueState
      task: Task
      /** The task's result: this run's, or the earlier one when it had converged already (`ran` false). */
      result: TaskResult | undefined
      /** Whether the task ran in this job. */
      ran: boolean
      /** A pause or stop interrupted the task: no result is recorded. */
      interrupted?: 'paused' | 'stopped'
      /** The execution record after this task (other jobs' results included). */
      record: ExecutionRecord
    }
  | { ok: false; reason: string; plan?: Solution; issue?: IssueState; task?: Task; started: boolean }

/**
 * `execute-task <id>`: one task of the approved plan, in a matrix job. Refuses a task that is not in the plan
 * or whose dependencies have not all converged; a task that converged already is not run again.
 */
export async function executeTask(store: StateStore, n: number, taskId: string, options: ExecuteTaskOptions): Promise<ExecuteTaskResult> {
  const started = await startTask(store, n, taskId, options.now())
  if (!started.ok) return { ...started, started: false }
  const { plan, task } = started
  let { issue } = started
  if (started.done) return { ok: true, plan, issue, task, result: started.done, ran: false, record: started.record }

  if (options.beforeTask) {
    try {
      await options.beforeTask()
    } catch (error) {
      return { ok: false, reason: `${task.id} could not start: ${(error as Error).message}`, plan, issue, task, started: true }
    }
  }

  const signal = options.signal ?? new AbortController().signal
  const run = await convergeAndCommit(task, {
    n, issueTitle: issue.title, plan, options, signal,
    control: controlSignals(store, n, options.controlIntervalMs ?? 3_000),
    // Each matrix job has a checkout of its own: no other task runs in it.
    othersRunning: () => [],
    ...earlierBaseline(started.record.tasks[task.id]),
  })
  if (run.kind === 'cancelled') return { ok: false, reason: `${task.id} was cancelled: nothing is recorded, it stays ready`, plan, issue, task, started: true }
  if (run.kind === 'interrupted') {
    await recordLoop(store, n, task.id, run.loop)
    const record = await readRecord(store, n, plan)
    return { ok: true, plan, issue, task, result: undefined, ran: true, interrupted: run.status, record: record ?? started.record }
  }
  const { result } = run
  await recordTask(store, n, 'execute', plan, task, result, run.loop, options)
  const record = await readRecord(store, n, plan)
  issue = { ...issue, status: 'executing' }
  return { ok: true, plan, issue, task, result, ran: true, record: record ?? { ...started.record, tasks: { ...started.record.tasks, [task.id]: result } } }
}

type StartedTask =
  | { ok: true; plan: Solution; issue: IssueState; task: Task; record: ExecutionRecord; done?: TaskResult }
  | { ok: false; reason: string; plan?: Solution; issue?: IssueState; task?: Task }

/**
 * Checks the gate and the task's dependencies, and records that the task started: the execution record of
 * the plan is created unless one exists (jobs starting together keep the first one's), the issue is
 * `executing`, and events.md says which task started.
 */
async function startTask(store: StateStore, n: number, taskId: string, now: string): Promise<StartedTask> {
  let started: StartedTask = { ok: false, reason: '' }
  await transact(
    store,
    async (snapshot) => {
      const { run, issue, plan, execution, events } = await readIssueFiles(snapshot, n, now)
      const refusal = gateRefusal(n, issue, plan)
      if (refusal !== null || !issue || !plan) {
        started = { ok: false, reason: refusal ?? `ISS-${n} has no plan yet` }
        return null
      }
      const task = plan.tasks.find((t) => t.id === taskId)
      if (!task) {
        started = { ok: false, reason: `${taskId} is not a task of ${plan.id} (tasks: ${ids(plan.tasks)})`, plan, issue }
        return null
      }
      const previous = currentRecord(plan, execution)
      const done = previous?.tasks[task.id]
      if (done?.status === 'completed') {
        started = { ok: true, plan, issue, task, record: previous!, done }
        return null
      }
      const missing = task.depends_on.filter((d) => previous?.tasks[d]?.status !== 'completed')
      if (missing.length) {
        const says = missing.map((d) => `${d} ${previous?.tasks[d] ? `is ${previous.tasks[d]!.status}` : 'has not run yet'}`).join(', ')
        started = { ok: false, reason: `${task.id} depends on ${ids(missing.map((id) => ({ id })))}, which ${missing.length === 1 ? 'has' : 'have'} not converged (${says}): run \`matrix\` for the tasks that are ready`, plan, issue, task }
        return null
      }
      const record: ExecutionRecord = previous
        ? { ...previous, status: 'running', executed_at: null }
        : { solution_id: plan.id, issue_id: `ISS-${n}`, plan_hash: planHash(plan), mode: 'execute', status: 'running', started_at: now, executed_at: null, tasks: {} }
      const executing: IssueState = issue.status === 'executing' ? issue : { ...issue, status: 'executing', error: null, updated_at: now }
      started = { ok: true, plan, issue: executing, task, record }
      return {
        message: `ISS-${n}: ${task.id} started (matrix job)${previous ? '' : `, execution of ${plan.id} started`}`,
        files: {
          [statePaths.issue(n)]: toStateJson(executing),
          [statePaths.execution(n)]: toStateJson(record),
          [statePaths.runState]: toStateJson(recordIssue(run, executing, now, { phase: 'executing', ...(previous ? {} : { note: `execution of ${plan.id} (matrix)` }) })),
          [statePaths.events(n)]: appendEvent(events, n, renderTaskEvent(task, undefined, now)),
        },
      }
    },
    { prefetch: issueFilePaths(n) },
  )
  return started
}

async function readRecord(store: StateStore, n: number, plan: Solution): Promise<ExecutionRecord | undefined> {
  const snapshot = await store.snapshot([statePaths.execution(n)])
  return currentRecord(plan, await readStateJson(snapshot, statePaths.execution(n), ExecutionRecordSchema))
}

/** The numbers of the run state's issues whose status passes `filter`, in ascending order. */
async function issuesInRunState(store: StateStore, filter: (status: IssueState['status']) => boolean): Promise<number[]> {
  const run = await readStateJson(await store.snapshot([statePaths.runState]), statePaths.runState, RunStateSchema)
  return Object.values(run?.issues ?? {}).filter((i) => filter(i.status)).map((i) => i.number).sort((a, b) => a - b)
}

// ---------------------------------------------------------------------------------------------------------
// report

export interface ReportOptions extends FailurePolicy {
  now: string
  secrets: readonly string[]
}

export type ReportResult =
  | {
      ok: true
      issue: IssueState
      plan: Solution
      /** Absent when nothing of the current plan was executed yet. */
      record?: ExecutionRecord
      readiness: Readiness
      headline: string
      /** Whether the state branch changed. */
      changed: boolean
    }
  | { ok: false; reason: string }

/**
 * `report`: the issue's status from the recorded results — `completed` when every task converged, `failed`
 * when a task failed and nothing can run any more, `executing` while tasks are ready (the matrix runs
 * again) — with the dependents of failed tasks recorded as skipped, and execution.md / events.md written.
 * A paused or stopped issue keeps its status. Writes nothing when nothing changed.
 */
export async function reportIssue(store: StateStore, n: number, options: ReportOptions): Promise<ReportResult> {
  const { now } = options
  let out: ReportResult = { ok: false, reason: '' }
  const { commit } = await transact(
    store,
    async (snapshot) => {
      const { run, issue, plan, execution, events, loop } = await readIssueFiles(snapshot, n, now)
      if (!issue) {
        out = { ok: false, reason: `ISS-${n} is not known to Converge yet: run \`plan\` first` }
        return null
      }
      if (!plan) {
        out = { ok: false, reason: `ISS-${n} has no plan yet: run \`plan\` first` }
        return null
      }
      const previous = currentRecord(plan, execution)
      if (!previous) {
        const r = readiness(plan, undefined, options)
        const refusal = gateRefusal(n, issue, plan)
        out = { ok: true, issue, plan, readiness: r, changed: false, headline: refusal ? `Not executed: ${refusal}.` : `Not executed yet: ${plural(r.ready.length, 'task')} ready: run the matrix.` }
        return null
      }

      // Dependents of failed tasks are skipped; a skip whose reason is gone (the failed task was retried) is dropped.
      const before = readiness(plan, previous, options)
      const tasks: Record<string, TaskResult> = {}
      for (const [id, result] of Object.entries(previous.tasks)) if (result.status !== 'skipped' || before.blocked.some((b) => b.task.id === id)) tasks[id] = result
      for (const { task, failed } of before.blocked) tasks[task.id] ??= skippedResult(task.id, `depends on ${failed}, which failed`)
      const r = readiness(plan, { ...previous, tasks }, options)

      const total = plan.tasks.length
      const converged = r.completed.length
      const stopped = wasStopped(issue)
      let status: ExecutionRecord['status']
      let next: IssueState
      let headline: string
      if (issue.status === 'paused' || stopped) {
        status = issue.status === 'paused' ? 'paused' : 'stopped'
        next = issue
        headline = `${issue.status === 'paused' ? 'Paused' : 'Stopped'} (${converged}/${total} tasks converged): \`resume\` continues.`
      } else if (converged === total) {
        status = 'completed'
        next = issue.status === 'completed' && issue.error === null ? issue : { ...issue, status: 'completed', error: null, executed_at: now, updated_at: now }
        headline = `${converged}/${total} tasks converged.`
      } else if (r.failed.length && r.ready.length === 0) {
        status = 'failed'
        const error = failureSummary(plan, tasks, r)
        next = issue.status === 'failed' && issue.error === error
          ? issue
          : withFeedback({ ...issue, status: 'failed', error, executed_at: now, updated_at: now }, { at: now, source: 'execution', message: error })
        headline = `${converged}/${total} tasks converged. ${error}.`
      } else {
        status = 'running'
        next = issue.status === 'executing' && issue.error === null ? issue : { ...issue, status: 'executing', error: null, updated_at: now }
        headline = `${plural(r.ready.length, 'task')} ready: run the matrix again (${converged}/${total} tasks converged).`
      }
      const finished = status === 'completed' || status === 'failed'
      const record: ExecutionRecord = {
        ...previous, tasks, status,
        executed_at: finished ? (previous.status === status && previous.executed_at ? previous.executed_at : now) : previous.executed_at,
      }
      // The loop ends with the execution, so that loop.json agrees with execution.json.
      const ended = loop && finished ? endedLoop(loop, status === 'completed' ? null : next.error, now) : undefined
      const loopChanged = ended !== undefined && (ended.status !== loop!.status || ended.failure_reason !== loop!.failure_reason)
      const changed = JSON.stringify(record) !== JSON.stringify(previous) || next !== issue || loopChanged
      out = { ok: true, issue: next, plan, record, readiness: r, headline, changed }
      if (!changed) return null
      const report = { issue: { number: n, title: issue.title }, status: next.status, solution: plan, execution: record, commandPrefix: '', links: {}, secrets: [...options.secrets] }
      return {
        message: `ISS-${n}: report: execution ${status} (${converged}/${total} tasks converged)`,
        files: {
          [statePaths.issue(n)]: toStateJson(next),
          [statePaths.execution(n)]: toStateJson(record),
          [statePaths.runState]: toStateJson(recordIssue(run, next, now, { phase: 'executing', note: `execution ${status} (matrix)` })),
          [statePaths.executionReport(n)]: renderExecutionMarkdown(report),
          [statePaths.events(n)]: appendEvent(events, n, simpleEvent(now, n, `execution ${status === 'running' ? 'continues' : status}`, `**Converged**: ${converged}/${total} | ${headline}`)),
          ...(loopChanged ? { [statePaths.loop(n)]: toStateJson(ended) } : {}),
        },
      }
    },
    { prefetch: issueFilePaths(n) },
  )
  const result = out as ReportResult // set by the transaction above
  return result.ok ? { ...result, changed: result.changed && commit !== null } : result
}

/** Why the execution failed, in one line: the failed tasks with the first reason, then what that left undone. */
function failureSummary(plan: Solution, tasks: Record<string, TaskResult>, r: Readiness): string {
  const first = r.failed[0] && tasks[r.failed[0].id]?.error
  const parts = [`${r.failed.length} of ${plan.tasks.length} tasks failed`]
  if (first) parts[0] += ` (${r.failed[0]!.id}: ${first.length > 300 ? `${first.slice(0, 299)}…` : first})`
  if (r.blocked.length) parts.push(`${ids(r.blocked.map((b) => b.task))} skipped`)
  if (r.held.length) parts.push(`${ids(r.held)} not started (${r.halted})`)
  return parts.join('; ')
}

/**
 * The issues a repository-wide `report` covers: those of the run state whose execution record of the current
 * plan is still `running` (matrix jobs ran, or run, for them).
 */
export async function issuesToReport(store: StateStore): Promise<number[]> {
  const numbers = await issuesInRunState(store, (status) => status === 'executing')
  const found: number[] = []
  for (let i = 0; i < numbers.length; i += ISSUES_PER_SNAPSHOT) {
    const chunk = numbers.slice(i, i + ISSUES_PER_SNAPSHOT)
    const snapshot = await store.snapshot(chunk.flatMap((n) => [statePaths.plan(n), statePaths.execution(n)]))
    for (const n of chunk) {
      const plan = await readStateJson(snapshot, statePaths.plan(n), SolutionSchema)
      const execution = await readStateJson(snapshot, statePaths.execution(n), ExecutionRecordSchema)
      if (plan && currentRecord(plan, execution)?.status === 'running') found.push(n)
    }
  }
  return found
}
