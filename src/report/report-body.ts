import { appendLines, largest, smallest } from './lines.js'
import type { Finding } from '../model/index.js'
import { runUsage, taskUsage } from '../agents/usage.js'
import { statePaths } from '../model/state-layout.js'
import { evidenceSection, personChecklist } from './evidence-section.js'
import { renderFailures } from './failure.js'
import { elapsedMs, formatDuration, formatUsage, progressBar } from './format.js'
import { cell, code, codeBlock, codeCell, details, inline, plural, table, truncate } from './markdown.js'
import { renderTaskGraph } from './mermaid.js'
import { nextStep } from './next-step.js'
import type { RunReport } from './run-report.js'
import { maskSecrets } from '../model/secrets.js'
import { fitToLimit, type Compaction } from './size.js'
import { renderTaskDetails } from './task-details.js'
import { STATE_ICON, maskedView, isFinished, type ReportView, type TaskView } from './task-view.js'

const MAX_ERRORS_LISTED = 30
const MAX_FINDINGS_LISTED = 30
const MAX_NOTES_LISTED = 30
const SEVERITY_ICON = { critical: '🔴', high: '🟠', medium: '🟡', low: '⚪' } as const

/**
 * The report as markdown, from the heading down, at the most detailed level that fits in `limit`
 * characters (see size.ts). Secrets are masked before anything is rendered, and once more in the result.
 */
export function renderReportBody(report: RunReport, limit: number): string {
  const view = maskedView(report)
  const graph = renderTaskGraph(view.tasks)
  const cutNotice = `_The report was cut to fit GitHub's size limit; the full report is in ${executionLink(view.report)} on the state branch._`
  const text = fitToLimit((level) => renderAtLevel(view, graph, level), limit, cutNotice)
  return maskSecrets(text, report.secrets ?? [])
}

function renderAtLevel(view: ReportView, graph: string | undefined, level: Compaction): string {
  const { report, analysis } = view
  const out = [`### Converge · ISS-${report.issue.number} · ${report.status}`, '']
  if (report.headline) out.push(inline(truncate(report.headline, 500)), '')
  for (const line of report.security ?? []) out.push(`> ⚠️ ${inline(truncate(line, 1000))}`, '')
  if (view.started) appendLines(out, [statusLine(view), ''], evidenceSection(view))
  appendLines(out, renderFailures(view))
  if (analysis?.errors.length) appendLines(out, errorSection(view), [''])
  if (report.questions?.length) out.push(questionList(report.questions), '')
  if (report.solution) appendLines(out, [planLine(view), ''], taskTable(view, level), [''])
  if (report.solution?.already_done?.length) out.push(alreadyDone(report.solution.already_done), '')
  const leftOut = (report.solution?.left_out ?? []).filter((l) => l.work)
  if (leftOut.length) out.push(leftOutLine(leftOut), '')
  if (graph && level.graph) out.push(codeBlock(graph, 'mermaid'), '')
  else if (!graph && view.tasks.length) out.push(`_The task graph is too large for Mermaid to draw; the waves are in ${executionLink(report)}._`, '')
  appendLines(out, [nextStep(view), ''], personChecklist(view))
  const sections = taskSections(view, level)
  if (sections.length) appendLines(out, ['#### Convergence checks', ''], sections.flatMap((s) => [s, '']))
  const findings = [...(analysis?.quality?.findings ?? []), ...(analysis?.proof ?? []), ...(analysis?.warnings ?? [])]
  // Open when they are why the plan cannot go ahead.
  if (findings.length) out.push(details(`Plan quality findings (${findings.length})`, findingList(findings), analysis?.gate === 'fail'), '')
  if (report.notes?.length) out.push(details('Planner notes', noteList(report.notes)), '')
  const cuts = cutsNotice(view, graph, level)
  if (cuts) out.push(cuts, '')
  out.push(links(report))
  return `${out.join('\n').trimEnd()}\n`
}

/** `**▰▰▰▱▱ 3/5 tasks converged** · ❌ 1 failed · 🔄 1 running · wave 2 of 3 · took 4m 12s` */
function statusLine(view: ReportView): string {
  const { count, tasks, report } = view
  const parts = [`**${progressBar(count.converged, tasks.length)} ${count.converged}/${tasks.length} tasks converged**`]
  for (const state of ['unproven', 'failed', 'running', 'blocked', 'skipped', 'pending'] as const)
    if (count[state]) parts.push(`${STATE_ICON[state]} ${count[state]} ${state}`)
  const waves = view.analysis?.dag?.waves.length ?? 0
  const current = tasks.filter((t) => !isFinished(t.state) && t.wave !== undefined).map((t) => t.wave!)
  if (waves > 1 && current.length) parts.push(`wave ${smallest(current)} of ${waves}`)
  const loop = report.loop
  if (loop && loop.current_iteration > 0) parts.push(`iteration ${loop.current_iteration} of ${loop.max_iterations}`)
  const execution = report.execution
  const took = elapsedMs(execution?.started_at, execution?.executed_at)
  if (took !== undefined) parts.push(`took ${formatDuration(took)}`)
  else if (execution?.started_at) parts.push(`started ${formatTime(execution.started_at)}`)
  const usage = runUsage(execution)
  if (usage) parts.push(`agent: ${formatUsage(usage)}`)
  return parts.join(' · ')
}

function errorSection(view: ReportView): string[] {
  const errors = view.analysis!.errors
  const rows = errors.slice(0, MAX_ERRORS_LISTED).map((e) => [codeCell(truncate(e.path, 120)), cell(truncate(e.message, 300)), cell(truncate(e.hint, 300))])
  const out = [`**The plan cannot be used**: ${plural(errors.length, 'error')}.`, '', table(['Where', 'Problem', 'How to fix'], rows)]
  if (errors.length > MAX_ERRORS_LISTED) out.push('', `…and ${plural(errors.length - MAX_ERRORS_LISTED, 'more error')}.`)
  return out
}

/** `**Plan** `SOL-ISS-42-1`: 4 tasks in 2 waves · quality **100/100**, gate **pass** · approved by @alice` */
function planLine(view: ReportView): string {
  const solution = view.report.solution!
  const analysis = view.analysis
  const waves = analysis?.dag?.waves.length ?? 0
  const quality = analysis?.quality
  const approver = solution.approval ? inline(`@${solution.approval.approved_by}`) : ''
  const approval =
    view.approval === 'current' ? `approved by ${approver}` : view.approval === 'stale' ? `approved by ${approver} for an earlier version` : 'not approved yet'
  return [
    `**Plan** ${code(solution.id)}: ${plural(solution.tasks.length, 'task')}${waves ? ` in ${plural(waves, 'wave')}` : ''}`,
    quality ? `quality **${quality.quality_score}/100**, gate **${analysis!.gate}**` : undefined,
    approval,
  ].filter(Boolean).join(' · ')
}

/**
 * Before execution the table shows what the plan will do (type, files, dependencies); from then on,
 * where each task stands (status, attempts, duration).
 */
function taskTable(view: ReportView, level: Compaction): string[] {
  const listed = level.rows === 'all' ? view.tasks : view.tasks.filter((t) => !isFinished(t.state))
  const rows = listed.slice(0, level.maxRows)
  // The agent's usage per task, once an executor ran: cost, tokens, turns as it reported them.
  const agent = view.started && runUsage(view.report.execution) !== undefined
  const progress = table(['Task', 'Title', 'Wave', 'Status', 'Attempts', 'Duration', ...(agent ? ['Agent'] : [])], rows.map((t) => progressRow(t, agent)))
  const out = [view.started ? progress : table(['Task', 'Title', 'Wave', 'Type', 'Files', 'Depends on'], rows.map(planRow))]
  const finished = view.tasks.length - listed.length
  if (finished) out.push('', `_${plural(finished, 'finished task')} not listed._`)
  if (listed.length > rows.length) out.push('', `_…and ${plural(listed.length - rows.length, 'more task')}._`)
  return out
}

function planRow(t: TaskView): string[] {
  const files = t.task.files
  return [
    cell(t.task.id),
    cell(truncate(t.task.title, 100)),
    t.wave === undefined ? '–' : String(t.wave),
    t.task.type,
    files.length ? files.slice(0, 3).map((f) => codeCell(truncate(f.path, 80))).join(' ') + (files.length > 3 ? ` +${files.length - 3}` : '') : '–',
    cell(t.task.depends_on.join(', ')) || '–',
  ]
}

function progressRow(t: TaskView, agent: boolean): string[] {
  const usage = taskUsage(t.result)
  return [
    cell(t.task.id),
    cell(truncate(t.task.title, 100)),
    t.wave === undefined ? '–' : String(t.wave),
    `${STATE_ICON[t.state]} ${t.state}`,
    t.result ? String(t.result.attempts) : '–',
    t.result ? formatDuration(t.result.duration_ms) : '–',
    ...(agent ? [usage ? formatUsage(usage) : '–'] : []),
  ]
}

function taskSections(view: ReportView, level: Compaction): string[] {
  const shown = view.tasks.filter((t) =>
    level.details === 'all' ? true : level.details === 'unfinished' ? !isFinished(t.state) : t.state === 'failed' || t.state === 'running',
  )
  return shown.slice(0, level.maxDetails).map((t) => renderTaskDetails(t, level.tailLines))
}

function findingList(findings: Finding[]): string {
  const lines = findings
    .slice(0, MAX_FINDINGS_LISTED)
    .map((f) => `- ${SEVERITY_ICON[f.severity]} **${f.severity}** ${code(truncate(f.path, 120))}: ${inline(truncate(f.message, 300))}. *Fix:* ${inline(truncate(f.fix, 300))}`)
  if (findings.length > MAX_FINDINGS_LISTED) lines.push(`- …and ${findings.length - MAX_FINDINGS_LISTED} more`)
  return lines.join('\n')
}

/** The planner's questions, where the reporter sees them: above the plan, not folded away with the notes. */
function questionList(questions: readonly string[]): string {
  return [`**The issue does not say** (add it to the issue and plan again):`, '', ...questions.map((q) => `- ${inline(truncate(q, 300))}`)].join('\n')
}

/** Work the issue marks as done: shown with the plan, never run. */
function alreadyDone(items: readonly string[]): string {
  const listed = items.slice(0, MAX_NOTES_LISTED).map((item) => inline(truncate(item, 120)))
  const more = items.length > MAX_NOTES_LISTED ? ` and ${items.length - MAX_NOTES_LISTED} more` : ''
  return `✔️ **Already done** (ticked in the issue, not run): ${listed.join(' · ')}${more}`
}

/** Work the issue asks for that no task carries (the built-in planner's `left_out`): said to the approver above the fold. */
function leftOutLine(items: ReadonlyArray<{ item: string; reason: string }>): string {
  const listed = items.slice(0, MAX_NOTES_LISTED).map((l) => `${inline(truncate(l.item, 120))} (${inline(truncate(l.reason, 160))})`)
  const more = items.length > MAX_NOTES_LISTED ? ` and ${items.length - MAX_NOTES_LISTED} more` : ''
  return `⚠️ **Left out of the plan** (the issue asks for it; check before approving): ${listed.join(' · ')}${more}`
}

function noteList(notes: string[]): string {
  const lines = notes.slice(0, MAX_NOTES_LISTED).map((n) => `- ${inline(truncate(n, 300))}`)
  if (notes.length > MAX_NOTES_LISTED) lines.push(`- …and ${notes.length - MAX_NOTES_LISTED} more`)
  return lines.join('\n')
}

/** What this level left out compared with the full report, or undefined when nothing was. */
function cutsNotice(view: ReportView, graph: string | undefined, level: Compaction): string | undefined {
  const cuts: string[] = []
  const longestTail = largest(view.tasks.flatMap((t) => t.checks.map((c) => c.output_tail?.split('\n').length ?? 0)))
  if (longestTail > level.tailLines) cuts.push(level.tailLines ? 'output tails shortened' : 'output tails left out')
  const finished = view.tasks.filter((t) => isFinished(t.state)).length
  const waiting = view.tasks.filter((t) => t.state === 'pending' || t.state === 'blocked').length
  const active = view.tasks.length - finished - waiting
  if (finished && level.rows !== 'all') cuts.push(`${plural(finished, 'finished task')} left out of the table`)
  else if (finished && level.details !== 'all') cuts.push(`${plural(finished, 'finished task')} collapsed`)
  if (level.details === 'active' && waiting) cuts.push(`${plural(waiting, 'waiting task')} collapsed`)
  if (active > level.maxDetails) cuts.push(`the details of ${plural(active - level.maxDetails, 'failed or running task')} left out`)
  if (graph && !level.graph) cuts.push('the task graph left out')
  const rows = level.rows === 'all' ? view.tasks.length : view.tasks.length - finished
  if (rows > level.maxRows) cuts.push(`${plural(rows - level.maxRows, 'more task')} left out of the table`)
  if (!cuts.length) return undefined
  const said = cuts.length > 1 ? `${cuts.slice(0, -1).join(', ')} and ${cuts.at(-1)}` : cuts[0]!
  return `_${said[0]!.toUpperCase()}${said.slice(1)} to fit GitHub's size limit; the full report is in ${executionLink(view.report)} on the state branch._`
}

function executionLink(report: RunReport): string {
  const branch = report.links.stateBranch
  return branch ? `[execution.md](${branch}/${statePaths.executionReport(report.issue.number)})` : 'execution.md'
}

function links(report: RunReport): string {
  const n = report.issue.number
  const parts: string[] = []
  if (report.links.checkRun) parts.push(`[check run](${report.links.checkRun})`)
  if (report.links.pullRequest) parts.push(`[pull request](${report.links.pullRequest})`)
  const branch = report.links.stateBranch
  if (branch) {
    if (report.solution) parts.push(`[plan.json](${branch}/${statePaths.plan(n)})`)
    parts.push(`[issue.json](${branch}/${statePaths.issue(n)})`)
    if (report.execution) parts.push(`[execution.md](${branch}/${statePaths.executionReport(n)})`)
    parts.push(`[events.md](${branch}/${statePaths.events(n)})`)
  }
  if (report.links.run) parts.push(`[workflow run](${report.links.run})`)
  return parts.length ? `<sub>${parts.join(' · ')}</sub>` : ''
}

/** `2025-06-01 09:00 UTC` */
function formatTime(iso: string): string {
  const ms = Date.parse(iso)
  return Number.isFinite(ms) ? `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC` : inline(iso)
}
