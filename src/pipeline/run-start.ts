/**
 * The start of a run: the gate (a plan without errors, approved as it is, the issue neither paused nor stopped),
 * then the run recorded as started — or resumed, with the results of an earlier run of the same plan carried over.
 */
import { plural } from '../report/markdown.js'
import { maskTokenShapes } from '../model/secrets.js'
import { executionOfPlan, wasStopped, type ExecutionRecord, type IssueState, type LoopState, type Solution, type TaskResult } from '../model/index.js'
import { analysePlan } from '../plan/analyse.js'
import { planHash } from '../plan/hash.js'
import type { RecordedStatus } from '../execute/schedule.js'
import { statePaths, toStateJson } from '../model/state-layout.js'
import { transact } from '../state/store.js'
import { recordIssue } from '../state/transitions.js'
import { simpleEvent } from './events.js'
import { appendEvent, issueFilePaths, readIssueFiles } from './issue-files.js'
import type { RunContext, RunMode } from './run-context.js'

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

export interface StartedRun {
  ok: true
  plan: Solution
  issue: IssueState
  record: ExecutionRecord
  alreadyDone: Map<string, RecordedStatus>
  retry: string[]
  /** The results of the earlier run of this plan, if any. */
  previousTasks: Record<string, TaskResult>
  /** The issue and its execution as they were before this start recorded itself: put back by a start that is refused before any task ran. */
  before: StateBefore
}

/** The issue's records as a start found them. */
export interface StateBefore {
  issue: IssueState
  execution: ExecutionRecord | undefined
  loop: LoopState | undefined
}

/**
 * The run that executes a plan, recorded with the execution: while its record says `running`, another run is
 * refused, naming it. The state branch's compare-and-swap makes this a lock: of two runs starting at once, one
 * commit wins and the other reads the winner's record when it tries again. A run that died holding it (a runner
 * gone) is taken over once its record has shown no progress for `staleAfterMs`, or at once by a re-run of itself.
 */
export interface RunHolder {
  /** The workflow run's URL; locally, the process (`process 4242 on laptop`). */
  run: string
  staleAfterMs: number
  /**
   * Whether the run a record names is still alive, when that can be known (locally: its process exists), else
   * undefined: a dead holder is taken over at once, a live one holds the plan however long it runs.
   */
  alive?: (run: string) => boolean | undefined
}

/** Checks the gate and records that the run started (or resumed). */
export async function startRun(
  context: Pick<RunContext, 'store' | 'n' | 'mode' | 'now'>,
  options: { retry?: readonly string[] | 'failed' | undefined; holder?: RunHolder | undefined; executorCommand?: string },
): Promise<StartedRun | { ok: false; reason: string }> {
  const { store, n, mode } = context
  let result = { ok: false, reason: '' } as StartedRun | { ok: false; reason: string }
  const now = context.now()
  const verb = mode === 'verify' ? 'verification' : 'execution'
  await transact(
    store,
    async (snapshot) => {
      const { run, issue, plan, events, execution, loop } = await readIssueFiles(snapshot, n, now)
      const refusal = gateRefusal(n, issue, plan)
      if (refusal !== null || !issue || !plan) return refuse(refusal ?? `ISS-${n} has no plan yet`)
      const held = heldByAnother(execution, options.holder, now)
      if (held) return refuse(`ISS-${n} is being ${held.mode === 'verify' ? 'verified' : 'executed'} by another run, ${held.run} (started ${held.started_at}): one run of a plan at a time. Wait for it to end, or \`/converge stop\` it`)
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
        solution_id: plan.id, issue_id: `ISS-${n}`, plan_hash: hash, mode, status: 'running', ...(options.holder ? { run: options.holder.run } : {}),
        ...executorOf(mode, options.executorCommand, execution),
        // This run's start: a resumed run's duration is its own, not the time since the first run began.
        started_at: now, executed_at: null, tasks: carried,
        ...(mode === 'verify' && executed ? { executed_tasks: executed.tasks } : {}),
      }
      const executing: IssueState = { ...issue, status: 'executing', error: null, updated_at: now }
      result = { ok: true, plan, issue: executing, record, alreadyDone, retry, previousTasks: previous?.tasks ?? {}, before: { issue, execution, loop } }
      const resumed = previous ? ` (resumed: ${plural(Object.values(carried).filter((r) => r.status === 'completed').length, 'task')} already converged)` : ''
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


/** The record of another run that still holds the plan (running, and making progress), if any. */
function heldByAnother(execution: ExecutionRecord | undefined, holder: RunHolder | undefined, now: string): ExecutionRecord | undefined {
  if (!holder || execution?.status !== 'running' || !execution.run || execution.run === holder.run) return undefined
  const alive = holder.alive?.(execution.run)
  if (alive !== undefined) return alive ? execution : undefined
  let progress = Date.parse(execution.started_at)
  for (const result of Object.values(execution.tasks)) if (result.executed_at) progress = Math.max(progress, Date.parse(result.executed_at))
  return Date.parse(now) - progress < holder.staleAfterMs ? execution : undefined
}

/** The executor to record: this execute's, or (verify) the one the execution it checks ran; none is not one to name. */
function executorOf(mode: RunMode, command: string | undefined, execution: ExecutionRecord | undefined): { executor?: string } {
  const executor = mode === 'execute' ? command?.trim() : execution?.executor
  // A command line that holds a token (`API_KEY=… agent`) is not one to record, nor to print in a hint.
  return executor && executor !== 'none' && maskTokenShapes(executor) === executor ? { executor } : {}
}
