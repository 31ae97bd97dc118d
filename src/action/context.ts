import { context as runnerContext } from '@actions/github'
import type { RepoRef } from '../github/issues.js'

/** What the runner tells the action about the run, as Converge uses it. */
export interface RunContext {
  repo: RepoRef
  eventName: string
  payload: Record<string, unknown>
  serverUrl: string
  /** `GITHUB_ACTOR`: who started the run, when the event does not say. */
  actor?: string
  /** Link to this workflow run, for the reports. */
  runUrl?: string
  sha?: string
}

type ActionsContext = typeof runnerContext

/**
 * The run as `@actions/github`'s `context` reads it from the runner's `GITHUB_*` environment and event file
 * (GitHub Enterprise Server included: `GITHUB_SERVER_URL`).
 */
export function readRunContext(context: ActionsContext = runnerContext): RunContext {
  let repo: RepoRef
  try {
    repo = context.repo
  } catch {
    throw new Error('GITHUB_REPOSITORY is not set: Converge runs as a step of a GitHub Actions workflow')
  }
  const serverUrl = context.serverUrl.replace(/\/+$/, '')
  return {
    repo,
    eventName: context.eventName ?? '',
    payload: context.payload as Record<string, unknown>,
    serverUrl,
    ...(context.actor ? { actor: context.actor } : {}),
    ...(Number.isInteger(context.runId) && context.runId > 0 ? { runUrl: `${serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${context.runId}` } : {}),
    ...(context.sha ? { sha: context.sha } : {}),
  }
}
