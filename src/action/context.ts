import { readFileSync } from 'node:fs'
import type { RepoRef } from '../github/issues.js'

/** What the runner tells the action about the run (the `GITHUB_*` environment). */
export interface RunContext {
  repo: RepoRef
  eventName: string
  payload: Record<string, unknown>
  serverUrl: string
  /** Link to this workflow run, for the reports. */
  runUrl?: string
  sha?: string
}

export function readRunContext(env: NodeJS.ProcessEnv): RunContext {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/')
  if (!owner || !repo) throw new Error('GITHUB_REPOSITORY is not set: Converge runs as a step of a GitHub Actions workflow')
  const eventPath = env.GITHUB_EVENT_PATH
  let payload: Record<string, unknown> = {}
  if (eventPath) {
    try {
      payload = JSON.parse(readFileSync(eventPath, 'utf8')) as Record<string, unknown>
    } catch (error) {
      throw new Error(`Cannot read the event payload at ${eventPath}: ${(error as Error).message}`)
    }
  }
  const serverUrl = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '')
  return {
    repo: { owner, repo },
    eventName: env.GITHUB_EVENT_NAME ?? '',
    payload,
    serverUrl,
    ...(env.GITHUB_RUN_ID ? { runUrl: `${serverUrl}/${owner}/${repo}/actions/runs/${env.GITHUB_RUN_ID}` } : {}),
    ...(env.GITHUB_SHA ? { sha: env.GITHUB_SHA } : {}),
  }
}
