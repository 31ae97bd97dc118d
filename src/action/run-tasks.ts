/**
 * `execute`, `retry` and `verify` in a workflow run: the gate, the work branch, the live check run, the
 * draft pull request and the sticky comment around the pipeline's `executeIssue` / `verifyIssue`.
 */
import { plural } from '../report/markdown.js'
import { pullRequestHead } from '../github/pull-requests.js'
import type { EvidenceSettings } from '../execute/baseline.js'
import { checkoutCommit } from '../git/checkout.js'
import { approveIfPassing } from '../pipeline/approve.js'
import { autoApproval, unconfirmedApproval } from './approval-event.js'
import { issueFilePaths, readIssueFiles } from '../pipeline/issue-files.js'
import { executeIssue, verifyIssue, type RunPlanResult } from '../pipeline/run-plan.js'
import { runOf } from '../pipeline/run-request.js'
import { actionRunRequest } from './inputs.js'
import type { ExecutionRecord, Solution } from '../model/index.js'
import { runSetup } from '../pipeline/setup-command.js'
import { gateRefusal } from '../pipeline/run-start.js'
import { renderCheckRun } from '../report/check-run.js'
import { convergedTally } from '../report/evidence-words.js'
import { renderJobSummary } from '../report/job-summary.js'
import type { RunReport } from '../report/run-report.js'
import { pullRequestBaseline, treesDiffer } from './pull-request-baseline.js'
import { publishRun, startCheckRun } from './publish-run.js'
import { gitRemote, refusedOnIssue, reportBase, type Outcome, type Session } from './session.js'

/** The command that asked for the run (`execute`, `retry`, `verify`): what the pipeline's `RunRequest` does not say. */
export interface RunCommand {
  mode: 'execute' | 'verify'
  n: number
  /** Who asked: named in the report, and the approver when `auto-approve` approves. */
  actor: string
  /** The issue or pull request refusals are answered on. */
  where: number
  /** `retry`: the tasks to run again (`failed`: every failed one). */
  retry?: readonly string[] | 'failed'
  /** `verify` on a pull request: its number (the checkout is moved to its head, and the check run goes there). */
  pullRequest?: number
  /** How the report starts, e.g. "Executed by @alice". */
  headline: string
}

export async function runTasks(session: Session, request: RunCommand): Promise<Outcome> {
  const { inputs, ctx, client, store } = session
  const { n, mode } = request
  const write = !inputs['dry-run']
  const stored = await readIssueFiles(await store.snapshot(issueFilePaths(n)), n, session.now)
  const plan = stored.plan && inputs['auto-approve']
    ? (await approveIfPassing(store, n, stored.plan, request.actor, session.now, autoApproval(session))).plan
    : stored.plan
  const unconfirmed = await unconfirmedApproval(session, n, plan)
  if (unconfirmed) return refusedOnIssue(session, n, request.where, unconfirmed)
  const remote = gitRemote(session)
  await session.checkout.beforeCommands()

  // verify on a pull request checks its head, which must not be a fork's code run with this run's token.
  let headSha = ctx.sha
  let evidence: EvidenceSettings = { measure: inputs.evidence !== 'off' }
  if (request.pullRequest !== undefined) {
    const head = await pullRequestHead(client, ctx.repo, request.pullRequest)
    if (head.fromFork)
      return refusedOnIssue(session, n, request.where, `pull request #${request.pullRequest} comes from the fork ${head.repository}: \`verify\` would run its code with this repository's token. Verify it in a \`pull_request\` workflow (read-only token), or push the branch to this repository.`)
    try {
      // The baseline on the base first, for an approved plan only (its commands are what was approved).
      const baselines = plan && evidence.measure && !gateRefusal(n, stored.issue, plan)
        ? await pullRequestBaseline(session.repoDir, plan, head.base, { remote, issue: n, timeoutMs: inputs['task-timeout-minutes'] * 60_000, secrets: session.secrets, ...(session.signal ? { signal: session.signal } : {}) })
        : undefined
      await checkoutCommit(session.repoDir, head.sha, { remote, ref: `refs/pull/${request.pullRequest}/head` })
      if (baselines) evidence = { measure: true, baselines, changed: await treesDiffer(session.repoDir, head.base.sha, head.sha) }
    } catch (error) {
      return refusedOnIssue(session, n, request.where, `cannot verify pull request #${request.pullRequest}: ${(error as Error).message}`)
    }
    headSha = head.sha
  }

  const base = reportBase(session, n, stored.issue?.title ?? `#${n}`)
  const { check, warning } = plan
    ? await startCheckRun(session, n, headSha, plan.tasks.length, {
        title: mode === 'verify' ? 'Verifying' : 'Executing', summary: `${mode === 'verify' ? 'Verifying' : 'Executing'} ${plural(plan.tasks.length, 'task')} of ${plan.id}.`,
      })
    : {}

  const onProgress = (record: ExecutionRecord, solution: Solution) => {
    const done = Object.keys(record.tasks).length
    check?.progress(renderCheckRun({ ...base, status: 'executing', solution, execution: record }), done)
  }
  // The setup command (the project's dependencies installed) before any check, in the checkout the checks run in.
  const setup = inputs['setup-command']
  const prepare = setup ? () => runSetup(setup, { cwd: session.repoDir, env: session.executorEnv, timeoutMs: inputs['task-timeout-minutes'] * 60_000, secrets: session.secrets, ...(session.signal ? { signal: session.signal } : {}) }) : undefined
  // A dry run of execute commits nothing and, as before the run request, runs no setup command either.
  const run = runOf(actionRunRequest(session, { onProgress }), n, { commit: write && mode === 'execute', evidence, ...(mode === 'execute' ? { retry: request.retry } : {}), before: mode === 'verify' || write ? prepare : undefined })
  const workBranch = run.branch
  const runPlan = () => (mode === 'verify' ? verifyIssue(store, n, run.options) : executeIssue(store, n, run.options))

  let result: RunPlanResult
  try {
    result = await runPlan()
  } catch (error) {
    // GitHub failing past the retries (the error fails the step): the check run says so instead of staying in
    // progress, if GitHub takes that.
    const title = `${mode === 'verify' ? 'Verification' : 'Execution'} stopped by an error`
    await check?.complete({ conclusion: 'failure', output: { title, summary: (error as Error).message } }).catch(() => {})
    throw error
  }
  if (!result.ok) {
    if (check) await check.complete({ conclusion: 'action_required', output: { title: `Cannot ${mode}`, summary: result.reason } })
    return refusedOnIssue(session, n, request.where, result.reason)
  }

  const report: RunReport = {
    ...base,
    status: result.issue.status,
    ...(result.issue.error ? { error: result.issue.error } : {}),
    headline: headlineOf(request, result, session.signal?.aborted ?? false),
    solution: result.plan,
    execution: result.record,
    ...(check?.url ? { links: { ...base.links, checkRun: check.url } } : {}),
  }
  const published = await publishRun(session, report, { check, checkRunSha: headSha, branch: workBranch.checkedOut?.published ? workBranch.name : undefined })
  const { commentId, pullRequestNumber } = published
  return {
    status: result.issue.status,
    issueNumber: n,
    solution: result.plan,
    execution: result.record,
    ...(commentId ? { commentId } : {}),
    ...(check ? { checkRunId: check.id } : {}),
    ...(pullRequestNumber ? { pullRequestNumber } : {}),
    summary: renderJobSummary(published.report),
    ...(warning ? { warning } : {}),
  }
}

/** What the run did, and when it failed, why — the first line people read. */
function headlineOf(request: RunCommand, result: Extract<RunPlanResult, { ok: true }>, cancelled: boolean): string {
  const { record, plan, issue } = result
  const tally = convergedTally(plan.tasks.length, Object.values(record.tasks))
  // A cancelled job (SIGINT / SIGTERM) ends its run as stopped, but no one stopped it at an action boundary.
  if (cancelled && record.status === 'stopped') return `${request.headline}; cancelled (${tally}): execute again to go on from there.`
  if (record.status === 'paused' || record.status === 'stopped') return `${request.headline}; ${record.status} at an action boundary (${tally}).`
  if (issue.error) return `${request.headline}: ${tally}. ${issue.error}.`
  return `${request.headline}: ${tally}.`
}

