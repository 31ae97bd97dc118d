/**
 * Carries out an approved plan on this machine (SPEC §6, §7): `execute` (an executor does each task, its
 * commands verify it, a converged task is committed to the work branch) and `verify` (the commands alone,
 * against the code as it is). Both keep the state branch up to date as they go: every finished task is one
 * commit of `execution.json`, `loop.json`, `events.md` and `execution.md`, so a run killed at any point loses
 * nothing that was recorded, and the next run resumes from there.
 */
import { join } from 'node:path'
import { executionOfPlan, wasStopped, type ExecutionRecord, type IssueState, type LoopState, type Solution, type Task, type TaskResult } from '../model/index.js'
import { analysePlan } from '../plan/analyse.js'
import { planHash } from '../plan/hash.js'
import { runSchedule, type ControlSignal, type RecordedStatus, type ScheduleResult } from '../execute/schedule.js'
import { costBudget, type RunBudget } from '../execute/budget.js'
import { convergeTask, type TaskOutcome } from '../execute/task-loop.js'
import { renderExecutionMarkdown } from '../report/execution-md.js'
import { renderTaskEvent } from '../report/task-event.js'
import { statePaths, toStateJson } from '../state/layout.js'
import { transact, type StateStore } from '../state/store.js'
import { recordIssue, withFeedback } from '../state/transitions.js'
import { simpleEvent } from './events.js'
import { appendEvent, issueFilePaths, readIssueFiles } from './issue-files.js'

export type RunMode = 'execute' | 'verify'

/** Commits a converged task's changes (the work branch); null when the task changed nothing. */
export interface TaskCommitter {
  commitTask(task: Task, issue: number, othersRunning: readonly Task[]): Promise<{ commit: string; files: string[] } | null>
  /** Undoes what a task that did not converge changed in its declared files. */
  discardTask(task: Task, othersRunning: readonly Task[]): Promise<void>
}

export interface RunPlanOptions {
  /** The checkout the tasks run in. */
  repoDir: string
  /** Scratch space for per-task files (the runner's temp directory). */
  workRoot: string
  maxParallel: number
  /** Timeout of each command and of each executor run. */
  timeoutMs: number
  /** Values masked in everything recorded. */
  secrets: string[]
  now: () => string
  /** Called with the record after every finished task (for check-run progress). */
  onProgress?: (record: ExecutionRecord, plan: Solution) => void
  /** Called when a task starts (the CLI's live progress). */
  onTaskStart?: (task: Task) => void
  /** Called with each non-empty line a task's executor prints while it runs, secrets masked (the CLI's status line). */
  onOutput?: (taskId: string, line: string) => void
  /** Cancellation (Ctrl-C, a cancelled job): running commands are ended, nothing new starts. */
  signal?: AbortSignal
  /** How often `pause` / `stop` are looked up on the state branch (default 3 s; each look is one request). */
  controlIntervalMs?: number
}

export interface ExecuteOptions extends RunPlanOptions {
  /** The workflow author's shell template; `none`: verification only. */
  executorCommand: string
  maxIterations: number
  onFailure: 'retry' | 'skip' | 'abort'
  /** With `onFailure: retry`: how many times a task that did not converge is run again, from the start. */
  maxRetries: number
  /** The run stops starting tasks once this many failed. */
  maxErrors: number
  /** Tasks to run again although an earlier run recorded them (`retry`); `failed`: every failed task. */
  retry?: readonly string[] | 'failed'
  /** Where converged tasks are committed; absent: changes stay in the working tree. */
  committer?: TaskCommitter
  /** Extra environment for the executor alone (its API keys). */
  executorEnv?: Record<string, string>
  /** Runs once the run is recorded as started, before any task (e.g. checking out the work branch). */
  beforeTasks?: () => Promise<void>
  /** `max-cost-usd`: what this run's executor runs may cost, as their agents report it. */
  maxCostUsd?: number
  /** `max-turns`: turns of each executor run. */
  maxTurns?: number
}

export type RunPlanResult =
  | {
      ok: true
      plan: Solution
      issue: IssueState
      record: ExecutionRecord
      /** Tasks this run carried out (not those an earlier run recorded). */
      ran: string[]
    }
  | { ok: false; reason: string }

const DEFAULT_CONTROL_INTERVAL_MS = 3_000

/**
 * `verify`: runs every task's verification commands against the current code, with no executor — for work a
 * person did. Every task is checked (a failed one does not skip its dependents), in dependency order,
 * `maxParallel` at a time.
 */
export function verifyIssue(store: StateStore, n: number, options: RunPlanOptions): Promise<RunPlanResult> {
  return runPlan(store, n, 'verify', {
    ...options, executorCommand: 'none', maxIterations: 1, onFailure: 'skip', maxRetries: 0, maxErrors: Number.POSITIVE_INFINITY,
  })
}

/**
 * `execute` (and `retry`): the executor carries out each task, its commands verify it (develop → validate →
 * debug up to `maxIterations`), a converged task is committed. Resumes an earlier run of the same plan:
 * tasks it recorded as completed are not run again, failed ones only when `retry` names them.
 */
export function executeIssue(store: StateStore, n: number, options: ExecuteOptions): Promise<RunPlanResult> {
  return runPlan(store, n, 'execute', options)
}

async function runPlan(store: StateStore, n: number, mode: RunMode, options: ExecuteOptions): Promise<RunPlanResult> {
  const started = await startRun(store, n, mode, options)
  if (!started.ok) return started
  const { plan, alreadyDone, issue } = started
  const record = started.record
  const control = controlSignals(store, n, options.controlIntervalMs ?? DEFAULT_CONTROL_INTERVAL_MS)
  const budget = mode === 'execute' && options.maxCostUsd !== undefined ? costBudget(options.maxCostUsd) : undefined
  const running = new Set<Task>()
  const ran: string[] = []
  // A result the state branch would not take (GitHub failing past the client's retries) halts the run: no task
  // starts whose result could not be recorded either, and the running ones are ended, unrecorded.
  const halt = new AbortController()
  const signal = options.signal ? AbortSignal.any([options.signal, halt.signal]) : halt.signal
  let unrecorded: Error | undefined
  const haltWith = (error: unknown, where: string) => {
    unrecorded ??= new Error(`ISS-${n}: the run stopped ${where}: ${(error as Error).message}. Run it again to go on from what was recorded.`)
    halt.abort()
  }
  if (options.beforeTasks) {
    try {
      await options.beforeTasks()
    } catch (error) {
      // Cancelled meanwhile (the job's signal reaches git too): not a failure; no task starts below, and the run
      // ends as stopped like any cancelled run.
      if (!options.signal?.aborted) {
        const reason = `${mode === 'verify' ? 'Verification' : 'Execution'} could not start: ${(error as Error).message}`
        await abandonRun(store, n, reason, started.previousTasks, options.now())
        return { ok: false, reason }
      }
    }
  }

  const schedule = await runSchedule(plan.tasks, {
    maxParallel: options.maxParallel,
    onFailure: mode === 'verify' ? 'continue' : options.onFailure === 'abort' ? 'abort' : 'skip',
    maxErrors: options.maxErrors,
    alreadyDone,
    retry: new Set(started.retry),
    // Pause and stop unreadable (GitHub failing past the retries): the run halts with the error, as below.
    shouldContinue: () => control().catch((error: unknown) => {
      haltWith(error, 'before its next task')
      return 'stop' as const
    }),
    ...(budget ? { overBudget: () => budget.exhausted() } : {}),
    signal,
    runTask: async (task, signal) => {
      running.add(task)
      options.onTaskStart?.(task)
      try {
        const outcome = await carryOut(task, signal)
        if (outcome !== 'paused' && outcome !== 'stopped') ran.push(task.id)
        return outcome
      } catch (error) {
        // Not a verdict on the task (GitHub failing past the retries while it ran, e.g. reading pause and stop): the
        // run halts and fails with the error, like a result the state branch would not take; a rerun goes on.
        haltWith(error, `during ${task.id}`)
        return 'stopped'
      } finally {
        running.delete(task)
      }
    },
  })

  if (unrecorded) {
    // Recorded as failed when GitHub takes it, so that the issue does not look as if it were still running;
    // either way the next run resumes from what was recorded.
    await abandonRun(store, n, unrecorded.message, started.previousTasks, options.now()).catch(() => {})
    throw unrecorded
  }
  const finished = await finishRun(store, n, mode, plan, schedule, options)
  return { ok: true, plan, issue: finished.issue, record: finished.record, ran }

  /** One task through {@link convergeAndCommit}, recorded on the state branch. */
  async function carryOut(task: Task, signal: AbortSignal): Promise<'completed' | 'failed' | 'paused' | 'stopped'> {
    const run = await convergeAndCommit(task, {
      n, issueTitle: issue.title, plan, options, signal, ...(budget ? { budget } : {}),
      // Between the actions of a task too (SPEC §7): verify checks at task boundaries only.
      control: mode === 'execute' ? control : async () => 'continue',
      othersRunning: () => [...running].filter((t) => t !== task),
    })
    // Not a verdict, so nothing is recorded; and unfinished, not failed: the scheduler skips no dependents and
    // the next run starts the task again.
    if (run.kind === 'cancelled') return 'stopped'
    try {
      if (run.kind === 'interrupted') {
        await recordLoop(store, n, task.id, run.loop)
        return run.status
      }
      await recordTask(store, n, mode, plan, task, run.result, run.loop, options)
    } catch (error) {
      const commit = run.kind === 'finished' && run.result.commit_hash ? ` (its commit ${run.result.commit_hash.slice(0, 12)} is pushed)` : ''
      unrecorded ??= new Error(`ISS-${n}: the run stopped after ${task.id}${commit}: ${(error as Error).message}. Run it again to go on from what was recorded.`)
      halt.abort()
      return 'stopped'
    }
    record.tasks[task.id] = run.result
    options.onProgress?.(record, plan)
    return run.result.status === 'completed' ? 'completed' : 'failed'
  }
}

/** The part of the run's options that carrying out one task needs. */
export type TaskRunOptions = Pick<ExecuteOptions,
  'repoDir' | 'workRoot' | 'executorCommand' | 'maxIterations' | 'onFailure' | 'maxRetries' | 'timeoutMs' | 'secrets' | 'now' | 'executorEnv' | 'committer' | 'maxTurns' | 'onOutput'>

export type TaskRun =
  /** Cancelled mid-way (Ctrl-C, a cancelled job): no verdict. */
  | { kind: 'cancelled' }
  /** Paused or stopped at an action boundary: not finished, to run again on resume. */
  | { kind: 'interrupted'; status: 'paused' | 'stopped'; loop: LoopState }
  | { kind: 'finished'; result: TaskResult; loop: LoopState }

/**
 * One task, as `execute` and `execute-task` carry it out: rounds of the develop → validate → debug loop
 * (more than one with `on-failure: retry`), then a commit of its changes when it converged, or its declared
 * files put back when it did not. Records nothing: the caller does.
 */
export async function convergeAndCommit(
  task: Task,
  context: {
    n: number; issueTitle: string; plan: Solution; options: TaskRunOptions; signal: AbortSignal
    control: () => Promise<ControlSignal>
    /** The other tasks running right now, whose declared files this task's commit leaves alone. */
    othersRunning: () => Task[]
    /** The run's spending limit, shared by its tasks. */
    budget?: RunBudget
  },
): Promise<TaskRun> {
  const { n, plan, options, signal } = context
  const startedAt = options.now()
  const rounds = options.onFailure === 'retry' ? 1 + options.maxRetries : 1
  let run: TaskOutcome | undefined
  let attempts = 0
  for (let round = 1; round <= rounds; round++) {
    run = await convergeTask(task, {
      issue: { number: n, title: context.issueTitle },
      solutionId: plan.id,
      repoDir: options.repoDir,
      workDir: join(options.workRoot, `ISS-${n}`, task.id, `round-${round}`),
      executorCommand: options.executorCommand,
      maxIterations: options.maxIterations,
      timeoutMs: options.timeoutMs,
      secrets: options.secrets,
      signal,
      ...(options.executorEnv ? { executorEnv: options.executorEnv } : {}),
      ...(options.maxTurns ? { maxTurns: options.maxTurns } : {}),
      ...(context.budget ? { budget: context.budget } : {}),
      ...(options.onOutput ? { onExecutorOutput: (line: string) => options.onOutput!(task.id, line) } : {}),
      checkControl: context.control,
    })
    attempts += run.result.attempts
    if (run.status !== 'failed' || signal.aborted || context.budget?.exhausted()) break
  }
  if (signal.aborted) return { kind: 'cancelled' }
  if (run!.status === 'paused' || run!.status === 'stopped') {
    // Started again from the beginning on resume: what it changed so far is put back, not left for another commit.
    await options.committer?.discardTask(task, context.othersRunning()).catch(() => undefined)
    return { kind: 'interrupted', status: run!.status, loop: run!.loop }
  }

  let result: TaskResult = { ...run!.result, attempts, started_at: startedAt, executed_at: options.now() }
  // With on-failure retry the last round's reason stands for all of them: say how many there were.
  if (result.status === 'failed' && rounds > 1 && result.error)
    result = { ...result, error: result.error.replace(/^Not converged after [^:]*:/, `Not converged after ${attempts} attempts in ${rounds} rounds (on-failure: retry):`) }
  if (result.status === 'completed' && options.committer) {
    try {
      const commit = await options.committer.commitTask(task, n, context.othersRunning())
      if (commit) result = { ...result, commit_hash: commit.commit, files_modified: commit.files }
    } catch (error) {
      // A cancelled job signals the whole process group, git included: a commit or push it killed is no verdict
      // on the task (its changes stay put; the next run does it again).
      if (signal.aborted) return { kind: 'cancelled' }
      result = { ...result, status: 'failed', error: `Converged, but its changes could not be committed: ${(error as Error).message}` }
    }
  }
  if (result.status === 'failed' && options.committer) {
    try {
      await options.committer.discardTask(task, context.othersRunning())
    } catch (error) {
      result = { ...result, error: `${result.error ?? 'Failed'}; its changes could not be undone: ${(error as Error).message}` }
    }
  }
  return { kind: 'finished', result, loop: run!.loop }
}

/**
 * Why the issue's plan may not run now, or null when it may (SPEC §6): there is a plan without errors, the
 * issue is neither paused nor stopped, and the plan is approved as it is (the approval is bound to its hash).
 */
export function gateRefusal(n: number, issue: IssueState | undefined, plan: Solution | undefined): string | null {
  if (!issue || !plan) return `ISS-${n} has no plan yet: run \`/converge plan\` first`
  if (issue.status === 'paused') return `ISS-${n} is paused: run \`/converge resume\` first`
  if (wasStopped(issue)) return `ISS-${n} was stopped (${issue.error}): run \`/converge resume\` to continue`
  if (analysePlan(plan).errors.length) return `${plan.id} has errors: fix the plan first`
  if (plan.approval?.plan_hash !== planHash(plan))
    return plan.approval
      ? `${plan.id} changed after it was approved: its commands run only after \`/converge approve\` of the current content`
      : `${plan.id} is not approved: its commands run only after \`/converge approve\``
  return null
}

interface StartedRun {
  ok: true
  plan: Solution
  issue: IssueState
  record: ExecutionRecord
  alreadyDone: Map<string, RecordedStatus>
  retry: string[]
  /** The results of the earlier run of this plan, if any. */
  previousTasks: Record<string, TaskResult>
}

/** Checks the gate and records that the run started (or resumed). */
async function startRun(store: StateStore, n: number, mode: RunMode, options: ExecuteOptions): Promise<StartedRun | { ok: false; reason: string }> {
  let result = { ok: false, reason: '' } as StartedRun | { ok: false; reason: string }
  const now = options.now()
  const verb = mode === 'verify' ? 'verification' : 'execution'
  await transact(
    store,
    async (snapshot) => {
      const { run, issue, plan, events, execution } = await readIssueFiles(snapshot, n, now)
      const refusal = gateRefusal(n, issue, plan)
      if (refusal !== null || !issue || !plan) return refuse(refusal ?? `ISS-${n} has no plan yet`)
      const hash = planHash(plan)

      const known = new Set(plan.tasks.map((t) => t.id))
      const unknown = Array.isArray(options.retry) ? options.retry.filter((id) => !known.has(id)) : []
      if (unknown.length) return refuse(`${unknown.join(', ')} ${unknown.length === 1 ? 'is not a task' : 'are not tasks'} of ${plan.id} (tasks: ${[...known].join(', ')})`)

      // The same plan, executed before (perhaps verified since): carry its results over. Verify always starts
      // afresh, and keeps those results for the next execute.
      const executed = executionOfPlan(execution, hash)
      const previous = mode === 'execute' ? executed : undefined
      const retry = options.retry === 'failed'
        ? Object.values(previous?.tasks ?? {}).filter((r) => r.status === 'failed').map((r) => r.task_id)
        : [...(options.retry ?? [])]
      if (options.retry !== undefined && !previous) return refuse(`${plan.id} has not been executed yet: run \`/converge execute\` first`)
      const alreadyDone = new Map<string, RecordedStatus>(Object.values(previous?.tasks ?? {}).map((r) => [r.task_id, r.status]))
      if (options.retry !== undefined && retry.length === 0) return refuse(`No task of ${plan.id} failed: nothing to retry`)
      const carried = Object.fromEntries(Object.entries(previous?.tasks ?? {}).filter(([id, r]) => r.status !== 'skipped' && !retry.includes(id)))
      // Every task converged already: the run has nothing to carry out, and still goes on to record the end and
      // report, which an earlier run may have failed to do (an API outage after its last task).

      const record: ExecutionRecord = {
        solution_id: plan.id, issue_id: `ISS-${n}`, plan_hash: hash, mode, status: 'running',
        // This run's start: a resumed run's duration is its own, not the time since the first run began.
        started_at: now, executed_at: null, tasks: carried,
        ...(mode === 'verify' && executed ? { executed_tasks: executed.tasks } : {}),
      }
      const executing: IssueState = { ...issue, status: 'executing', error: null, updated_at: now }
      result = { ok: true, plan, issue: executing, record, alreadyDone, retry, previousTasks: previous?.tasks ?? {} }
      const resumed = previous ? ` (resumed: ${Object.values(carried).filter((r) => r.status === 'completed').length} tasks already converged)` : ''
      const retrying = retry.length ? ` | **Retrying**: ${retry.join(', ')}` : ''
      return {
        message: `ISS-${n}: ${verb} of ${plan.id} started${resumed}`,
        files: {
          [statePaths.issue(n)]: toStateJson(executing),
          [statePaths.execution(n)]: toStateJson(record),
          [statePaths.runState]: toStateJson(recordIssue(run, executing, now, { note: `${verb} of ${plan.id}`, phase: 'executing' })),
          [statePaths.events(n)]: appendEvent(events, n, simpleEvent(now, n, `${verb} of ${plan.id} started${resumed}`, `**Tasks**: ${plan.tasks.length} | **Plan hash**: \`${hash}\`${retrying}`)),
        },
      }
    },
    { prefetch: issueFilePaths(n) },
  )
  return result

  function refuse(reason: string) {
    result = { ok: false, reason }
    return null
  }
}

/** Records one finished task (execution.json, loop.json, events.md, execution.md) in one commit, safe beside other writers. */
export async function recordTask(
  store: StateStore, n: number, mode: RunMode, plan: Solution, task: Task, result: TaskResult, loop: LoopState, options: Pick<RunPlanOptions, 'now' | 'secrets'>,
): Promise<void> {
  const now = options.now()
  const verdict = result.status === 'completed' ? (mode === 'verify' ? 'verified' : 'converged') : mode === 'verify' ? 'failed verification' : 'failed'
  await transact(
    store,
    async (snapshot) => {
      const { issue, events, execution, loop: stored } = await readIssueFiles(snapshot, n, now)
      if (!execution || execution.plan_hash !== planHash(plan)) return null // another run replaced this one
      const record: ExecutionRecord = { ...execution, tasks: { ...execution.tasks, [task.id]: result } }
      return {
        message: `ISS-${n}: ${task.id} ${verdict}${result.commit_hash ? ` (${result.commit_hash.slice(0, 7)})` : ''}`,
        files: {
          [statePaths.execution(n)]: toStateJson(record),
          [statePaths.loop(n)]: toStateJson(withFilesChanged(mergeLoop(stored, loop, task.id), task.id, result.files_modified)),
          [statePaths.events(n)]: appendEvent(events, n, renderTaskEvent(task, result, now, options.secrets)),
          [statePaths.executionReport(n)]: executionMarkdown(n, issue?.title ?? '', plan, record, options),
        },
      }
    },
    { prefetch: issueFilePaths(n) },
  )
}

/** An interrupted task leaves only its loop state (pending again): the task itself has no result yet. */
export async function recordLoop(store: StateStore, n: number, taskId: string, loop: LoopState): Promise<void> {
  await transact(
    store,
    async (snapshot) => {
      const { loop: stored } = await readIssueFiles(snapshot, n, new Date().toISOString())
      return { message: `ISS-${n}: ${taskId} interrupted (${loop.status})`, files: { [statePaths.loop(n)]: toStateJson(mergeLoop(stored, loop, taskId)) } }
    },
    { prefetch: issueFilePaths(n) },
  )
}

async function finishRun(store: StateStore, n: number, mode: RunMode, plan: Solution, schedule: ScheduleResult, options: RunPlanOptions) {
  const now = options.now()
  let finished = {} as { issue: IssueState; record: ExecutionRecord }
  const verb = mode === 'verify' ? 'verification' : 'execution'
  await transact(
    store,
    async (snapshot) => {
      const { run, issue, events, execution, loop } = await readIssueFiles(snapshot, n, now)
      if (!issue || !execution) throw new Error(`ISS-${n}: the state of this ${verb} disappeared from the state branch`)
      // Tasks skipped because a dependency failed are recorded with the reason; tasks not started are left pending.
      const tasks = { ...execution.tasks }
      for (const task of plan.tasks) {
        const scheduled = schedule.results.get(task.id)
        if (scheduled?.status === 'skipped' && !tasks[task.id]) tasks[task.id] = skippedResult(task.id, scheduled.reason ?? 'a dependency failed')
      }
      const results = Object.values(tasks)
      const converged = results.filter((r) => r.status === 'completed').length
      const interrupted = schedule.status === 'paused' || schedule.status === 'stopped'
      const status: ExecutionRecord['status'] = interrupted
        ? (schedule.status as 'paused' | 'stopped')
        : converged === plan.tasks.length ? 'completed' : 'failed'
      const record: ExecutionRecord = { ...execution, tasks, status, executed_at: now }
      const error = status === 'failed' ? failureSummary(plan, tasks, schedule, mode) : null
      const ended: IssueState = { ...issue, status: status === 'completed' ? 'completed' : 'failed', executed_at: now, error, updated_at: now }
      // A cancelled job no longer runs anything: the issue says so (a pause or a stop said so already).
      const cancelled = interrupted && (options.signal?.aborted ?? false)
      const cancel = `The run was cancelled with ${converged}/${plan.tasks.length} tasks converged: ${mode} again to go on`
      // What failed is kept as feedback for the next planning (an agent planner reads it).
      const next: IssueState = cancelled
        ? { ...issue, status: 'failed', error: cancel, updated_at: now }
        : interrupted ? issue : error && mode === 'execute' ? withFeedback(ended, { at: now, source: 'execution', message: error }) : ended
      finished = { issue: next, record }
      return {
        message: `ISS-${n}: ${verb} ${status} (${converged}/${plan.tasks.length} tasks converged)`,
        files: {
          [statePaths.issue(n)]: toStateJson(next),
          [statePaths.execution(n)]: toStateJson(record),
          [statePaths.runState]: toStateJson(recordIssue(run, next, now, { note: `${verb} ${status}`, phase: 'executing' })),
          [statePaths.executionReport(n)]: executionMarkdown(n, issue.title, plan, record, options),
          [statePaths.events(n)]: appendEvent(events, n, simpleEvent(now, n, `${verb} ${status}`, `**Converged**: ${converged}/${plan.tasks.length}${error ? ` | **Why**: ${error}` : ''}`)),
          // The loop ends with the run: loop.json agrees with execution.json and issue.json.
          ...(loop && !interrupted ? { [statePaths.loop(n)]: toStateJson(endedLoop(loop, status === 'completed' ? null : (next.error ?? status), now)) } : {}),
        },
      }
    },
    { prefetch: issueFilePaths(n) },
  )
  return finished
}

/** A run that could not begin or go on with its tasks: recorded as failed with the reason, its earlier results kept. */
async function abandonRun(store: StateStore, n: number, reason: string, previousTasks: Record<string, TaskResult>, now: string): Promise<void> {
  await transact(
    store,
    async (snapshot) => {
      const { run, issue, events, execution, loop } = await readIssueFiles(snapshot, n, now)
      if (!issue || !execution) return null
      const failed: IssueState = { ...issue, status: 'failed', error: reason, updated_at: now }
      return {
        message: `ISS-${n}: run failed`,
        files: {
          [statePaths.issue(n)]: toStateJson(failed),
          // Results set aside for a retry that never began stay as they were.
          [statePaths.execution(n)]: toStateJson({ ...execution, tasks: { ...previousTasks, ...execution.tasks }, status: 'failed', executed_at: now }),
          [statePaths.runState]: toStateJson(recordIssue(run, failed, now, { note: reason, phase: 'executing' })),
          [statePaths.events(n)]: appendEvent(events, n, simpleEvent(now, n, 'run failed', `**Why**: ${reason}`)),
          ...(loop ? { [statePaths.loop(n)]: toStateJson(endedLoop(loop, reason, now)) } : {}),
        },
      }
    },
    { prefetch: issueFilePaths(n) },
  )
}

/** Why a run failed, in one line: the failed tasks with their reasons, then what that left undone. */
function failureSummary(plan: Solution, tasks: Record<string, TaskResult>, schedule: ScheduleResult, mode: RunMode): string {
  const failed = plan.tasks.filter((t) => tasks[t.id]?.status === 'failed')
  const skipped = plan.tasks.filter((t) => tasks[t.id]?.status === 'skipped')
  const notRun = plan.tasks.filter((t) => !tasks[t.id])
  const converged = plan.tasks.filter((t) => tasks[t.id]?.status === 'completed').length
  const parts = [`${failed.length} of ${plan.tasks.length} tasks ${mode === 'verify' ? 'did not pass verification' : 'failed'}`]
  const first = failed[0] && tasks[failed[0].id]?.error
  if (first) parts[0] += ` (${failed[0]!.id}: ${first.length > 300 ? `${first.slice(0, 299)}…` : first})`
  if (skipped.length) parts.push(`${skipped.map((t) => t.id).join(', ')} skipped`)
  // The budget comes first: it is why the run ended, and what to change before running it again.
  if (schedule.overBudget) {
    const rest = [...(failed.length ? [parts[0]] : []), ...parts.slice(1)]
    return [`${schedule.overBudget}; ${converged} of ${plan.tasks.length} tasks converged`, ...rest,
      `${notRun.map((t) => t.id).join(', ') || 'no task'} left for a run with a larger max-cost-usd`].join('; ')
  }
  if (notRun.length) parts.push(`${notRun.map((t) => t.id).join(', ')} not started (${schedule.results.get(notRun[0]!.id)?.reason?.replace(/^not started: /, '') ?? 'stopped early'})`)
  return parts.join('; ')
}

export function skippedResult(taskId: string, reason: string): TaskResult {
  return {
    task_id: taskId, status: 'skipped', started_at: null, executed_at: null, duration_ms: 0, files_modified: [],
    commit_hash: null, tests_passed: null, convergence_verified: [], attempts: 0, error: `Skipped: ${reason}`,
  }
}

/**
 * The issue's loop state with one task's loop (which started empty) folded in: tasks running side by side
 * each bring their own entry, errors and debug iterations, and none overwrites another's.
 */
export function mergeLoop(stored: LoopState | undefined, task: LoopState, taskId: string): LoopState {
  if (!stored?.skill_state || !task.skill_state) return task
  const mine = task.skill_state.develop.tasks.find((t) => t.id === taskId)
  const tasks = stored.skill_state.develop.tasks.filter((t) => t.id !== taskId)
  if (mine) tasks.push(mine)
  const seen = new Set(stored.skill_state.errors.map((e) => `${e.timestamp}\0${e.message}`))
  const errors = [...stored.skill_state.errors, ...task.skill_state.errors.filter((e) => !seen.has(`${e.timestamp}\0${e.message}`))]
  return {
    ...task,
    current_iteration: Math.max(stored.current_iteration, task.current_iteration),
    skill_state: {
      ...task.skill_state,
      errors,
      completed_actions: [...stored.skill_state.completed_actions, ...task.skill_state.completed_actions],
      debug: {
        ...(task.skill_state.debug.iteration > 0 ? task.skill_state.debug : stored.skill_state.debug),
        iteration: stored.skill_state.debug.iteration + task.skill_state.debug.iteration,
      },
      develop: { ...task.skill_state.develop, tasks, total: tasks.length, completed: tasks.filter((t) => t.status === 'completed').length },
    },
  }
}

/** The loop with the files a task's commit changed, as its develop entry's `files_changed`. */
function withFilesChanged(loop: LoopState, taskId: string, files: string[]): LoopState {
  if (!loop.skill_state || files.length === 0) return loop
  const tasks = loop.skill_state.develop.tasks.map((t) => (t.id === taskId ? { ...t, files_changed: files } : t))
  return { ...loop, skill_state: { ...loop.skill_state, develop: { ...loop.skill_state.develop, tasks } } }
}

/** The loop of a finished run: `completed`, or `failed` with the reason. */
export function endedLoop(loop: LoopState, failure: string | null, now: string): LoopState {
  const { failure_reason: _previous, ...rest } = loop
  return failure === null
    ? { ...rest, status: 'completed', completed_at: now, updated_at: now }
    : { ...rest, status: 'failed', failure_reason: failure, updated_at: now }
}

/** `pause` / `stop` recorded on the state branch by another run, looked up at most every `intervalMs`. */
export function controlSignals(store: StateStore, n: number, intervalMs: number): () => Promise<ControlSignal> {
  let checkedAt = Number.NEGATIVE_INFINITY
  let last: ControlSignal = 'continue'
  let pending: Promise<ControlSignal> | undefined
  return () => {
    if (Date.now() - checkedAt < intervalMs) return Promise.resolve(last)
    // Tasks running side by side share one look.
    pending ??= (async () => {
      try {
        const { issue } = await readIssueFiles(await store.snapshot([statePaths.issue(n)]), n, new Date().toISOString())
        last = issue?.status === 'paused' ? 'pause' : issue && wasStopped(issue) ? 'stop' : 'continue'
        checkedAt = Date.now()
        return last
      } finally {
        pending = undefined
      }
    })()
    return pending
  }
}

function executionMarkdown(n: number, title: string, plan: Solution, record: ExecutionRecord, options: Pick<RunPlanOptions, 'secrets'>): string {
  return renderExecutionMarkdown({ issue: { number: n, title }, status: 'executing', solution: plan, execution: record, commandPrefix: '', links: {}, secrets: options.secrets })
}
