import { formatDuration } from './format.js'
import { cell, code, inline, table } from './markdown.js'
import type { RunReport } from './run-report.js'
import { maskedView, STATE_ICON } from './task-view.js'

/** GitHub refuses a pull-request body longer than this (the same limit as a comment). */
const BODY_LIMIT = 65_536
const MAX_ROWS = 200

/**
 * The draft pull request's title: `Converge ISS-42: <issue title>`. One line; GitHub keeps the title as text,
 * so nothing needs escaping beyond that.
 */
export function pullRequestTitle(n: number, issueTitle: string): string {
  const title = issueTitle.replace(/\s+/g, ' ').trim()
  return `Converge ISS-${n}: ${title.length > 200 ? `${title.slice(0, 199)}…` : title}`
}

/**
 * The draft pull request's body (SPEC §7): `Closes #<n>`, so merging closes the issue, then the task table
 * with each task's status and commit. The full report stays on the issue.
 */
export function renderPullRequestBody(report: RunReport): string {
  const view = maskedView(report)
  const n = view.report.issue.number
  const rows = view.tasks.slice(0, MAX_ROWS).map((t) => [
    cell(t.task.id),
    cell(t.task.title.length > 100 ? `${t.task.title.slice(0, 99)}…` : t.task.title),
    `${STATE_ICON[t.state]} ${t.state}`,
    t.result ? String(t.result.attempts) : '–',
    t.result ? formatDuration(t.result.duration_ms) : '–',
    t.result?.commit_hash ? code(t.result.commit_hash.slice(0, 7)) : '–',
  ])
  const converged = view.count.converged
  const parts = [
    `Closes #${n}`,
    '',
    `Converge carried out ${inline(view.report.solution?.id ?? 'the plan')} for #${n}: ${converged} of ${view.tasks.length} tasks converged (one commit each), verified by running their commands${view.count.unproven ? `; ${view.count.unproven} completed without proof (see the issue)` : ''}.`,
    '',
    table(['Task', 'Title', 'Status', 'Attempts', 'Duration', 'Commit'], rows),
  ]
  if (view.tasks.length > rows.length) parts.push('', `_…and ${view.tasks.length - rows.length} more tasks: see the issue._`)
  parts.push('', `The full report (criteria, commands, output) is on #${n}.${view.report.links.run ? ` [Workflow run](${view.report.links.run})` : ''}`)
  const body = parts.join('\n')
  return body.length > BODY_LIMIT ? `${body.slice(0, BODY_LIMIT - 40)}\n\n_(cut to fit GitHub's limit)_` : body
}
