/**
 * `execute` on an issue that is blocked by others runs only once they are done: completed in the state, or
 * closed on GitHub. Until then the issue's comment and check run say what it waits for, and the step ends with a
 * notice (waiting is not a failure of Converge).
 */
import { CheckRunPermissionError, publishCheckRun } from '../github/check-runs.js'
import { upsertStickyComment } from '../github/comments.js'
import { readIssue } from '../github/issues.js'
import type { IssueState } from '../model/index.js'
import { issueFilePaths, readIssueFiles } from '../pipeline/issue-files.js'
import { blockerStatus } from '../queue/blockers.js'
import { renderIssueComment } from '../report/issue-comment.js'
import { renderJobSummary } from '../report/job-summary.js'
import type { RunReport } from '../report/run-report.js'
import { LINKS_FOOTER, reportBase, type Outcome, type Session } from './session.js'

export interface OpenBlocker {
  number: number
  /** Its status in the state, or `not planned` when Converge has not seen it. */
  status: string
}

/**
 * The issues `n` is blocked by that are not done yet (`issue`: its state, when the caller has just read it).
 * Two requests per blocker (is it closed on GitHub? its state), none for an issue blocked by nothing.
 */
export async function openBlockersOf(session: Session, n: number, issue?: Pick<IssueState, 'blocked_by'>): Promise<OpenBlocker[]> {
  issue ??= (await readIssueFiles(await session.store.snapshot(issueFilePaths(n)), n, session.now)).issue
  const open: OpenBlocker[] = []
  for (const blocker of issue?.blocked_by ?? []) {
    if ((await readIssue(session.client, session.ctx.repo, blocker)).state === 'closed') continue
    const { issue: state } = await readIssueFiles(await session.store.snapshot(issueFilePaths(blocker)), blocker, session.now)
    if (state?.status === 'completed') continue
    open.push({ number: blocker, status: blockerStatus(state?.status) })
  }
  return open
}

/** "waits for #12 (executing), #13 (planned): execute again when they are done" */
export function waitingMessage(blockers: readonly OpenBlocker[]): string {
  const they = blockers.length === 1 ? 'it is' : 'they are'
  return `waits for ${blockers.map((b) => `#${b.number} (${b.status})`).join(', ')}: execute again when ${they} done`
}

/** Says on the issue (comment, check run) and in the step that `n` waits for `blockers`, and runs nothing. */
export async function waitForBlockers(session: Session, n: number, blockers: readonly OpenBlocker[]): Promise<Outcome> {
  const { client, ctx, inputs } = session
  const { issue, plan } = await readIssueFiles(await session.store.snapshot(issueFilePaths(n)), n, session.now)
  const message = `ISS-${n} ${waitingMessage(blockers)}.`
  let checkRunId: number | undefined
  let checkRunUrl: string | undefined
  let warning: string | undefined
  if (!inputs['dry-run'] && ctx.sha) {
    try {
      const check = await publishCheckRun(client, ctx.repo, {
        issueNumber: n, headSha: ctx.sha, conclusion: 'neutral',
        title: `Waits for ${blockers.map((b) => `#${b.number}`).join(', ')}`, summary: message,
        ...(ctx.runUrl ? { detailsUrl: ctx.runUrl } : {}),
      })
      checkRunId = check.id
      checkRunUrl = check.url
    } catch (error) {
      if (!(error instanceof CheckRunPermissionError)) throw error
      warning = error.message
    }
  }
  const base = reportBase(session, n, issue?.title ?? `#${n}`)
  const report: RunReport = {
    ...base,
    status: issue?.status ?? 'planned',
    headline: message,
    ...(plan ? { solution: plan } : {}),
    ...(checkRunUrl ? { links: { ...base.links, checkRun: checkRunUrl } } : {}),
  }
  const commentId = inputs['dry-run'] ? undefined : (await upsertStickyComment(client, ctx.repo, n, renderIssueComment(report), LINKS_FOOTER)).id
  return {
    status: 'blocked',
    issueNumber: n,
    ...(plan ? { solution: plan } : {}),
    ...(commentId ? { commentId } : {}),
    ...(checkRunId ? { checkRunId } : {}),
    summary: renderJobSummary(report),
    notice: `Converge: ${message}`,
    ...(warning ? { warning } : {}),
  }
}
