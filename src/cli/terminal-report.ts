/**
 * What the CLI prints about an issue: compact text for a terminal (the comment's markdown is for GitHub). Pure:
 * data in, lines out. Colour only when the output is a terminal (`colour: true`).
 */
import { plural } from '../report/markdown.js'
import { runUsage } from '../agents/usage.js'
import type { ExecutionRecord, ExecutorRun, IssueState, RunState, Solution, Task, TaskResult } from '../model/index.js'
import { planHash } from '../plan/hash.js'
import { belongsInQueue, queueGroups } from '../queue/index.js'
import { outputLines, SIGNIFICANT } from '../execute/failure-text.js'
import { evidenceLabel, evidenceSentence, KIND_LABEL, provedBy } from '../report/evidence-words.js'
import { formatDuration, formatUsage } from '../report/format.js'
import { hintLine, type NextHint } from './next-hint.js'

export interface TerminalReportOptions {
  colour?: boolean
}

const PAINT = { red: '31', green: '32', yellow: '33', dim: '2' } as const

/** The issue, its plan's approval, one line per task (with why a failed task failed), and what to do next (`hint`). */
export function issueReport(
  issue: IssueState, plan: Solution | undefined, execution: ExecutionRecord | undefined, hint: NextHint | undefined, options: TerminalReportOptions = {},
): string[] {
  const paint = (colour: keyof typeof PAINT, text: string) => (options.colour ? `\u001b[${PAINT[colour]}m${text}\u001b[0m` : text)
  const lines = [`ISS-${issue.number} · ${issue.title} · ${paint(issue.status === 'completed' ? 'green' : issue.status === 'failed' ? 'red' : 'yellow', issue.status)}`]
  if (issue.error) lines.push(`  ${issue.error}`)
  if (!plan) return [...lines, `  No plan yet`, ...hintLine(hint)]
  const approved = plan.approval?.plan_hash === planHash(plan)
  const approval = !plan.approval ? 'not approved' : approved ? `approved by ${plan.approval.approved_by}` : 'changed after its approval'
  const current = execution && execution.plan_hash === planHash(plan) ? execution : undefined
  lines.push(`  Plan ${plan.id}: ${plural(plan.tasks.length, 'task')}, ${approval}${current ? runSummary(plan, current) : ''}`)
  for (const task of plan.tasks) lines.push(...taskLines(task, current?.tasks[task.id], current?.mode ?? 'execute', paint))
  return [...lines, ...hintLine(hint)]
}

/** ` · 3/4 converged · took 12 s · agent: $0.0120 · 4,210 tokens · 9 turns` */
function runSummary(plan: Solution, execution: ExecutionRecord): string {
  const converged = Object.values(execution.tasks).filter((r) => r.status === 'completed').length
  const took = execution.executed_at ? Date.parse(execution.executed_at) - Date.parse(execution.started_at) : Number.NaN
  const usage = runUsage(execution)
  const verb = execution.mode === 'verify' ? 'verified' : 'converged'
  const unproven = Object.values(execution.tasks).filter((r) => r.status === 'completed' && !provedBy(r)).length
  return ` · ${converged - unproven}/${plan.tasks.length} ${verb}${unproven ? ` · ${unproven} not proven` : ''}${Number.isFinite(took) ? ` · took ${formatDuration(took)}` : ''}${usage ? ` · agent: ${formatUsage(usage)}` : ''}`
}

function taskLines(task: Task, result: TaskResult | undefined, mode: 'execute' | 'verify', paint: (colour: keyof typeof PAINT, text: string) => string): string[] {
  const proved = !result || provedBy(result)
  const verdict = !result ? 'pending' : result.status !== 'completed' ? result.status : !proved ? KIND_LABEL[result.evidence!.kind] : mode === 'verify' ? 'verified' : 'converged'
  const colour = verdict === 'failed' ? 'red' : verdict === 'pending' || verdict === 'skipped' ? 'dim' : proved ? 'green' : 'yellow'
  const attempts = result?.attempts ? `${result.attempts} attempt${result.attempts === 1 ? '' : 's'}` : ''
  const commit = result?.commit_hash ? result.commit_hash.slice(0, 7) : '–'
  const lines = [`  ${task.id.padEnd(4)}  ${paint(colour, verdict.padEnd(9))}  ${attempts.padEnd(10)}  ${commit.padEnd(7)}  ${task.title}`]
  if (result?.evidence && result.status !== 'skipped') lines.push(paint(proved ? 'dim' : 'yellow', `        ${cut(evidenceSentence(task.id, result.evidence, mode, 'local'), 200)}`))
  // The executor's exit code of each attempt, when one failed (an exit 0 everywhere goes without saying).
  const codes = exitCodes(result?.executor_runs ?? [])
  if (codes && result?.status !== 'skipped') lines.push(paint('dim', `        executor exit code by attempt: ${codes}`))
  if (result?.later_retry) {
    const retry = result.later_retry
    const [said, ...last] = retry.outcome.split('\n')
    lines.push(paint('yellow', `        retried ${retry.at.replace('T', ' ').slice(0, 16)} (${plural(retry.attempts, 'attempt')}, executor exit code ${exitCodes(retry.executor_runs, true) ?? 'none'}): ${said}; the result above stands`))
    for (const line of last) lines.push(paint('dim', `          ${cut(line, 200)}`))
  }
  if (result && result.status !== 'completed' && result.error) {
    // Whole: the reason ends with the line that explains it (an assertion's expected and actual), after a command
    // that may be long; a cut here would drop exactly that.
    lines.push(`        ${result.error.split('\n')[0]!}`)
    // The output lines that explain the first failing command: its error-looking lines, else its last ones.
    const failed = result.convergence_verified.find((c) => c.kind === 'command' && c.verdict === 'fail')
    const output = outputLines(failed?.output_tail ?? '').map((l) => l.trimEnd()).filter((l) => l.trim())
    const telling = output.filter((l) => SIGNIFICANT.test(l))
    for (const line of (telling.length ? telling : output).slice(-6)) lines.push(paint('dim', `          ${cut(line, 200)}`))
  }
  return lines
}

/** "1, 3" (a timed-out attempt: "timed out"), or undefined when every attempt exited 0 (unless `always`). */
function exitCodes(runs: readonly ExecutorRun[], always = false): string | undefined {
  if (!runs.length || (!always && runs.every((run) => run.exit_code === 0 && !run.timed_out))) return undefined
  return runs.map((run) => (run.timed_out ? 'timed out' : run.exit_code === null ? (run.signal ?? 'killed') : String(run.exit_code))).join(', ')
}

/**
 * The queue `sync` built: its groups in order (sequential ones with the files their solutions share), an item a
 * line, and what the queue does not reflect yet.
 */
export function queueReport(run: RunState, options: TerminalReportOptions = {}): string[] {
  const paint = (colour: keyof typeof PAINT, text: string) => (options.colour ? `\u001b[${PAINT[colour]}m${text}\u001b[0m` : text)
  const built = run.queue_built_at ? ` (built by sync at ${run.queue_built_at})` : ''
  if (!run.queue.length) return [`Queue: empty${built}: no planned issue is waiting`]
  const groups = queueGroups(run.queue)
  const lines = [`Queue: ${run.queue.length} solution${run.queue.length === 1 ? '' : 's'} in ${groups.length} group${groups.length === 1 ? '' : 's'}${built}`]
  for (const group of groups) {
    const shared = group.sharedFiles.length ? ` (they change ${cut(group.sharedFiles.join(', '), 80)})` : ''
    const order = group.kind === 'sequential' ? `: ${group.items.map((i) => i.item_id).join(' → ')}, one after the other${shared}` : ': at the same time'
    lines.push(`  ${group.id} ${group.kind}${order}`)
    for (const item of group.items) {
      const summary = run.issues[item.issue_id]
      const status = summary?.status ?? item.status
      const colour = status === 'failed' ? 'red' : status === 'completed' ? 'green' : status === 'executing' ? 'yellow' : 'dim'
      lines.push(`    ${item.item_id.padEnd(5)} #${String(summary?.number ?? item.issue_id.slice(4)).padEnd(5)} ${paint(colour, status.padEnd(10))} ${(item.priority ?? '–').padEnd(8)} ${item.solution_id.padEnd(16)}  ${summary?.title ?? ''}`)
    }
  }
  const queued = new Set(run.queue.map((i) => i.issue_id))
  const waiting = Object.entries(run.issues).filter(([id, s]) => belongsInQueue(s) && !queued.has(id)).map(([, s]) => `#${s.number}`)
  if (waiting.length) lines.push(`  Planned since, not queued yet: ${waiting.join(', ')}: converge sync queues them`)
  return lines
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/**
 * The last line of a run that completed tasks without proof, or undefined: "2 tasks completed without proof (T3
 * changed nothing, T4 unproven): nothing shows their change did what they ask."
 */
export function unprovenLine(execution: ExecutionRecord): string | undefined {
  const unproven = Object.values(execution.tasks).filter((r) => r.status === 'completed' && !provedBy(r))
  if (!unproven.length) return undefined
  const named = unproven.map((r) => `${r.task_id} ${evidenceLabel(r.evidence!)}`).join(', ')
  const them = unproven.length === 1 ? '1 task' : `${unproven.length} tasks`
  return `Not proven: ${them} completed without proof (${cut(named, 160)}): nothing shows ${unproven.length === 1 ? 'its' : 'their'} change did what ${unproven.length === 1 ? 'it asks' : 'they ask'}.`
}
