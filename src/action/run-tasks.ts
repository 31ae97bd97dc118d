/**
 * `execute`, `retry` and `verify` in a workflow run: the gate, the work branch, the live check run, the
 * draft pull request and the sticky comment around the pipeline's `executeIssue` / `verifyIssue`.
 */
import { plural } from '../report/markdown.js'
import { join } from 'node:path'
import { pullRequestHead } from '../github/pull-requests.js'
import type { EvidenceSettings } from '../execute/baseline.js'
import { checkoutCommit } from '../git/checkout.js'
import { ACTIONS_BOT_IDENTITY } from '../git/work-branch.js'
import { approveIfPassing } from '../pipeline/approve.js'
import { autoApproval, unconfirmedApproval } from './approval-event.js'
import { issueFilePaths, readIssueFiles } from '../pipeline/issue-files.js'
import { executeIssue, verifyIssue, type RunPlanOptions, type RunPlanResult } from '../pipeline/run-plan.js'
import { RunBranch } from '../pipeline/run-branch.js'
import { runSetup } from '../pipeline/setup-command.js'
import { gateRefusal } from '../pipeline/run-start.js'
import { renderCheckRun } from '../report/check-run.js'
import { convergedTally } from '../report/evidence-words.js'
import { renderJobSummary } from '../report/job-summary.js'
import type { RunReport } from '../report/run-report.js'
import { pullRequestBaseline, treesDiffer } from './pull-request-baseline.js'
import { publishRun, startCheckRun } from './publish-run.js'
import { gitRemote, refusedOnIssue, reportBase, type Outcome, type Session } from './session.js'

export interface RunRequest {
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

export async function runTasks(session: Session, request: RunRequest): Promise<Outcome> {
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

  const common: RunPlanOptions = {
    repoDir: session.repoDir,
    workRoot: join(session.tempDir, 'converge'),
    maxParallel: inputs['max-parallel'],
    timeoutMs: inputs['task-timeout-minutes'] * 60_000,
    secrets: session.secrets,
    now: () => new Date().toISOString(),
    missingProgramFix: "Install the project's dependencies in a step before Converge, or give the command that does: the action's setup-command input (setup-command: npm ci)",
    // One run of a plan at a time; a run that died holding it is taken over after the longest a task can go
    // without recording a result (each executor and command run within the timeout), or at once by its own re-run.
    ...(ctx.runUrl ? { holder: { run: ctx.runUrl, staleAfterMs: inputs['task-timeout-minutes'] * 60_000 * (2 * inputs['max-iterations'] + 2) } } : {}),
    ...(session.signal ? { signal: session.signal } : {}),
    onProgress: (record, solution) => {
      const done = Object.keys(record.tasks).length
      check?.progress(renderCheckRun({ ...base, status: 'executing', solution, execution: record }), done)
    },
  }
  const workBranch = new RunBranch({ n, repoDir: session.repoDir, remote, identity: ACTIONS_BOT_IDENTITY, allowDirty: inputs['allow-dirty'] })
  const runPlan = (): Promise<RunPlanResult> => {
    // The setup command (the project's dependencies installed) before any check, in the checkout the checks run in.
    const setup = inputs['setup-command']
    const prepare = setup ? () => runSetup(setup, { cwd: session.repoDir, env: session.executorEnv, timeoutMs: common.timeoutMs, secrets: session.secrets, ...(session.signal ? { signal: session.signal } : {}) }) : undefined
    if (mode === 'verify') return verifyIssue(store, n, { ...common, evidence, ...(prepare ? { beforeTasks: prepare } : {}) })
    return executeIssue(store, n, {
      ...common,
      executorCommand: inputs['executor-command'],
      maxIterations: inputs['max-iterations'],
      onFailure: inputs['on-failure'],
      maxRetries: inputs['max-retries'],
      maxErrors: inputs['max-errors'],
      executorEnv: session.executorEnv,
      evidence,
      ...(inputs['max-cost-usd'] !== undefined ? { maxCostUsd: inputs['max-cost-usd'] } : {}),
      ...(inputs['max-turns'] !== undefined ? { maxTurns: inputs['max-turns'] } : {}),
      ...(request.retry ? { retry: request.retry } : {}),
      ...(write
        ? {
            beforeTasks: async () => {
              // Before the work branch is prepared: what the setup command leaves that git tracks is refused like any
              // change a step before Converge made, not committed with a task.
              await prepare?.()
              await workBranch.prepare()
            },
            committer: workBranch.committer(),
          }
        : {}),
    })
  }

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
function headlineOf(request: RunRequest, result: Extract<RunPlanResult, { ok: true }>, cancelled: boolean): string {
  const { record, plan, issue } = result
  const tally = convergedTally(plan.tasks.length, Object.values(record.tasks))
  // A cancelled job (SIGINT / SIGTERM) ends its run as stopped, but no one stopped it at an action boundary.
  if (cancelled && record.status === 'stopped') return `${request.headline}; cancelled (${tally}): execute again to go on from there.`
  if (record.status === 'paused' || record.status === 'stopped') return `${request.headline}; ${record.status} at an action boundary (${tally}).`
  if (issue.error) return `${request.headline}: ${tally}. ${issue.error}.`
  return `${request.headline}: ${tally}.`
}

