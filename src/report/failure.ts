import type { ConvergenceCheck, TaskResult } from '../model/index.js'
import { stripAnsi } from './ansi.js'
import { formatDuration } from './format.js'
import { code, codeBlock, inline, plural, truncate } from './markdown.js'
import type { ReportView, TaskView } from './task-view.js'

const MAX_FAILURES_DESCRIBED = 5
const MAX_WHY_LINES = 12
const MAX_IDS_LISTED = 10
const MAX_LINE_LENGTH = 240

/** Lines of test and compiler output that say what went wrong, and the comparisons assertion libraries print. */
const TELLING_LINE =
  /error|fail|assert|expected|received|actual|exception|panic|traceback|not ok|cannot|undefined|denied|not found|✗|✖|×|✘|!==|!=|≠/i
/** A JavaScript stack frame: where, not why. */
const STACK_FRAME = /^\s+at .+[:(]/

/**
 * What failed, why, and the blocked tasks behind it: one block per failed task (the first few), each
 * naming the failing check and quoting the output lines that matter. Empty when nothing failed.
 */
export function renderFailures(view: ReportView): string[] {
  const failed = view.tasks.filter((t) => t.state === 'failed')
  const blocked = view.tasks.filter((t) => t.state === 'blocked')
  const out: string[] = []
  for (const t of failed.slice(0, MAX_FAILURES_DESCRIBED)) out.push(...describeFailure(t), '')
  if (failed.length > MAX_FAILURES_DESCRIBED)
    out.push(`…and ${plural(failed.length - MAX_FAILURES_DESCRIBED, 'more failed task')}: ${listIds(failed.slice(MAX_FAILURES_DESCRIBED), MAX_IDS_LISTED)}.`, '')
  if (blocked.length) out.push(blockedLine(blocked, failed), '')
  const reason = view.report.loop?.failure_reason
  if (reason && view.report.loop?.status === 'failed') out.push(`**Execution stopped**: ${inline(truncate(reason, 500))}`, '')
  return out
}

/** `⛔ 2 tasks wait for failed work: T5, T7; they run once T3 converges.` */
function blockedLine(blocked: TaskView[], failed: TaskView[]): string {
  const waiting = listIds(blocked, MAX_IDS_LISTED)
  const failedIds = listIds(failed, MAX_IDS_LISTED)
  const verb = failed.length === 1 ? 'converges' : 'converge'
  return `⛔ ${plural(blocked.length, 'task')} wait${blocked.length === 1 ? 's' : ''} for failed work: ${waiting}; ${blocked.length === 1 ? 'it runs' : 'they run'} once ${failedIds} ${verb}.`
}

function listIds(tasks: TaskView[], max: number): string {
  const ids = tasks.slice(0, max).map((t) => t.task.id).join(', ')
  return tasks.length > max ? `${ids} and ${tasks.length - max} more` : ids
}

function describeFailure(t: TaskView): string[] {
  const result = t.result!
  const attempts = result.attempts > 1 ? ` after ${plural(result.attempts, 'attempt')}` : ''
  const out = [`#### ❌ ${t.task.id} failed${attempts}: ${inline(truncate(t.task.title, 120))}`, '']
  const command = t.checks.find((c) => c.kind === 'command' && c.verdict === 'fail')
  const criteria = t.checks.filter((c) => c.kind === 'criterion' && c.verdict === 'fail')
  if (command) out.push(commandFailure(command))
  for (const c of criteria.slice(0, 3)) out.push(`- Criterion not met (${verifier(c)}): ${inline(truncate(c.text, 300))}`)
  if (result.error && !command) out.push(`- ${inline(truncate(result.error.split('\n')[0]!, 300))}`)
  const why = command?.output_tail ? tellingLines(command.output_tail) : errorLines(result)
  if (why.length) out.push('', codeBlock(why.join('\n')))
  return out
}

function commandFailure(check: ConvergenceCheck): string {
  const ran = `- ${code(truncate(check.text, 200))}`
  const after = check.duration_ms !== undefined ? ` after ${formatDuration(check.duration_ms)}` : ''
  const tests = check.tests_failed ? ` (${plural(check.tests_failed, 'test')} failed${check.tests_passed !== undefined ? `, ${check.tests_passed} passed` : ''})` : ''
  if (check.timed_out) return `${ran} timed out${after}${tests}.`
  if (check.exit_code === null || check.exit_code === undefined) return `${ran} was stopped before it exited${after}${tests}.`
  return `${ran} exited with code ${check.exit_code}${after}${tests}.`
}

/** The lines of a failing command's output that tell why: the last matching lines, else its last lines. */
export function tellingLines(output: string): string[] {
  const lines = cleanOutput(output).split('\n').filter((l) => l.trim())
  const telling = lines.filter((l) => TELLING_LINE.test(l) && !STACK_FRAME.test(l))
  const chosen = telling.length ? telling.slice(-MAX_WHY_LINES) : lines.slice(-5)
  return chosen.map((l) => truncate(l, MAX_LINE_LENGTH))
}

/** Command output as text: colour codes and other control characters removed, line endings made `\n`. */
export function cleanOutput(output: string): string {
  return stripAnsi(output)
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
}

function errorLines(result: TaskResult): string[] {
  if (!result.error || !result.error.includes('\n')) return []
  return tellingLines(result.error)
}

export function verifier(check: ConvergenceCheck): string {
  if (check.verified_by === 'command') return 'command'
  if (check.verified_by === 'agent') return 'agent report'
  return check.verdict === 'pending' ? 'manual check pending' : 'checked by hand'
}
