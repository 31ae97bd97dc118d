/**
 * The end of a run: its status, the issue's, and why it failed, recorded in one commit (or, for a run that
 * could not begin or go on, recorded as failed with the reason).
 */
import { convergedTally } from '../report/evidence-words.js'
import type { ExecutionRecord, IssueState, LoopState, Solution, TaskResult } from '../model/index.js'
import type { ScheduleResult } from '../execute/schedule.js'
import { statePaths, toStateJson } from '../model/state-layout.js'
import { transact } from '../state/store.js'
import { recordIssue, withFeedback } from '../state/transitions.js'
import { simpleEvent } from './events.js'
import { appendEvent, issueFilePaths, readIssueFiles } from './issue-files.js'
import { executionMarkdown } from './run-record.js'
import type { RunContext, RunMode } from './run-context.js'
import type { StateBefore } from './run-start.js'

export async function finishRun(context: RunContext, plan: Solution, schedule: ScheduleResult) {
  const { store, n, mode } = context
  const now = context.now()
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
      // A verification is recorded beside the execution it checked: it never turns a completed execution failed.
      const executedAll = mode === 'verify' && plan.tasks.every((task) => execution.executed_tasks?.[task.id]?.status === 'completed')
      const ended: IssueState = executedAll
        ? { ...issue, status: 'completed', error: null, updated_at: now }
        : { ...issue, status: status === 'completed' ? 'completed' : 'failed', executed_at: now, error, updated_at: now }
      // A cancelled job no longer runs anything: the issue says so (a pause or a stop said so already).
      const cancelled = interrupted && (context.signal?.aborted ?? false)
      const cancel = `The run was cancelled with ${converged}/${plan.tasks.length} tasks converged: ${mode} again to go on`
      // What failed is kept as feedback for the next planning (an agent planner reads it).
      const next: IssueState = cancelled
        ? { ...issue, status: 'failed', error: cancel, updated_at: now }
        : interrupted ? issue : error && mode === 'execute' ? withFeedback(ended, { at: now, source: 'execution', message: error }) : ended
      finished = { issue: next, record }
      return {
        message: `ISS-${n}: ${verb} ${status} (${convergedTally(plan.tasks.length, results)})`,
        files: {
          [statePaths.issue(n)]: toStateJson(next),
          [statePaths.execution(n)]: toStateJson(record),
          [statePaths.runState]: toStateJson(recordIssue(run, next, now, { note: `${verb} ${status}`, phase: 'executing' })),
          [statePaths.executionReport(n)]: executionMarkdown(n, issue.title, plan, record, context),
          [statePaths.events(n)]: appendEvent(events, n, simpleEvent(now, n, `${verb} ${status}`, `**Converged**: ${convergedTally(plan.tasks.length, results)}${error ? ` | **Why**: ${error}` : ''}`)),
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
export async function abandonRun(context: Pick<RunContext, 'store' | 'n' | 'now'>, reason: string, previousTasks: Record<string, TaskResult>): Promise<void> {
  const { store, n } = context
  const now = context.now()
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

/**
 * A start refused before any task ran (the working tree holds the user's own changes, the work branch cannot be
 * checked out), or a verification whose checks could not start (a program missing where they ran): the issue, its
 * execution and loop are put back as they were, so that its status and evidence say what was done, not that
 * something failed; the event log keeps why.
 */
export async function undoStart(
  context: Pick<RunContext, 'store' | 'n' | 'now' | 'secrets'>, plan: Solution, before: StateBefore, reason: string,
): Promise<void> {
  const { store, n } = context
  const now = context.now()
  await transact(
    store,
    async (snapshot) => {
      const { run, events } = await readIssueFiles(snapshot, n, now)
      return {
        message: `ISS-${n}: run refused before it began`,
        files: {
          [statePaths.issue(n)]: toStateJson(before.issue),
          [statePaths.execution(n)]: before.execution ? toStateJson(before.execution) : null,
          [statePaths.loop(n)]: before.loop ? toStateJson(before.loop) : null,
          ...(before.execution ? { [statePaths.executionReport(n)]: executionMarkdown(n, before.issue.title, plan, before.execution, context) } : {}),
          [statePaths.runState]: toStateJson(recordIssue(run, before.issue, now, { note: reason, phase: 'executing' })),
          [statePaths.events(n)]: appendEvent(events, n, simpleEvent(now, n, 'run refused before it began (nothing ran; the issue is as it was)', `**Why**: ${reason}`)),
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

/** The loop of a finished run: `completed`, or `failed` with the reason. */
export function endedLoop(loop: LoopState, failure: string | null, now: string): LoopState {
  const { failure_reason: _previous, ...rest } = loop
  return failure === null
    ? { ...rest, status: 'completed', completed_at: now, updated_at: now }
    : { ...rest, status: 'failed', failure_reason: failure, updated_at: now }
}
