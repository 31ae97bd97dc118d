/**
 * The setup command of an issue: what prepares a fresh checkout of its work so that its checks can run there (the
 * project's dependencies installed: `npm ci`), given once (`converge verify --setup`, the action's `setup-command`)
 * and kept in `issue.json` for the next verify.
 */
import { runCommand } from '../processes/run-command.js'
import { statePaths, toStateJson } from '../model/state-layout.js'
import { transact, type StateStore } from '../state/store.js'
import { issueFilePaths, readIssueFiles } from './issue-files.js'

/** Records `command` as the issue's setup command; false when the issue is not known. */
export async function recordSetupCommand(store: StateStore, n: number, command: string, now: string): Promise<boolean> {
  let known = false
  await transact(
    store,
    async (snapshot) => {
      const { issue } = await readIssueFiles(snapshot, n, now)
      known = issue !== undefined
      if (!issue || issue.setup_command === command) return null
      return { message: `ISS-${n}: setup command \`${command}\``, files: { [statePaths.issue(n)]: toStateJson({ ...issue, setup_command: command, updated_at: now }) } }
    },
    { prefetch: issueFilePaths(n) },
  )
  return known
}

/** The issue's recorded setup command, if any. */
export async function setupCommandOf(store: StateStore, n: number): Promise<string | undefined> {
  const { issue } = await readIssueFiles(await store.snapshot(issueFilePaths(n)), n, new Date().toISOString())
  return issue?.setup_command
}

/** Runs the setup command in a checkout; a failure throws, saying how it failed and its last lines (no check runs). */
export async function runSetup(
  setup: string, options: { cwd: string; env: Record<string, string>; timeoutMs: number; secrets?: readonly string[]; signal?: AbortSignal },
): Promise<void> {
  const run = await runCommand({ command: setup, ...options })
  if (run.exitCode === 0) return
  const how = run.timedOut ? 'timed out' : run.exitCode === null ? `was killed by ${run.signal ?? 'a signal'}` : `exited with code ${run.exitCode}`
  const last = run.outputTail.trim().split('\n').slice(-5).join('\n')
  throw new Error(`the setup command \`${setup}\` ${how}${last ? `:\n${last}` : ''}`)
}
