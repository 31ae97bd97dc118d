import type { GitHubClient } from '../github/client.js'
import type { GitRemote } from '../git/work-branch.js'
import { replyToIssue } from '../github/comments.js'
import type { ExecutionRecord, IssueStatus, QualityGate, Solution } from '../model/index.js'
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
