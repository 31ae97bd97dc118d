/**
 * Why one agent run ends its task at once: no second attempt, and no verification of what it left. Two reasons:
 * its credentials were refused (another run fails the same way, and there is no work to verify), or it reached
 * `max-turns` (the limit is the workflow's; what it did so far is not accepted).
 */
import type { AgentReport } from '../model/index.js'
import { credentialFailure, credentialFailureText } from './credentials.js'
import type { AgentPreset } from './presets.js'

/** How a CLI that stops itself at its turn limit says so: Claude Code's `error_max_turns`, Gemini CLI's words. */
const TURN_LIMIT_REACHED = /max[ _-]?turns|max session turns/i

export interface AgentRun {
  exitCode: number | null
  agent: AgentReport | null
  outputTail: string
}

/** The reason `run` ends its task, for the task's error, the comment and the CLI; undefined when it does not. */
export function runStop(run: AgentRun, preset: AgentPreset | undefined, maxTurns: number | undefined): string | undefined {
  const credentials = credentialFailure(run, preset)
  if (credentials) return credentialFailureText(credentials)
  if (maxTurns === undefined) return undefined
  const turns = run.agent?.usage.turns
  if (turns !== null && turns !== undefined && turns > maxTurns) return `the agent took ${turns} turns, more than max-turns ${maxTurns}`
  const said = run.agent?.error
  if (said && TURN_LIMIT_REACHED.test(said)) return `the agent stopped at max-turns ${maxTurns}: ${said.split('\n')[0]!.trim()}`
  return undefined
}
