import type { ConvergenceCheck } from '../model/index.js'
import { linkedCommand } from '../model/verification.js'
import { cleanOutput, verifier } from './failure.js'
import { formatDuration } from './format.js'
import { codeBlock, codeCell, code, details, htmlText, inline, plural, table, truncate } from './markdown.js'
import { STATE_ICON, type TaskView } from './task-view.js'

const MAX_CHECKS_LISTED = 20
const MAX_TAIL_LINE = 300

/**
 * One task's convergence, collapsed under a one-line summary: every criterion as `[x]`/`[ ]` with who
 * verified it, every command with PASS/FAIL, exit code and duration, and the last `tailLines` lines of
 * each command's output (none when 0). Failed tasks are shown open.
 */
export function renderTaskDetails(t: TaskView, tailLines: number): string {
  const criteria = t.checks.filter((c) => c.kind === 'criterion')
  const commands = t.checks.filter((c) => c.kind === 'command')
  const body: string[] = []
  if (criteria.length) body.push(listed(criteria.map((c) => criterionLine(c, c.verified_by === 'command' ? linkedCommand(t.task, c.text) : undefined)), criteria.length))
  if (commands.length) {
    const rows = commands.slice(0, MAX_CHECKS_LISTED).map((c) => [
      codeCell(truncate(c.text, 200)), verdictCell(c), c.exit_code === undefined || c.exit_code === null ? '–' : String(c.exit_code),
      c.duration_ms === undefined ? '–' : formatDuration(c.duration_ms),
    ])
    body.push(table(['Command', 'Result', 'Exit', 'Duration'], rows))
    if (commands.length > MAX_CHECKS_LISTED) body.push(`…and ${plural(commands.length - MAX_CHECKS_LISTED, 'more command')}.`)
    if (tailLines > 0)
      for (const c of commands.slice(0, MAX_CHECKS_LISTED)) if (c.output_tail?.trim()) body.push(outputTail(c, tailLines))
  }
  if (t.result?.files_modified.length || t.result?.commit_hash) body.push(changes(t))
  if (!body.length) body.push('_Nothing verifies this task: it has no criteria and no verification._')
  return details(taskSummary(t), body.join('\n\n'), t.state === 'failed')
}

/** `✅ <b>T1</b> Fix the parser · 2/2 criteria met · 2/2 commands passed` (HTML, for a `<summary>`). */
function taskSummary(t: TaskView): string {
  const parts = [`${STATE_ICON[t.state]} <b>${htmlText(t.task.id)}</b> ${htmlText(truncate(t.task.title, 100))}`]
  const criteria = t.checks.filter((c) => c.kind === 'criterion' && c.verified_by !== 'manual')
  const commands = t.checks.filter((c) => c.kind === 'command')
  const manual = t.checks.filter((c) => c.verified_by === 'manual' && c.verdict === 'pending').length
  if (!t.result) {
    if (criteria.length) parts.push(`${criteria.length} ${criteria.length === 1 ? 'criterion' : 'criteria'}`)
    if (commands.length) parts.push(`${plural(commands.length, 'command')} to run`)
    if (manual) parts.push(plural(manual, 'manual check'))
  } else {
    const met = criteria.filter((c) => c.verdict === 'pass').length
    const passed = commands.filter((c) => c.verdict === 'pass').length
    if (criteria.length) parts.push(`${met}/${criteria.length} criteria met`)
    if (commands.length) parts.push(`${passed}/${commands.length} commands passed`)
    if (manual) parts.push(`${plural(manual, 'manual check')} pending`)
  }
  if (t.result && t.result.attempts > 1) parts.push(`attempt ${t.result.attempts}`)
  return parts.join(' · ')
}

/** `command`: the command a criterion is linked to, which checks it. */
function criterionLine(c: ConvergenceCheck, command: string | undefined): string {
  const box = c.verdict === 'pass' ? '[x]' : '[ ]'
  const how = command ? `checked by ${code(truncate(command, 120))}` : undefined
  const who = c.verdict === 'pending' ? (how ? `${how}, not run yet` : c.verified_by !== 'manual' ? 'not checked yet' : verifier(c)) : how ?? verifier(c)
  const outcome = c.verdict === 'fail' ? ': **not met**' : ''
  return `- ${box} ${inline(truncate(c.text, 300))} · *${who}*${outcome}`
}

function verdictCell(c: ConvergenceCheck): string {
  const tests = c.tests_passed !== undefined || c.tests_failed !== undefined
    ? ` · ${c.tests_passed ?? 0} passed, ${c.tests_failed ?? 0} failed`
    : ''
  if (c.verdict === 'pass') return `✅ PASS${tests}`
  if (c.verdict === 'fail') return `❌ FAIL${c.timed_out ? ' (timed out)' : ''}${tests}`
  return '⏳ not run'
}

function outputTail(c: ConvergenceCheck, tailLines: number): string {
  const lines = cleanOutput(c.output_tail!).replace(/\n+$/, '').split('\n')
  const shown = lines.slice(-tailLines).map((l) => truncate(l, MAX_TAIL_LINE))
  const what = lines.length > shown.length ? `last ${plural(shown.length, 'line')} of ${lines.length}` : plural(lines.length, 'line')
  return details(`Output of <code>${htmlText(truncate(c.text, 80))}</code> · ${what}`, codeBlock(shown.join('\n')))
}

function changes(t: TaskView): string {
  const files = t.result!.files_modified
  const parts: string[] = []
  if (files.length)
    parts.push(`Files modified: ${files.slice(0, 10).map((f) => code(f)).join(', ')}${files.length > 10 ? ` +${files.length - 10}` : ''}`)
  if (t.result!.commit_hash) parts.push(`commit ${code(t.result!.commit_hash.slice(0, 12))}`)
  const undeclared = t.result!.undeclared_files ?? []
  if (undeclared.length)
    parts.push(`⚠️ not in the plan's files: ${undeclared.slice(0, 10).map((f) => code(f)).join(', ')}${undeclared.length > 10 ? ` +${undeclared.length - 10}` : ''}`)
  return parts.join(' · ')
}

function listed(lines: string[], total: number): string {
  const shown = lines.slice(0, MAX_CHECKS_LISTED)
  if (total > MAX_CHECKS_LISTED) shown.push(`- …and ${total - MAX_CHECKS_LISTED} more`)
  return shown.join('\n')
}
