/**
 * How a failure is told in one line: a verification command's (its exit, and the output line that says most) and
 * an executor run's (its exit, and what the agent said). Used by the verdict, the feedback and the loop state.
 */
import type { CommandResult } from '../processes/run-command.js'
import type { ConvergenceCheck, ExecutorRun } from '../model/index.js'
import { stripAnsi } from '../report/ansi.js'

// The output lines that matter to whoever fixes a failure: error-looking lines, and the end of the output.
export const SIGNIFICANT = /error|fail|✗|×|assert|expected|exception|panic|traceback|not ok/i
/** Says what went wrong, unlike a summary such as `1 failed`: preferred as the one line a reason quotes. */
const EXPLAINING = /error|assert|expected|exception|panic|traceback/i
const MAX_KEY_LINE = 200

/** One decimal under 10 s, where it matters. */
const seconds = (ms: number) => (ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000)))

export function outputLines(output: string): string[] {
  return stripAnsi(output).trimEnd().split(/\r\n|\r|\n/)
}

function failure(result: Pick<CommandResult, 'exitCode' | 'timedOut' | 'durationMs'>): string {
  if (result.timedOut) return `timed out after ${seconds(result.durationMs)} s`
  return result.exitCode === null ? 'was killed by a signal' : `exited with code ${result.exitCode}`
}

/** "`npm test` exited with code 1". */
export function failureHeadline(check: ConvergenceCheck): string {
  const result = { exitCode: check.exit_code ?? null, timedOut: check.timed_out ?? false, durationMs: check.duration_ms ?? 0 }
  return `\`${check.text}\` ${failure(result)}`
}

/** The headline and the output line that says most about it. */
export function describeFailure(check: ConvergenceCheck): string {
  const line = keyLine(check.output_tail ?? '')
  return line ? `${failureHeadline(check)} (${line})` : failureHeadline(check)
}

/** The last explaining line, else the last error-looking one, else the last line: what a one-line reason quotes. */
function keyLine(output: string): string {
  const lines = outputLines(output).map((l) => l.trim()).filter(Boolean)
  let at = lines.findLastIndex((l) => EXPLAINING.test(l))
  if (at < 0) at = lines.findLastIndex((l) => SIGNIFICANT.test(l))
  if (at < 0) at = lines.length - 1
  const line = bothSides(lines, at)
  return line.length > MAX_KEY_LINE ? `${line.slice(0, MAX_KEY_LINE)}…` : line
}

/** Node's assertion dump (`actual: NaN,` above `expected: 1024,`): its expected line alone tells half, so both. */
function bothSides(lines: readonly string[], at: number): string {
  const line = lines[at] ?? ''
  const expected = /^expected:\s*(.*?),?$/.exec(line)
  if (!expected) return line
  const actual = lines.slice(Math.max(0, at - 3), at).findLast((l) => /^actual:/.test(l))
  return `${actual ? `actual: ${actual.replace(/^actual:\s*/, '').replace(/,$/, '')}, ` : ''}expected: ${expected[1]}`
}

/**
 * "the executor exited with code 1: Invalid API key", when the executor failed: its exit code or timeout, and the agent's own
 * error (else its message, else the last line of its output). Undefined when it exited 0.
 */
export function executorFailureText(run: ExecutorRun): string | undefined {
  if (!run.timed_out && run.exit_code === 0) return undefined
  const how = run.timed_out
    ? `timed out after ${seconds(run.duration_ms)} s`
    : run.exit_code === null ? `was killed by ${run.signal ?? 'a signal'}` : `exited with code ${run.exit_code}`
  const said = run.agent?.error ?? run.agent?.message ?? lastLine(run.output_tail)
  return `the executor ${how}${said ? `: ${firstLine(said)}` : ''}`
}

/** Two failed executor runs in a row that failed the same way. */
export function sameExecutorFailure(previous: ExecutorRun | undefined, last: ExecutorRun | undefined): boolean {
  if (!previous || !last) return false
  const failure = (run: ExecutorRun) => executorFailureText({ ...run, duration_ms: 0 })
  return failure(last) !== undefined && failure(previous) === failure(last)
}

const firstLine = (text: string) => {
  const line = stripAnsi(text).trim().split('\n')[0]!.trim()
  return line.length > 200 ? `${line.slice(0, 199)}…` : line
}
const lastLine = (text: string) => stripAnsi(text).trim().split('\n').map((l) => l.trim()).filter(Boolean).at(-1)
