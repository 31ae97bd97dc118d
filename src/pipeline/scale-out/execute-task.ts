/**
 * Scale-out's second step, `execute-task`: one task of the approved plan carried out in a matrix job
 * (`../run-task.ts`) and recorded on the state branch, beside the other jobs (see `readiness.ts`).
 */
import { ExecutionRecordSchema, type ExecutionRecord, type IssueState, type Solution, type Task, type TaskResult } from '../../model/index.js'
import { agentPreflight } from '../../agents/preflight.js'
import { planHash } from '../../plan/hash.js'
import { renderTaskEvent } from '../../report/task-event.js'
import { statePaths, toStateJson } from '../../model/state-layout.js'
import { readStateJson } from '../../state/state-files.js'
import { transact, type StateStore } from '../../state/store.js'
import { recordIssue } from '../../state/transitions.js'
import { appendEvent, issueFilePaths, readIssueFiles } from '../issue-files.js'
import type { RunContext } from '../run-context.js'
import { recordLoop, recordTask } from '../run-record.js'
import { controlSignals } from '../run-schedule.js'
import { gateRefusal } from '../run-start.js'
import { convergeAndCommit, earlierBaseline, type TaskRunOptions } from '../run-task.js'
import { currentRecord, ids } from './readiness.js'

/** What `execute` needs to carry out one task (the checkout: the work branch, once `beforeTasks` prepared it). */
export interface ExecuteTaskOptions extends TaskRunOptions {
  signal?: AbortSignal
  controlIntervalMs?: number
  /** Runs once the task is recorded as started, before it runs (checking out the work branch). */
  beforeTasks?: () => Promise<void>
  /** Called when the task starts, once `beforeTasks` ran (the CLI's live progress). */
  onTaskStart?: (task: Task) => void
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
  const missing = await agentPreflight(options.policy.executorCommand, 'executor', { PATH: options.executorEnv?.PATH ?? process.env.PATH }, options.repoDir)
  if (missing) return { ok: false, reason: `${taskId} could not start: ${missing}`, started: false }
  const context: RunContext = { store, n, mode: 'execute', now: options.now, secrets: options.secrets, signal: options.signal }
  const started = await startTask(context, taskId)
  if (!started.ok) return { ...started, started: false }
  const { plan, task } = started
  let { issue } = started
  if (started.done) return { ok: true, plan, issue, task, result: started.done, ran: false, record: started.record }

  if (options.beforeTasks) {
    try {
      await options.beforeTasks()
    } catch (error) {
      return { ok: false, reason: `${task.id} could not start: ${(error as Error).message}`, plan, issue, task, started: true }
    }
  }
  options.onTaskStart?.(task)

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
    await recordLoop(context, task.id, run.loop)
    const record = await readRecord(context, plan)
    return { ok: true, plan, issue, task, result: undefined, ran: true, interrupted: run.status, record: record ?? started.record }
  }
  const { result } = run
  await recordTask(context, plan, task, run)
  const record = await readRecord(context, plan)
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
async function startTask(context: Pick<RunContext, 'store' | 'n' | 'now'>, taskId: string): Promise<StartedTask> {
  const { store, n } = context
  const now = context.now()
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
        ? { ...previous, status: 'running', executed_at: null, matrix: true }
        : { solution_id: plan.id, issue_id: `ISS-${n}`, plan_hash: planHash(plan), mode: 'execute', matrix: true, status: 'running', started_at: now, executed_at: null, tasks: {} }
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

async function readRecord({ store, n }: Pick<RunContext, 'store' | 'n'>, plan: Solution): Promise<ExecutionRecord | undefined> {
  const snapshot = await store.snapshot([statePaths.execution(n)])
  return currentRecord(plan, await readStateJson(snapshot, statePaths.execution(n), ExecutionRecordSchema))
}
