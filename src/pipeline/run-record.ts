/**
 * A task's result recorded on the state branch as it finishes: one commit of `execution.json`, `loop.json`,
 * `events.md` and `execution.md`, safe beside other writers (tasks running side by side, matrix jobs).
 */
import { evidenceLabel, provedBy } from '../report/evidence-words.js'
import { executorFailureText, outputLines } from '../execute/failure-text.js'
import { boundTaskResult, type ExecutionRecord, type LoopState, type Solution, type Task, type TaskResult } from '../model/index.js'
import { planHash } from '../plan/hash.js'
import { renderExecutionMarkdown } from '../report/execution-md.js'
import { renderTaskEvent } from '../report/task-event.js'
import { statePaths, toStateJson } from '../model/state-layout.js'
import { transact } from '../state/store.js'
import { appendEvent, issueFilePaths, readIssueFiles } from './issue-files.js'
import type { RunContext } from './run-context.js'

/** Records one finished task (execution.json, loop.json, events.md, execution.md) in one commit, safe beside other writers. */
export async function recordTask(
  context: Pick<RunContext, 'store' | 'n' | 'mode' | 'now' | 'secrets'>, plan: Solution, task: Task, finished: { result: TaskResult; loop: LoopState },
  previous?: TaskResult,
): Promise<TaskResult> {
  const { store, n, mode, secrets } = context
  const { result: ran, loop } = finished
  const now = context.now()
  // A retry that did not do the work again keeps what was proven (SPEC §7): the earlier result stands, with what
  // the retry did beside it.
  const kept = keptOverRetry(previous, ran, now)
  // What the executor's report and output put into the result (evidence, output tails, errors) is bounded here,
  // where every task's result enters the state branch: each text cut to its start and end, the cut said.
  const result = boundTaskResult(kept ?? ran)
  const verdict = kept ? 'retried, its earlier result kept'
    : result.status !== 'completed' ? (mode === 'verify' ? 'failed verification' : 'failed')
    : !provedBy(result) ? `completed, not proven (${evidenceLabel(result.evidence!)})`
    : mode === 'verify' ? 'verified' : 'converged'
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
          [statePaths.events(n)]: appendEvent(events, n, renderTaskEvent(task, ran, now, secrets)),
          [statePaths.executionReport(n)]: executionMarkdown(n, issue?.title ?? '', plan, record, context),
        },
      }
    },
    { prefetch: issueFilePaths(n) },
  )
  return result
}

/**
 * The earlier, completed result of a task with what its retry did, when the retry must not replace it: the retry
 * committed nothing, and it failed, or changed nothing, or its executor failed or timed out. Undefined otherwise.
 */
export function keptOverRetry(previous: TaskResult | undefined, retry: TaskResult, now: string): TaskResult | undefined {
  if (previous?.status !== 'completed' || retry.commit_hash) return undefined
  const runs = retry.executor_runs ?? []
  const failedRun = runs.findLast((run) => run.timed_out || run.exit_code !== 0)
  const changedNothing = retry.status === 'completed' && retry.evidence?.kind === 'no-change'
  if (retry.status === 'completed' && !changedNothing && !failedRun) return undefined
  const executor = failedRun ? executorFailureText(failedRun) : undefined
  const last = failedRun ? outputLines(failedRun.output_tail).map((l) => l.trim()).filter(Boolean).slice(-3) : []
  const outcome = [executor ?? (changedNothing ? 'the executor changed nothing' : (retry.error ?? 'the retry failed'))]
  if (executor && retry.status !== 'completed' && retry.error) outcome.push(retry.error.split('\n')[0]!)
  return {
    ...previous,
    later_retry: {
      at: now,
      outcome: `${outcome.join('; ')}${last.length ? `\n${last.join('\n')}` : ''}`,
      attempts: retry.attempts,
      executor_runs: runs,
    },
  }
}

/** An interrupted task leaves only its loop state (pending again): the task itself has no result yet. */
export async function recordLoop({ store, n }: Pick<RunContext, 'store' | 'n'>, taskId: string, loop: LoopState): Promise<void> {
  await transact(
    store,
    async (snapshot) => {
      const { loop: stored } = await readIssueFiles(snapshot, n, new Date().toISOString())
      return { message: `ISS-${n}: ${taskId} interrupted (${loop.status})`, files: { [statePaths.loop(n)]: toStateJson(mergeLoop(stored, loop, taskId)) } }
    },
    { prefetch: issueFilePaths(n) },
  )
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

export function executionMarkdown(n: number, title: string, plan: Solution, record: ExecutionRecord, options: { secrets: string[] }): string {
  return renderExecutionMarkdown({ issue: { number: n, title }, status: 'executing', solution: plan, execution: record, commandPrefix: '', links: {}, secrets: options.secrets })
}
