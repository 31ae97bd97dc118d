/**
 * Scale-out in the action: the host, on GitHub, of the flow in `src/pipeline/scale-out/` (SPEC §11). `matrix`
 * emits the ready tasks as a job matrix, `execute-task` runs one of them in a matrix job, `report` aggregates the
 * results and publishes them. The CLI's host of the same flow is `src/cli/commands/scale-out.ts`.
 *
 * ```yaml
 * plan:    converge command: matrix            → outputs.matrix = {"include":[{"issue":42,"task":"T2"},…]}
 * execute: strategy.matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}
 *          converge command: execute-task ${{ matrix.task }}, issue-number: ${{ matrix.issue }}
 * report:  converge command: report            (needs: execute, if: always())
 * ```
 *
 * The matrix jobs publish nothing but their job summary: they record their results on the state branch and
 * push their commits to the work branch, concurrently (see src/pipeline/scale-out/ and `pushRetries` of
 * WorkBranch); the report job turns the results into the issue's status, the sticky comment, the check run
 * and the draft pull request.
 */
import type { Solution } from '../model/index.js'
import { branchExists } from '../github/repos.js'
import { actionRunRequest } from './inputs.js'
import { workBranchName } from '../model/state-layout.js'
import type { TaskResult } from '../model/index.js'
import { analysePlan } from '../plan/analyse.js'
import { approveIfPassing } from '../pipeline/approve.js'
import { autoApproval, unconfirmedApproval } from './approval-event.js'
import { issueFilePaths, readIssueFiles } from '../pipeline/issue-files.js'
import { executeTask } from '../pipeline/scale-out/execute-task.js'
import { runOf } from '../pipeline/run-request.js'
import { planMatrix } from '../pipeline/scale-out/matrix.js'
import { EMPTY_MATRIX } from '../pipeline/scale-out/readiness.js'
import { issuesToReport, reportHeadline, reportIssue } from '../pipeline/scale-out/report.js'
import { renderCheckRun } from '../report/check-run.js'
import { renderJobSummary } from '../report/job-summary.js'
import type { RunReport } from '../report/run-report.js'
import { renderTaskEvent } from '../report/task-event.js'
import { publishRun, startCheckRun } from './publish-run.js'
import { refusedOnIssue, reportBase, type Outcome, type Session } from './session.js'

export interface ScaleOutRequest {
  /** The issue, when the command names one (input issue-number, or the issue commented on). */
  n?: number
  actor: string
  args: string[]
  /** Where refusals are answered (0: nowhere, e.g. a workflow_dispatch without issue). */
  where: number
}

/**
 * How often a matrix job rebases its commit onto what the other jobs pushed and pushes again. With backoff
 * (at most 8 s a wait) this outlasts dozens of jobs finishing at the same moment.
 */
const PUSH_RETRIES = 12

/** `matrix`: the ready tasks of the issue, or of every planned, queued or executing issue of the run state. */
export async function matrixCommand(session: Session, request: ScaleOutRequest): Promise<Outcome> {
  const { inputs, store } = session
  const n = request.n || undefined
  const planned = await planMatrix(store, n ? { issue: n } : 'repository', {
    now: session.now,
    onFailure: inputs['on-failure'],
    maxErrors: inputs['max-errors'],
    ...(inputs['auto-approve'] ? { autoApproveAs: request.actor } : {}),
  })
  if (n) {
    const entry = planned.issues[0]!
    if (entry.refused) {
      const refused = await refusedOnIssue(session, n, request.where || n, entry.refused)
      return { ...refused, matrix: EMPTY_MATRIX, summary: planned.summary }
    }
    return {
      status: entry.issue!.status,
      issueNumber: n,
      solution: entry.plan!,
      ...(entry.record ? { execution: entry.record } : {}),
      gate: analysePlan(entry.plan!).gate,
      matrix: planned.json,
      summary: planned.summary,
    }
  }
  const failed = planned.issues.some((i) => i.readiness && i.readiness.failed.length > 0)
  return {
    // The whole repository: `queued` while tasks are in the matrix, else `failed` when failed tasks hold work back.
    status: planned.include.length ? 'queued' : failed ? 'failed' : 'completed',
    matrix: planned.json,
    summary: planned.summary,
  }
}

/** `execute-task <id>`: one task in a matrix job; its result goes to the state branch, its commit to the work branch. */
export async function executeTaskCommand(session: Session, request: ScaleOutRequest): Promise<Outcome> {
  const { inputs, store } = session
  const n = request.n
  const taskId = request.args[0]
  if (!n) return refused(undefined, '`execute-task` needs an issue: set the issue-number input')
  if (!taskId) return refused(n, '`execute-task` needs a task id: `execute-task T2`')
  const write = !inputs['dry-run']
  const unconfirmed = await unconfirmedApproval(session, n, await autoApprove(session, n, request.actor))
  if (unconfirmed) return refused(n, unconfirmed)
  await session.checkout.beforeCommands()

  const run = runOf(actionRunRequest(session), n, { commit: write, pushRetries: PUSH_RETRIES })
  const result = await executeTask(store, n, taskId, run.options)
  if (!result.ok) {
    const context = { ...(result.plan ? { solution: result.plan } : {}) }
    // Recorded as started, then it could not run (the work branch, a cancelled job): the job fails.
    if (result.started) return { status: 'failed', issueNumber: n, ...context, summary: `ISS-${n}: ${result.reason}.`, failure: `ISS-${n}: ${result.reason}` }
    return { ...refused(n, result.reason), ...context }
  }

  const { task, plan } = result
  const title = `ISS-${n} · ${task.id}: ${task.title}`
  let verdict: string
  let status: Outcome['status']
  if (result.interrupted) {
    verdict = `${result.interrupted} before it finished: nothing recorded, \`resume\` continues`
    status = result.interrupted === 'paused' ? 'paused' : 'failed'
  } else if (!result.ran) {
    verdict = 'converged already: not run again'
    status = 'completed'
  } else {
    const r = result.result!
    verdict = r.status === 'completed' ? `converged${r.commit_hash ? ` (commit \`${r.commit_hash.slice(0, 7)}\`)` : ' (no changes to commit)'}` : 'failed'
    status = taskStatus(r)
  }
  const lines = [`### ${title} — ${verdict}`, '']
  if (result.result) lines.push(renderTaskEvent(task, result.result, result.result.executed_at ?? session.now, session.secrets))
  lines.push(`The result is recorded on \`${inputs['state-branch']}\`; the \`report\` job publishes the issue comment, the check run and the pull request.`)
  return {
    status,
    issueNumber: n,
    solution: plan,
    execution: result.record,
    summary: `${lines.join('\n')}\n`,
    ...(status === 'failed' && !result.interrupted ? { warning: `ISS-${n}: ${task.id} failed: ${result.result?.error ?? 'not converged'}` } : {}),
  }
}

/** `report`: the issue's status from the matrix jobs' results, published (comment, check run, pull request, summary). */
export async function reportCommand(session: Session, request: ScaleOutRequest): Promise<Outcome> {
  if (request.n) return reportOne(session, request.n)
  // The whole repository: every issue whose matrix execution is still open.
  const numbers = await issuesToReport(session.store)
  if (numbers.length === 0) {
    const message = 'Report: no issue has matrix results waiting to be reported.'
    return { status: 'no-issue', summary: message }
  }
  const outcomes: Outcome[] = []
  for (const n of numbers) outcomes.push(await reportOne(session, n))
  if (outcomes.length === 1) return outcomes[0]!
  const statuses = outcomes.map((o) => o.status)
  const warnings = outcomes.flatMap((o) => (o.warning ? [o.warning] : []))
  return {
    status: statuses.includes('executing') ? 'executing' : statuses.includes('failed') ? 'failed' : 'completed',
    summary: outcomes.map((o) => o.summary).join('\n\n---\n\n'),
    ...(warnings.length ? { warning: warnings.join('; ') } : {}),
  }
}

async function reportOne(session: Session, n: number): Promise<Outcome> {
  const { inputs, ctx, client, store } = session
  const write = !inputs['dry-run']
  const result = await reportIssue(store, n, { now: session.now, secrets: session.secrets, onFailure: inputs['on-failure'], maxErrors: inputs['max-errors'] })
  if (!result.ok) return { status: 'no-issue', issueNumber: n, summary: result.reason, warning: result.reason }

  const base = reportBase(session, n, result.issue.title)
  let report: RunReport = {
    ...base,
    status: result.issue.status,
    headline: reportHeadline(result.record, result.headline),
    solution: result.plan,
    ...(result.record ? { execution: result.record } : {}),
  }
  const output = renderCheckRun(report)
  const { check, warning } = await startCheckRun(session, n, ctx.sha, result.plan.tasks.length, { title: output.title, summary: output.summary })
  if (check?.url) report = { ...report, links: { ...report.links, checkRun: check.url } }
  const branch = workBranchName(n)
  const published = await publishRun(session, report, {
    check, checkRunSha: ctx.sha, branch: write && result.record && (await branchExists(client, ctx.repo, branch)) ? branch : undefined,
  })
  const { commentId, pullRequestNumber } = published
  const checkRunId = check?.id
  return {
    status: result.issue.status,
    issueNumber: n,
    solution: result.plan,
    ...(result.record ? { execution: result.record } : {}),
    gate: analysePlan(result.plan).gate,
    ...(commentId ? { commentId } : {}),
    ...(checkRunId ? { checkRunId } : {}),
    ...(pullRequestNumber ? { pullRequestNumber } : {}),
    summary: renderJobSummary(published.report),
    ...(warning ? { warning } : {}),
  }
}

/** `auto-approve`, as `execute` does it: the asking actor approves a plan that passes its gate. Returns the plan. */
async function autoApprove(session: Session, n: number, actor: string): Promise<Solution | undefined> {
  const { plan } = await readIssueFiles(await session.store.snapshot(issueFilePaths(n)), n, session.now)
  if (!plan || !session.inputs['auto-approve']) return plan
  return (await approveIfPassing(session.store, n, plan, actor, session.now, autoApproval(session))).plan
}

/** A matrix job answers on no issue: N jobs would each post the same refusal. The job summary says why. */
function refused(n: number | undefined, reason: string): Outcome {
  return { status: 'refused', ...(n ? { issueNumber: n } : {}), summary: `Converge did not run the task: ${reason}.`, warning: reason }
}

function taskStatus(result: TaskResult): Outcome['status'] {
  return result.status === 'completed' ? 'completed' : 'failed'
}

