import { evidenceSentence, waitingCriteria } from './evidence-words.js'
import { inline, truncate } from './markdown.js'
import { STATE_ICON, type ReportView } from './task-view.js'

const MAX_LISTED = 30

/**
 * **Evidence**: one sentence per finished task saying what its checks prove (a report without recorded evidence,
 * from an older version, has none). Empty when no task has any.
 */
export function evidenceSection(view: ReportView): string[] {
  const mode = view.report.execution?.mode ?? 'execute'
  const lines = view.tasks.flatMap((t) =>
    t.result?.evidence && t.result.status !== 'skipped' ? [`- ${STATE_ICON[t.state]} ${inline(truncate(evidenceSentence(t.task.id, t.result.evidence, mode), 400))}`] : [])
  if (!lines.length) return []
  const more = lines.length > MAX_LISTED ? [`- …and ${lines.length - MAX_LISTED} more: see execution.md`] : []
  return ['**Evidence** (each task\'s commands, run before and after its change):', '', ...lines.slice(0, MAX_LISTED), ...more, '']
}

/**
 * The criteria no command checks, as a checklist for a person: ticked only where an agent reported them met (and
 * said so beside them), never read as verified. Empty when every criterion is checked by a command.
 */
export function personChecklist(view: ReportView): string[] {
  const items = view.tasks.flatMap((t) =>
    t.checks.filter((c) => c.kind === 'criterion' && c.verified_by !== 'command').map((c) => {
      const agent = c.verified_by === 'agent' && c.verdict !== 'pending' ? ` · *the agent reported it ${c.verdict === 'pass' ? 'met' : 'not met'}*` : ''
      return `- [ ] ${t.task.id}: ${inline(truncate(c.text, 300))}${agent}`
    }))
  if (!items.length) return []
  const more = items.length > MAX_LISTED ? [`- …and ${items.length - MAX_LISTED} more: see execution.md`] : []
  return [`**For a person to check**: ${waitingCriteria(items.length)} (no command checks them):`, '', ...items.slice(0, MAX_LISTED), ...more, '']
}
