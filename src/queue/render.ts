/** The queue as markdown (`status` without an issue): groups, items, and why each is where it is. Pure. */
import type { QueueItem, RunState } from '../model/index.js'
import { cell, codeCell, plural, table, truncate } from '../report/markdown.js'
import { mermaidIds, mermaidLabel } from '../report/mermaid.js'
import { queueGroups, type QueueGroup } from './build.js'
import { belongsInQueue } from './membership.js'

export type ApprovalState = 'approved' | 'missing' | 'stale'

export interface QueueReportInput {
  /** undefined: no state branch yet. */
  run: RunState | undefined
  /** Approval of each item's stored plan, by item id (absent: not read). */
  approvals?: ReadonlyMap<string, ApprovalState>
  commandPrefix: string
  links?: { stateFile?: string; run?: string }
  /** Items shown in the tables (the rest are counted); the graph is drawn up to `maxGraphItems`. */
  maxItems?: number
  maxGraphItems?: number
}

const APPROVAL: Record<ApprovalState, string> = {
  approved: 'approved',
  missing: 'needs approval',
  stale: 'plan changed since approval',
}

export function renderQueueReport(input: QueueReportInput): string {
  const { run, commandPrefix: p } = input
  const maxItems = input.maxItems ?? 300
  const out = ['### Converge · queue', '']
  if (!run) {
    out.push(`Nothing is queued: Converge has no state in this repository yet. Plan issues (\`${p} plan\`, or the plan label), then run \`sync\` to queue them.`)
    return out.join('\n')
  }
  const groups = queueGroups(run.queue)
  const parallel = groups.filter((g) => g.kind === 'parallel').length
  const built = run.queue_built_at ? ` · queue built by \`sync\` at ${run.queue_built_at}` : ''
  if (!run.queue.length) {
    out.push(`The queue is empty${built}: no planned solution is waiting.`)
  } else {
    const started = run.queue.filter((i) => i.status === 'executing').length
    const done = run.queue.filter((i) => i.status === 'completed').length
    const failed = run.queue.filter((i) => i.status === 'failed').length
    const counts = [started && `${started} executing`, done && `${done} completed`, failed && `${failed} failed`].filter(Boolean)
    out.push(
      `**${plural(run.queue.length, 'solution')}** in **${plural(groups.length, 'group')}** (${parallel} parallel, ${groups.length - parallel} sequential)${counts.length ? ` · ${counts.join(', ')}` : ''}${built}`,
      '',
      'Items are numbered in queue order: issues already executing first, then by priority (a priority label of the issue, else the most urgent task of its solution), then by issue number. '
        + 'Solutions that change a file in common, directly or through one another, form a **sequential** group (S) and run one after the other in that order; '
        + 'those that share no file with any other form the **parallel** group (P) and can all run at once. No two groups change the same file, so groups do not wait for each other.',
      '',
      table(['group', 'kind', 'order', 'files in common'], groups.map((g) => [
        g.id,
        g.kind,
        g.items.map((i) => i.item_id).join(g.kind === 'sequential' ? ' → ' : ' ∥ '),
        g.sharedFiles.length ? files(g.sharedFiles, 6) : '—',
      ])),
    )
    let shown = 0
    for (const group of groups) {
      const rows = group.items.slice(0, Math.max(0, maxItems - shown))
      shown += rows.length
      if (!rows.length) continue
      out.push('', `#### ${group.id} · ${group.kind === 'sequential' ? `sequential: ${group.items.map((i) => i.item_id).join(' → ')}` : 'parallel'}`, '')
      out.push(itemTable(run, group, rows, input.approvals))
      if (rows.length < group.items.length) out.push('', `… and ${group.items.length - rows.length} more items of ${group.id}.`)
    }
    const graph = run.queue.length <= (input.maxGraphItems ?? 60) ? queueGraph(run, groups) : undefined
    if (graph) out.push('', '```mermaid', graph, '```')
  }

  // What the queue does not reflect yet: it is rebuilt by `sync`.
  const items = new Map(run.queue.map((i) => [i.issue_id, i]))
  const waiting = Object.entries(run.issues).filter(([id, s]) => belongsInQueue(s) && !items.has(id)).map(([, s]) => s.number).sort((a, b) => a - b)
  const replanned = run.queue.filter((i) => {
    const s = run.issues[i.issue_id]
    return s && s.solution_id !== null && s.solution_id !== i.solution_id
  })
  const notes: string[] = []
  if (waiting.length) notes.push(`- Planned since the queue was built, not queued yet: ${waiting.slice(0, 30).map((n) => `#${n}`).join(', ')}${waiting.length > 30 ? ` and ${waiting.length - 30} more` : ''}.`)
  if (replanned.length) notes.push(`- Planned again since the queue was built (another solution now): ${replanned.slice(0, 30).map((i) => i.item_id).join(', ')}.`)
  const leaving = run.queue.filter((i) => i.status === 'completed' || i.status === 'failed')
  if (leaving.length) notes.push(`- Finished, leaving the queue at the next \`sync\`: ${leaving.map((i) => `${i.item_id} (${i.status})`).join(', ')}.`)
  if (notes.length) out.push('', '**Not reflected yet** (run `sync` to rebuild the queue):', '', ...notes)

  const links = [input.links?.stateFile && `[state.json](${input.links.stateFile})`, input.links?.run && `[this run](${input.links.run})`].filter(Boolean)
  out.push('', `<sub>Rebuilt on every \`sync\`; \`${p} status\` on an issue shows that issue's plan and progress.${links.length ? ` ${links.join(' · ')}` : ''}</sub>`)
  return out.join('\n')
}

function itemTable(run: RunState, group: QueueGroup, rows: QueueItem[], approvals: ReadonlyMap<string, ApprovalState> | undefined): string {
  const header = ['item', 'issue', 'solution', 'status', ...(approvals ? ['approval'] : []), 'priority', 'files', 'why here']
  return table(header, rows.map((item) => {
    const summary = run.issues[item.issue_id]
    const issue = summary ? `#${summary.number} ${cell(summary.title)}` : cell(item.issue_id)
    const approval = approvals?.get(item.item_id)
    return [
      `**${item.item_id}**${group.kind === 'sequential' && item.position ? ` (${item.position}/${group.items.length})` : ''}`,
      issue,
      codeCell(item.solution_id),
      summary?.status ?? item.status,
      ...(approvals ? [approval ? APPROVAL[approval] : '—'] : []),
      item.priority ? `${item.priority}${item.priority_source === 'label' ? ' (label)' : ''}` : '—',
      item.files?.length ? files(item.files, 4) : '—',
      cell(item.reason ?? ''),
    ]
  }))
}

function files(list: readonly string[], max: number): string {
  const shown = list.slice(0, max).map(codeCell).join(', ')
  return list.length > max ? `${shown} +${list.length - max}` : shown
}

const ITEM_CLASS: Record<QueueItem['status'], string> = {
  completed: 'fill:#dafbe1,stroke:#1a7f37,color:#0d3a1a',
  failed: 'fill:#ffebe9,stroke:#cf222e,color:#67060c',
  executing: 'fill:#ddf4ff,stroke:#0969da,color:#0a3069',
  pending: 'fill:#f6f8fa,stroke:#8c959f,color:#24292f',
}

/** The groups as Mermaid subgraphs: sequential ones as chains, items coloured by status. */
function queueGraph(run: RunState, groups: QueueGroup[]): string | undefined {
  if (!groups.length) return undefined
  const ids = mermaidIds(run.queue.map((i) => i.item_id))
  const node = new Map(run.queue.map((item, k) => [item.item_id, ids[k]!]))
  const lines = ['flowchart LR']
  groups.forEach((group, g) => {
    lines.push(`  subgraph group_${g}["${mermaidLabel(`${group.id} · ${group.kind}`)}"]`)
    if (group.kind === 'sequential') lines.push('    direction LR')
    for (const item of group.items) {
      const title = run.issues[item.issue_id]?.title ?? ''
      const label = `${item.item_id} · #${item.issue_id.slice(4)}${title ? ` ${truncate(title, 32)}` : ''}`
      lines.push(`    ${node.get(item.item_id)}["${mermaidLabel(label)}"]:::${item.status}`)
    }
    lines.push('  end')
    for (const item of group.items)
      for (const dep of item.depends_on ?? []) if (node.has(dep)) lines.push(`  ${node.get(dep)} --> ${node.get(item.item_id)}`)
  })
  const used = new Set(run.queue.map((i) => i.status))
  for (const [status, style] of Object.entries(ITEM_CLASS)) if (used.has(status as QueueItem['status'])) lines.push(`  classDef ${status} ${style}`)
  return lines.join('\n')
}
