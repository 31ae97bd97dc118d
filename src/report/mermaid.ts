import { truncate } from './markdown.js'
import { STATE_ICON, type TaskState, type TaskView } from './task-view.js'

/** Mermaid refuses to draw more edges, or a longer text, than this (its `maxEdges` and `maxTextSize` defaults). */
const MAX_EDGES = 500
const MAX_TEXT = 50_000
const LABEL_TITLE_LENGTH = 48

/** GitHub's Primer colours: green done, amber done but not proven, red failed, blue running, yellow blocked, grey waiting, dashed skipped. */
const CLASS_STYLE: Record<TaskState, string> = {
  converged: 'fill:#dafbe1,stroke:#1a7f37,color:#0d3a1a',
  unproven: 'fill:#fff8c5,stroke:#bf8700,color:#4d2d00',
  failed: 'fill:#ffebe9,stroke:#cf222e,color:#67060c',
  running: 'fill:#ddf4ff,stroke:#0969da,color:#0a3069',
  blocked: 'fill:#fff8c5,stroke:#9a6700,color:#4d2d00',
  pending: 'fill:#f6f8fa,stroke:#8c959f,color:#24292f',
  skipped: 'fill:#f6f8fa,stroke:#8c959f,color:#57606a,stroke-dasharray:4 3',
}

/** Words Mermaid reads as syntax, which a node id must not be. */
const RESERVED_IDS = new Set([
  'end', 'graph', 'flowchart', 'subgraph', 'direction', 'style', 'class', 'classdef', 'click', 'linkstyle', 'call', 'href', 'default',
])

/**
 * The task DAG as a Mermaid flowchart, each node coloured by its task's state, or undefined when there
 * is nothing to draw or Mermaid would refuse the graph as too large.
 */
export function renderTaskGraph(tasks: readonly TaskView[]): string | undefined {
  if (!tasks.length) return undefined
  const ids = mermaidIds(tasks.map((t) => t.task.id))
  const nodeOf = new Map(tasks.map((t, i) => [t.task.id, ids[i]!]))
  const nodes = tasks.map(
    (t, i) => `  ${ids[i]}["${mermaidLabel(`${STATE_ICON[t.state]} ${t.task.id} · ${truncate(t.task.title, LABEL_TITLE_LENGTH)}`)}"]:::${t.state}`,
  )
  const edges: string[] = []
  for (const t of tasks)
    for (const dep of t.task.depends_on) {
      const from = nodeOf.get(dep)
      if (from !== undefined && dep !== t.task.id) edges.push(`  ${from} --> ${nodeOf.get(t.task.id)}`)
    }
  if (edges.length > MAX_EDGES) return undefined
  const used = new Set(tasks.map((t) => t.state))
  const classes = (Object.keys(CLASS_STYLE) as TaskState[]).filter((s) => used.has(s)).map((s) => `  classDef ${s} ${CLASS_STYLE[s]}`)
  const text = ['flowchart LR', ...nodes, ...edges, ...classes].join('\n')
  return text.length > MAX_TEXT ? undefined : text
}

/**
 * Text inside a quoted Mermaid label: one line, and every character Mermaid or the markdown around it
 * could read as syntax (`"`, `#`, `<`, `>`, `&`, backtick) written as a Mermaid entity code (`#34;`).
 */
export function mermaidLabel(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[#"<>&`]/g, (c) => `#${c.charCodeAt(0)};`)
}

/** Node ids for task ids: letters, digits and `_` only, never a Mermaid keyword, all distinct. */
export function mermaidIds(taskIds: readonly string[]): string[] {
  const taken = new Set<string>()
  return taskIds.map((raw) => {
    let base = raw.replace(/[^A-Za-z0-9_]/g, '_')
    if (!/^[A-Za-z]/.test(base) || RESERVED_IDS.has(base.toLowerCase())) base = `task_${base}`
    let id = base
    for (let k = 2; taken.has(id); k++) id = `${base}_${k}`
    taken.add(id)
    return id
  })
}
