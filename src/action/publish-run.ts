/**
 * The one way a report reaches GitHub: a check run `converge / ISS-<n>` (live through a run, or made in one
 * request), the work branch's draft pull request, and the sticky comment that links to them. A token without
 * `checks: write` only costs the check run, with a warning. Dry runs only render.
 */
import { CheckRun, CheckRunPermissionError, publishCheckRun, type CheckRunConclusion, type CheckRunOutput } from '../github/check-runs.js'
import { upsertStickyComment } from '../github/comments.js'
import { upsertDraftPullRequest } from '../github/pull-requests.js'
import { defaultBranch } from '../github/repos.js'
import { failureAnnotations } from '../report/annotations.js'
import { renderCheckRun } from '../report/check-run.js'
import { renderIssueComment } from '../report/issue-comment.js'
import { renderJobSummary } from '../report/job-summary.js'
import { pullRequestTitle, renderPullRequestBody } from '../report/pull-request-body.js'
import type { RunReport } from '../report/run-report.js'
import type { Session } from './session.js'

/**
 * The links footer of the comment names this run and its check run, which differ every time: new links
 * alone are no reason to edit the comment (the old ones still work); a change of content refreshes them.
 */
export const LINKS_FOOTER = /<sub>[^\n]*<\/sub>\s*$/

/**
 * Shows a report where people look: a check run on the run's commit when the state changed (`check` overrides
 * what it says), then the sticky comment, which links to it.
 */
export async function publish(
  session: Session, report: RunReport, changed: boolean, check?: { title: string; summary: string; conclusion: CheckRunConclusion },
) {
  const { client, ctx, inputs } = session
  const n = report.issue.number
  let checkRun: { id: number; url: string | undefined } | undefined
  let warning: string | undefined
  if (!inputs['dry-run'] && changed && ctx.sha) {
    const output = check ?? renderCheckRun(report)
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
  const commentId = await postComment(session, linked)
  return {
    ids: { ...(commentId ? { commentId } : {}), ...(checkRun ? { checkRunId: checkRun.id } : {}) },
    summary: renderJobSummary(linked),
    warning,
  }
}

/** A live check run, `in_progress` on `headSha` until {@link publishRun} completes it; none in a dry run. */
export async function startCheckRun(
  session: Session, n: number, headSha: string | undefined, taskCount: number, output: CheckRunOutput,
): Promise<{ check?: CheckRun; warning?: string }> {
  const { client, ctx, inputs } = session
  if (inputs['dry-run'] || !headSha) return {}
  try {
    return { check: await CheckRun.start(client, ctx.repo, { issueNumber: n, headSha, taskCount, output, ...(ctx.runUrl ? { detailsUrl: ctx.runUrl } : {}) }) }
  } catch (error) {
    if (!(error instanceof CheckRunPermissionError)) throw error
    return { warning: error.message }
  }
}

/**
 * Publishes what a run did: the draft pull request of `branch` (a work branch on GitHub), the live check run
 * completed with the verdict (on the pull request's head too when that is another commit), and the comment.
 */
export async function publishRun(
  session: Session, report: RunReport, run: { check?: CheckRun | undefined; checkRunSha?: string | undefined; branch?: string | undefined },
): Promise<{ report: RunReport; commentId?: number; pullRequestNumber?: number }> {
  const n = report.issue.number
  let pullRequestNumber: number | undefined
  if (run.branch) {
    const published = await publishPullRequest(session, n, run.branch, report, run.check ? run.checkRunSha : undefined)
    pullRequestNumber = published.number
    report = published.report
  }
  if (run.check) {
    const output = renderCheckRun(report)
    await run.check.complete({
      conclusion: output.conclusion ?? 'neutral',
      output: { title: output.title, summary: output.summary },
      annotations: failureAnnotations(report.execution, session.repoDir),
    })
  }
  const commentId = await postComment(session, report)
  return { report, ...(commentId ? { commentId } : {}), ...(pullRequestNumber ? { pullRequestNumber } : {}) }
}

/** The sticky comment (`github/comments.ts`), unless this is a dry run. */
async function postComment(session: Session, report: RunReport): Promise<number | undefined> {
  if (session.inputs['dry-run']) return undefined
  return (await upsertStickyComment(session.client, session.ctx.repo, report.issue.number, renderIssueComment(report), LINKS_FOOTER)).id
}

/**
 * Opens or updates the work branch's draft pull request from `report`; then, when its head is not the
 * commit this run's check run is on, puts the verdict on the pull request's head too.
 */
async function publishPullRequest(
  session: Session, n: number, branch: string, report: RunReport, checkRunSha: string | undefined,
): Promise<{ number: number; report: RunReport }> {
  const { client, ctx } = session
  const repository = ctx.payload.repository as { default_branch?: string } | undefined
  const pull = await upsertDraftPullRequest(client, ctx.repo, {
    head: branch,
    base: repository?.default_branch ?? (await defaultBranch(client, ctx.repo)),
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
