import { planHash } from '../plan/hash.js'
import { statePaths } from '../model/state-layout.js'
import { elapsedMs, formatDuration } from './format.js'
import { appendLines } from './lines.js'
import { cell, code, codeBlock, codeCell, inline, table } from './markdown.js'
import { renderTaskGraph } from './mermaid.js'
import type { RunReport } from './run-report.js'
import { maskSecrets } from '../model/secrets.js'
import { renderTaskDetails } from './task-details.js'
import { STATE_ICON, maskedView, type ReportView, type TaskState, type TaskView } from './task-view.js'

/** Every line a command left in its recorded tail: execution.md is the full report, with no size limit. */
const ALL_TAIL_LINES = Number.MAX_SAFE_INTEGER

/** Task statuses in the words of the seed's execution.md. */
const SEED_STATUS: Record<TaskState, string> = {
  converged: 'completed', unproven: 'completed, not proven', failed: 'failed', running: 'in progress', blocked: 'blocked', pending: 'pending', skipped: 'skipped',
}

/**
 * `execution.md` on the state branch, in the format of `task-generation-execution-spec.md` Steps 4 and 6:
 * Session Info, Task Overview, Pre-Execution Analysis (waves, file conflicts), Execution Timeline and
 * Execution Summary, followed by every task's convergence in full and the task graph.
 */
export function renderExecutionMarkdown(report: RunReport): string {
  const view = maskedView(report)
  const { solution, execution, issue } = view.report
  const out = ['# Execution Overview', '', '## Session Info', '']
  out.push(`- **Issue**: ISS-${issue.number} — ${inline(issue.title)}`)
  if (solution) out.push(`- **Solution**: ${code(solution.id)}`, `- **Plan Hash**: ${code(execution?.plan_hash ?? planHash(report.solution!))}`)
  out.push(`- **Plan Source**: ${code(statePaths.plan(issue.number))}`)
  if (execution) out.push(`- **Started**: ${inline(execution.started_at)}`)
  out.push(`- **Total Tasks**: ${view.tasks.length}`, '')

  out.push('## Task Overview', '')
  out.push(table(['#', 'ID', 'Title', 'Type', 'Priority', 'Status'], view.tasks.map((t, i) => [
    String(i + 1), cell(t.task.id), cell(t.task.title), t.task.type, t.task.priority, SEED_STATUS[t.state],
  ])), '')

  const add = (...sections: ReadonlyArray<readonly string[]>) => appendLines(out, ...sections)
  add(['## Pre-Execution Analysis', ''], preExecution(view), [''])
  add(['## Execution Timeline', '', '> Updated as tasks complete', ''], timeline(view.tasks), [''])
  if (execution) add(['## Execution Summary', ''], summary(view), [''])

  if (view.tasks.length) add(['## Task Details', ''], view.tasks.flatMap((t) => [renderTaskDetails(t, ALL_TAIL_LINES), '']))
  const graph = renderTaskGraph(view.tasks)
  if (graph) out.push('## Task Graph', '', codeBlock(graph, 'mermaid'), '')
  return maskSecrets(`${out.join('\n').trimEnd()}\n`, report.secrets ?? [])
}

function preExecution(view: ReportView): string[] {
  const dag = view.analysis?.dag
  const out: string[] = []
  const errors = view.analysis?.errors ?? []
  if (errors.length) appendLines(out, ['### Plan Errors', ''], errors.map((e) => `- ${code(e.path)}: ${inline(e.message)}`), [''])
  if (dag?.waves.length) appendLines(out, ['### Execution Order', ''], dag.waves.map((w, i) => `- **Wave ${i + 1}**: ${w.join(', ')}`), [''])
  if (dag?.conflicts.length)
    appendLines(out, ['### File Conflicts', ''], dag.conflicts.map((c) => `- **${inline(c.path)}**: ${c.tasks.join(', ')}`))
  else out.push('No file conflicts detected.')
  return out
}

/** Finished tasks in the order they finished. */
function timeline(tasks: readonly TaskView[]): string[] {
  const finished = tasks.filter((t) => t.result?.executed_at).sort((a, b) => a.result!.executed_at!.localeCompare(b.result!.executed_at!))
  if (!finished.length) return ['_No task has finished yet._']
  return finished.map((t) => {
    const r = t.result!
    const attempts = r.attempts === 1 ? '1 attempt' : `${r.attempts} attempts`
    return `- **${inline(r.executed_at!)}** — ${STATE_ICON[t.state]} ${t.task.id} ${SEED_STATUS[t.state]}: ${inline(t.task.title)} (${formatDuration(r.duration_ms)}, ${attempts})`
  })
}

function summary(view: ReportView): string[] {
  const execution = view.report.execution!
  const { count, tasks } = view
  const took = elapsedMs(execution.started_at, execution.executed_at)
  const out = [`- **Status**: ${execution.status}`]
  if (execution.executed_at) out.push(`- **Finished**: ${inline(execution.executed_at)}`)
  if (took !== undefined) out.push(`- **Duration**: ${formatDuration(took)}`)
  out.push(
    `- **Completed**: ${count.converged}/${tasks.length} · **Failed**: ${count.failed} · **Skipped**: ${count.skipped} · **Not run**: ${count.pending + count.blocked + count.running}`,
    '',
    '### Task Results',
    '',
    table(['ID', 'Status', 'Attempts', 'Duration', 'Files Modified', 'Convergence', 'Commit'], tasks.map(resultRow)),
  )
  return out
}

function resultRow(t: TaskView): string[] {
  const r = t.result
  const decided = t.checks.filter((c) => c.verdict !== 'pending')
  const passed = decided.filter((c) => c.verdict === 'pass').length
  return [
    cell(t.task.id),
    `${STATE_ICON[t.state]} ${SEED_STATUS[t.state]}`,
    r ? String(r.attempts) : '–',
    r ? formatDuration(r.duration_ms) : '–',
    r?.files_modified.length ? r.files_modified.map((f) => codeCell(f)).join(' ') : '–',
    `${passed}/${t.checks.length} passed`,
    r?.commit_hash ? codeCell(r.commit_hash.slice(0, 12)) : '–',
  ]
}
