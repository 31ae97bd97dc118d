/**
 * Evidence: the task's verification commands run in the checkout, each recorded as a check with its exit code,
 * duration, output tail and test counts. The validate phase judges these checks; a run of the same commands
 * before the executor (a baseline) would record its evidence here too.
 */
import { runCommand, type CommandResult } from '../processes/run-command.js'
import { parseTestCounts } from '../processes/test-counts.js'
import type { ConvergenceCheck } from '../model/index.js'

/** Where and how the verification commands run: the checkout, their complete environment, their timeout. */
export interface CheckLaunch {
  cwd: string
  env: Record<string, string>
  timeoutMs: number
  /** Masked in the recorded output. */
  secrets: readonly string[]
  signal?: AbortSignal
}

/**
 * Runs each command in turn, after `beforeEach` (which throws to stop: a pause or stop signal), and returns their
 * checks in the same order.
 */
export async function runChecks(
  commands: readonly string[], launch: CheckLaunch, beforeEach: (command: string) => Promise<void>,
): Promise<ConvergenceCheck[]> {
  const checks: ConvergenceCheck[] = []
  for (const command of commands) {
    await beforeEach(command)
    checks.push(commandCheck(command, await runCommand({ command, ...launch })))
  }
  return checks
}

function commandCheck(command: string, result: CommandResult): ConvergenceCheck {
  const counts = parseTestCounts(result.outputTail)
  return {
    kind: 'command',
    text: command,
    verdict: result.exitCode === 0 && !result.timedOut ? 'pass' : 'fail',
    verified_by: 'command',
    exit_code: result.exitCode,
    duration_ms: result.durationMs,
    timed_out: result.timedOut,
    output_tail: result.outputTail,
    ...(counts ? { tests_passed: counts.passed, tests_failed: counts.failed } : {}),
  }
}
