import { CheckRunPermissionError, publishCheckRun, type CheckRun } from '../github/check-runs.js'
import type { GitHubClient } from '../github/client.js'
import { upsertDraftPullRequest } from '../github/pull-requests.js'
import type { GitRemote } from '../git/work-branch.js'
import { replyToIssue, upsertStickyComment } from '../github/comments.js'
import type { ExecutionRecord, IssueStatus, QualityGate, Solution } from '../model/index.js'
import { failureAnnotations } from '../report/annotations.js'
import { renderCheckRun } from '../report/check-run.js'
import { renderIssueComment } from '../report/issue-comment.js'
import { renderJobSummary } from '../report/job-summary.js'
import { pullRequestTitle, renderPullRequestBody } from '../report/pull-request-body.js'
import type { RunReport } from '../report/run-report.js'
import type { StateStore } from '../state/store.js'
import type { CheckoutProtection } from './checkout-credentials.js'
import type { RunContext } from './context.js'
import type { ActionInputs } from './inputs.js'

export interface Session {
  inputs: ActionInputs
  ctx: RunContext
  client: GitHubClient
  store: StateStore
  now: string
  /** The checked-out repository tasks run in (`working-directory` inside `GITHUB_WORKSPACE`). */
  repoDir: string
  /** Scratch space for per-task files (`RUNNER_TEMP`). */
  tempDir: string
  /** Aborted when the job is cancelled. */
  signal?: AbortSignal
  /** Values never shown anywhere: the token, its encoded forms, the executor's credentials. */
  secrets: string[]
  /** What the executor gets beyond the scrubbed base environment (its API keys). */
  executorEnv: Record<string, string>
  /** What a planner command gets beyond the scrubbed base environment: the variables `planner-env` lists. */
  plannerEnv: Record<string, string>
  /** Removes the credentials a checkout step persisted, before the first command runs in the checkout. */
  checkout: CheckoutProtection
}

/** What a command did: the action turns it into outputs, a job summary and the step's result. */
export interface Outcome {
  /** `blocked`: `execute` waits for the issues this one is blocked by (nothing ran). */
  status: IssueStatus | 'refused' | 'unknown-command' | 'unavailable' | 'synced' | 'no-issue' | 'blocked'
  issueNumber?: number
  solution?: Solution
  gate?: QualityGate
  commentId?: number
  checkRunId?: number
  execution?: ExecutionRecord
  pullRequestNumber?: number
  /** `matrix`: the ready tasks as a job matrix, `{"include":[{"issue":42,"task":"T2"},…]}`. */
  matrix?: string
  /** Markdown for the job summary. */
  summary: string
  /** The step fails with this message. */
  failure?: string
  /** The step succeeds, with this warning. */
  warning?: string
  /** The step succeeds, with this notice (what it waits for). */
  notice?: string
}

/**
 * The links footer of the comment names this run and its check run, which differ every time: new links
 * alone are no reason to edit the comment (the old ones still work); a change of content refreshes them.
 */
export const LINKS_FOOTER = /<sub>[^\n]*<\/sub>\s*$/

/**
 * Shows a report where people look: a check run `converge / ISS-<n>` on the run's commit when the state
 * changed (a token without `checks: write` only costs the check run, with a warning), then the sticky
 * comment, which links to it. Dry runs only render.
 */
export async function publish(session: Session, report: RunReport, changed: boolean) {
  const { client, ctx, inputs } = session
  const n = report.issue.number
  let checkRun: { id: number; url: string | undefined } | undefined
  let warning: string | undefined
  if (!inputs['dry-run'] && changed && ctx.sha) {
    const output = renderCheckRun(report)
    try {
      checkRun = await publishCheckRun(client, ctx.repo, {
        issueNumber: n, headSha: ctx.sha, title: output.title, summary: output.summary,
        ...(report.execution ? { annotations: failureAnnotations(report.execution, session.repoDir) } : {}),
        ...(output.conclusion ? { conclusion: output.conclusion } : {}),
        ...(ctx.runUrl ? { detailsUrl: ctx.runUrl } : {}),
      })
    } catch (error) {
      if (!(error instanceof CheckRunPermissionError)) throw error
      warning = error.message
    }
  }
  const linked: RunReport = checkRun?.url ? { ...report, links: { ...report.links, checkRun: checkRun.url } } : report
  const commentId = inputs['dry-run']
    ? undefined
    : (await upsertStickyComment(client, ctx.repo, n, renderIssueComment(linked), LINKS_FOOTER)).id
  return {
    ids: { ...(commentId ? { commentId } : {}), ...(checkRun ? { checkRunId: checkRun.id } : {}) },
    summary: renderJobSummary(linked),
    warning,
  }
}

/** Completes a run's live check run with the report's verdict, and annotations on the lines its commands failed on. */
export async function completeCheckRun(check: CheckRun, report: RunReport, repoDir: string): Promise<void> {
  const output = renderCheckRun(report)
  await check.complete({
    conclusion: output.conclusion ?? 'neutral',
    output: { title: output.title, summary: output.summary },
    annotations: failureAnnotations(report.execution, repoDir),
  })
}

export async function refusedOnIssue(session: Session, n: number, where: number, reason: string): Promise<Outcome> {
  if (!session.inputs['dry-run']) await replyToIssue(session.client, session.ctx.repo, where, `Converge: ${reason}`)
  return { status: 'refused', issueNumber: n, summary: reason, warning: reason }
}

export function reportBase(session: Session, n: number, title: string): Omit<RunReport, 'status'> {
  const { ctx, inputs } = session
  return {
    issue: { number: n, title },
    commandPrefix: inputs['command-prefix'],
    secrets: session.secrets,
    ...(session.checkout.notes.length ? { security: [...session.checkout.notes] } : {}),
    links: {
      stateBranch: `${ctx.serverUrl}/${ctx.repo.owner}/${ctx.repo.repo}/blob/${inputs['state-branch']}`,
      ...(ctx.runUrl ? { run: ctx.runUrl } : {}),
    },
  }
}

/** The repository over git's HTTP, pushed to with the workflow token (sent as a header, never in the URL). */
export function gitRemote(session: Session): GitRemote {
  const { ctx, inputs } = session
  return { url: `${ctx.serverUrl}/${ctx.repo.owner}/${ctx.repo.repo}.git`, token: inputs['github-token'] }
}

/**
 * Opens or updates the work branch's draft pull request from `report`; then, when its head is not the
 * commit this run's check run is on, puts the verdict on the pull request's head too.
 */
export async function publishPullRequest(
  session: Session, n: number, branch: string, report: RunReport, checkRunSha: string | undefined,
): Promise<{ number: number; report: RunReport }> {
  const { client, ctx } = session
  const repository = ctx.payload.repository as { default_branch?: string } | undefined
  const pull = await upsertDraftPullRequest(client, ctx.repo, {
    head: branch,
    base: repository?.default_branch ?? (await client.rest.repos.get({ ...ctx.repo })).data.default_branch,
    title: pullRequestTitle(n, report.issue.title),
    body: renderPullRequestBody(report),
  })
  const linked: RunReport = { ...report, links: { ...report.links, pullRequest: pull.url } }
  if (checkRunSha && pull.headSha !== checkRunSha) {
    const output = renderCheckRun(linked)
    // The check run the pull request shows carries the same annotations as the run's own.
    await publishCheckRun(client, ctx.repo, {
      issueNumber: n, headSha: pull.headSha, title: output.title, summary: output.summary, conclusion: output.conclusion ?? 'neutral',
      annotations: failureAnnotations(report.execution, session.repoDir),
      ...(ctx.runUrl ? { detailsUrl: ctx.runUrl } : {}),
    })
  }
  return { number: pull.number, report: linked }
}
