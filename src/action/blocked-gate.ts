/**
 * `execute` on an issue that is blocked by others runs only once they are done: completed in the state, or
 * closed on GitHub. Until then the issue's comment and check run say what it waits for, and the step ends with a
 * notice (waiting is not a failure of Converge).
 */
import { readIssue } from '../github/issues.js'
import type { IssueState } from '../model/index.js'
import { issueFilePaths, readIssueFiles } from '../pipeline/issue-files.js'
import { blockerStatus } from '../queue/blockers.js'
import { publish } from './publish-run.js'
import { reportBase, type Outcome, type Session } from './session.js'

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
  const { issue, plan } = await readIssueFiles(await session.store.snapshot(issueFilePaths(n)), n, session.now)
  const message = `ISS-${n} ${waitingMessage(blockers)}.`
  const published = await publish(session, {
    ...reportBase(session, n, issue?.title ?? `#${n}`),
    status: issue?.status ?? 'planned',
    headline: message,
    ...(plan ? { solution: plan } : {}),
  }, true, { title: `Waits for ${blockers.map((b) => `#${b.number}`).join(', ')}`, summary: message, conclusion: 'neutral' })
  return {
    status: 'blocked',
    issueNumber: n,
    ...(plan ? { solution: plan } : {}),
    ...published.ids,
    summary: published.summary,
    notice: `Converge: ${message}`,
    ...(published.warning ? { warning: published.warning } : {}),
  }
}
