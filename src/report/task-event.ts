import type { Task, TaskResult } from '../model/index.js'
import { formatDuration } from './format.js'
import { code, inline, truncate } from './markdown.js'
import { maskStrings, maskTokenShapes } from '../model/secrets.js'
import { taskChecks, taskConverged } from './task-view.js'

/**
 * One task's entry in `events.md`, in the seed's `execution-events.md` event format. Without a result it
 * is the START event (`**Status**: IN PROGRESS`); with one, the COMPLETED or FAILED event with its
 * execution log, modified files and convergence verification. `secrets` are masked, as are token shapes
 * in the error.
 */
export function renderTaskEvent(task: Task, result: TaskResult | undefined, at: string, secrets: readonly string[] = []): string {
  const t = maskStrings(task, secrets)
  const r = result && maskStrings({ ...result, error: result.error === null ? null : maskTokenShapes(result.error) }, secrets)
  const lines = [
    `## ${at} — ${t.id}: ${inline(t.title)}`,
    '',
    `**Type**: ${t.type} | **Priority**: ${t.priority}`,
    '',
  ]
  if (!r) {
    lines.push('**Status**: IN PROGRESS', '', `**Files**: ${fileList(t.files.map((f) => f.path))}`)
  } else {
    lines.push(`**Files**: ${fileList(t.files.map((f) => f.path))}`, '', '### Execution Log', '', ...executionLog(r), '')
    lines.push(`**Status**: ${statusWord(r)}`, '', `**Files Modified**: ${fileList(r.files_modified)}`, '')
    lines.push('#### Convergence Verification', '', ...verification(t, r))
  }
  lines.push('', '---', '', '')
  return lines.join('\n')
}

function statusWord(r: TaskResult): string {
  if (r.status === 'skipped') return 'SKIPPED'
  return taskConverged(r) ? 'COMPLETED' : 'FAILED'
}

function executionLog(r: TaskResult): string[] {
  const log: string[] = []
  if (r.started_at) log.push(`- Started ${inline(r.started_at)}`)
  log.push(`- Attempt ${r.attempts}, ${formatDuration(r.duration_ms)}`)
  for (const c of r.convergence_verified.filter((c) => c.kind === 'command')) {
    const exit = c.timed_out ? 'timed out' : c.exit_code === null || c.exit_code === undefined ? 'no exit code' : `exit ${c.exit_code}`
    log.push(`- Ran ${code(truncate(c.text, 200))}: ${exit}${c.duration_ms === undefined ? '' : ` (${formatDuration(c.duration_ms)})`}`)
  }
  if (r.commit_hash) log.push(`- Committed ${code(r.commit_hash.slice(0, 12))}`)
  if (r.error) log.push(`- Error: ${inline(truncate(r.error, 500))}`)
  return log
}

function verification(task: Task, r: TaskResult): string[] {
  const checks = taskChecks(task, r)
  const lines = checks
    .filter((c) => c.kind === 'criterion')
    .map((c) => `- [${c.verdict === 'pass' ? 'x' : ' '}] ${inline(c.text)}${c.verified_by === 'manual' && c.verdict === 'pending' ? ' (manual check pending)' : ''}`)
  for (const c of checks.filter((c) => c.kind === 'command'))
    lines.push(`- **Verification**: ${code(c.text)} → ${c.verdict === 'pass' ? 'PASS' : c.verdict === 'fail' ? 'FAIL' : 'NOT RUN'}`)
  return lines.length ? lines : ['- (nothing to verify)']
}

function fileList(paths: readonly string[]): string {
  return paths.length ? paths.map((p) => code(p)).join(', ') : '–'
}
