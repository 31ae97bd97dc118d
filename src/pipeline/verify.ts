import { join } from 'node:path'
import type { ExecutionRecord, IssueState, Solution, Task, TaskResult } from '../model/index.js'
import { analysePlan } from '../plan/analyse.js'
import { planHash } from '../plan/hash.js'
import { runSchedule, type ControlSignal } from '../execute/schedule.js'
import { convergeTask } from '../execute/task-loop.js'
import { renderExecutionMarkdown } from '../report/execution-md.js'
import { renderTaskEvent } from '../report/task-event.js'
import { statePaths, toStateJson } from '../state/layout.js'
import { transact, type StateStore } from '../state/store.js'
import { recordIssue } from '../state/transitions.js'
import { simpleEvent } from './events.js'
import { appendEvent, issueFilePaths, readIssueFiles } from './issue-files.js'

export interface VerifyOptions {
  /** The checkout whose code is verified. */
  repoDir: string
  /** Scratch space for per-task files (the runner's temp directory). */
  workRoot: string
  maxParallel: number
  timeoutMs: number
  /** Values masked in everything recorded. */
  secrets: string[]
  now: () => string
  /** Called with the record after every finished task (for check-run progress). */
  onProgress?: (record: ExecutionRecord, plan: Solution) => void
  /** Cancellation (Ctrl-C, a cancelled job): running commands are ended, nothing new starts. */
  signal?: AbortSignal
}

export type VerifyResult =
  | { ok: true; plan: Solution; issue: IssueState; record: ExecutionRecord }
  | { ok: false; reason: string }

/** How often a long run looks at the state branch for `pause` / `stop` (each look is one request). */
const CONTROL_INTERVAL_MS = 3_000

/**
 * `verify`: runs every task's verification commands against the current code, with no executor — for
 * work a person did. Commands come from the plan, so the plan must carry an approval bound to its
 * content hash. Every task is checked (a failed one does not skip its dependents), in dependency order,
 * `maxParallel` at a time; each result is one commit (`execution.json`, `loop.json`, `events.md`,
 * `execution.md`), and `pause` / `stop` recorded by another run are honoured between actions.
 */
export async function verifyIssue(store: StateStore, n: number, options: VerifyOptions): Promise<VerifyResult> {
  const started = await startRun(store, n, options)
  if (!started.ok) return started
  const { plan } = started
  const record: ExecutionRecord = started.record

  const outcome = await runSchedule(plan.tasks, {
    maxParallel: options.maxParallel,
    onFailure: 'continue',
    shouldContinue: controlSignals(store, n),
    ...(options.signal ? { signal: options.signal } : {}),
    runTask: async (task, signal) => {
      const startedAt = options.now()
      const run = await convergeTask(task, {
        issue: { number: n, title: started.issue.title },
        solutionId: plan.id,
        repoDir: options.repoDir,
        workDir: join(options.workRoot, `ISS-${n}`, task.id),
        executorCommand: 'none',
        maxIterations: 1,
        timeoutMs: options.timeoutMs,
        secrets: options.secrets,
        signal,
        checkControl: async () => 'continue',
      })
      if (signal.aborted) return 'failed' // cancelled mid-way: not a verdict, so nothing is recorded
      const result: TaskResult = { ...run.result, started_at: startedAt, executed_at: options.now() }
      await recordTask(store, n, plan, task, result, run.loop, options)
      record.tasks[task.id] = result
      options.onProgress?.(record, plan)
      return result.status === 'completed' ? 'completed' : 'failed'
    },
  })

  const finished = await finishRun(store, n, plan, outcome.status, options)
  return { ok: true, plan, issue: finished.issue, record: finished.record }
}

async function startRun(store: StateStore, n: number, options: VerifyOptions) {
  let result = { ok: false, reason: '' } as { ok: false; reason: string } | { ok: true; plan: Solution; issue: IssueState; record: ExecutionRecord }
  const now = options.now()
  await transact(
    store,
    async (snapshot) => {
      const { run, issue, plan, events } = await readIssueFiles(snapshot, n, now)
      if (!issue || !plan) return refuse(`ISS-${n} has no plan yet: run \`/converge plan\` first`)
      if (issue.status === 'paused') return refuse(`ISS-${n} is paused: run \`/converge resume\` first`)
      if (analysePlan(plan).errors.length) return refuse(`${plan.id} has errors: fix the plan first`)
      const hash = planHash(plan)
      if (plan.approval?.plan_hash !== hash)
        return refuse(plan.approval
          ? `${plan.id} changed after it was approved: its commands run only after \`/converge approve\` of the current content`
          : `${plan.id} is not approved: its commands run only after \`/converge approve\``)
      const record: ExecutionRecord = { solution_id: plan.id, issue_id: `ISS-${n}`, plan_hash: hash, status: 'running', started_at: now, executed_at: null, tasks: {} }
      const executing: IssueState = { ...issue, status: 'executing', error: null, updated_at: now }
      result = { ok: true, plan, issue: executing, record }
      return {
        message: `ISS-${n}: verifying ${plan.id} (${plan.tasks.length} tasks)`,
        files: {
          [statePaths.issue(n)]: toStateJson(executing),
          [statePaths.execution(n)]: toStateJson(record),
          [statePaths.runState]: toStateJson(recordIssue(run, executing, now, { note: `verifying ${plan.id}`, phase: 'executing' })),
          [statePaths.events(n)]: appendEvent(events, n, simpleEvent(now, n, `verification of ${plan.id} started`, `**Tasks**: ${plan.tasks.length} | **Plan hash**: \`${hash}\``)),
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

async function recordTask(
  store: StateStore, n: number, plan: Solution, task: Task, result: TaskResult,
  loop: Awaited<ReturnType<typeof convergeTask>>['loop'], options: VerifyOptions,
): Promise<void> {
  const now = options.now()
  await transact(
    store,
    async (snapshot) => {
      const { issue, events, execution } = await readIssueFiles(snapshot, n, now)
      if (!execution || execution.plan_hash !== planHash(plan)) return null // another run replaced this one
      const record: ExecutionRecord = { ...execution, tasks: { ...execution.tasks, [task.id]: result } }
      return {
        message: `ISS-${n}: ${task.id} ${result.status === 'completed' ? 'verified' : 'failed verification'}`,
        files: {
          [statePaths.execution(n)]: toStateJson(record),
          [statePaths.loop(n)]: toStateJson(loop),
          [statePaths.events(n)]: appendEvent(events, n, renderTaskEvent(task, result, now, options.secrets)),
          [statePaths.executionReport(n)]: executionMarkdown(n, issue?.title ?? '', plan, record, options),
        },
      }
    },
    { prefetch: issueFilePaths(n) },
  )
}

async function finishRun(store: StateStore, n: number, plan: Solution, status: string, options: VerifyOptions) {
  const now = options.now()
  let finished = {} as { issue: IssueState; record: ExecutionRecord }
  await transact(
    store,
    async (snapshot) => {
      const { run, issue, events, execution } = await readIssueFiles(snapshot, n, now)
      if (!issue || !execution) throw new Error(`ISS-${n}: the state of this verification disappeared from the state branch`)
      const results = Object.values(execution.tasks)
      const converged = results.length === plan.tasks.length && results.every((r) => r.status === 'completed')
      const interrupted = status === 'paused' || status === 'stopped'
      const record: ExecutionRecord = {
        ...execution,
        status: interrupted ? (status as 'paused' | 'stopped') : converged ? 'completed' : 'failed',
        executed_at: now,
      }
      const failed = results.filter((r) => r.status !== 'completed').length
      const next: IssueState = interrupted
        ? issue
        : { ...issue, status: converged ? 'completed' : 'failed', executed_at: now, error: converged ? null : `${failed} of ${plan.tasks.length} tasks did not pass verification`, updated_at: now }
      finished = { issue: next, record }
      return {
        message: `ISS-${n}: verification ${record.status} (${results.length - failed}/${plan.tasks.length} tasks converged)`,
        files: {
          [statePaths.issue(n)]: toStateJson(next),
          [statePaths.execution(n)]: toStateJson(record),
          [statePaths.runState]: toStateJson(recordIssue(run, next, now, { note: `verification ${record.status}`, phase: 'executing' })),
          [statePaths.executionReport(n)]: executionMarkdown(n, issue.title, plan, record, options),
          [statePaths.events(n)]: appendEvent(events, n, simpleEvent(now, n, `verification ${record.status}`, `**Converged**: ${results.length - failed}/${plan.tasks.length}`)),
        },
      }
    },
    { prefetch: issueFilePaths(n) },
  )
  return finished
}

/** `pause` / `stop` recorded on the state branch by another run, looked up at most every few seconds. */
function controlSignals(store: StateStore, n: number): () => Promise<ControlSignal> {
  let checkedAt = 0
  let last: ControlSignal = 'continue'
  return async () => {
    if (Date.now() - checkedAt < CONTROL_INTERVAL_MS) return last
    checkedAt = Date.now()
    const { issue } = await readIssueFiles(await store.snapshot([statePaths.issue(n)]), n, new Date().toISOString())
    last = issue?.status === 'paused' ? 'pause' : issue?.status === 'failed' && issue.error?.startsWith('Stopped by') ? 'stop' : 'continue'
    return last
  }
}

function executionMarkdown(n: number, title: string, plan: Solution, record: ExecutionRecord, options: VerifyOptions): string {
  return renderExecutionMarkdown({ issue: { number: n, title }, status: 'executing', solution: plan, execution: record, commandPrefix: '', links: {}, secrets: options.secrets })
}
