/**
 * Scale-out's last step, `report`: once the matrix jobs are done, the issue's status from the results they
 * recorded — the run finished, failed, or going on in another round (see `readiness.ts`).
 */
import { convergedTally } from '../../report/evidence-words.js'
import { ExecutionRecordSchema, SolutionSchema, wasStopped, type ExecutionRecord, type IssueState, type Solution, type TaskResult } from '../../model/index.js'
import { renderExecutionMarkdown } from '../../report/execution-md.js'
import { plural } from '../../report/markdown.js'
import { statePaths, toStateJson } from '../../model/state-layout.js'
import { readStateJson } from '../../state/state-files.js'
import { transact, type StateStore } from '../../state/store.js'
import { recordIssue, withFeedback } from '../../state/transitions.js'
import { simpleEvent } from '../events.js'
import { appendEvent, issueFilePaths, readIssueFiles } from '../issue-files.js'
import { endedLoop, skippedResult } from '../run-finish.js'
import { gateRefusal } from '../run-start.js'
import { currentRecord, ids, readiness, type FailurePolicy, type Readiness } from './readiness.js'
import { issuesInRunState, ISSUES_PER_SNAPSHOT } from './matrix.js'

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
        headline = `${convergedTally(total, Object.values(tasks))}.`
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

/** The report's headline: "Executed in matrix jobs: …" only when matrix jobs carried the execution out. */
export function reportHeadline(record: ExecutionRecord | undefined, headline: string): string {
  return `${record?.matrix ? 'Executed in matrix jobs' : 'Executed'}: ${headline}`
}
