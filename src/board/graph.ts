/**
 * An issue's task graph as SVG, laid out when the page is made by the board's own layered layout
 * (layered-layout.ts): the page itself runs no layout code. Graphs of the same shape (same tasks and dependencies)
 * share one layout, and the layouts made are kept (`exportLayouts`/`importLayouts`) so the next board of the same
 * plans lays out nothing.
 */
import { createHash } from 'node:crypto'
import type { BoardTask } from './data.js'
import { escapeHtml } from './escape.js'
import { layeredLayout, type Layout } from './layered-layout.js'

const NODE_WIDTH = 190
const NODE_HEIGHT = 46
/** Characters of a task title that fit in a node; the full title is in the node's tooltip and the task list. */
const TITLE_FIT = 24
/** Part of a layout's key: layouts an earlier layout engine kept (elkjs') are made again. */
const LAYOUT_VERSION = 'layered-1'

/** A layout as kept in the cache file: plain JSON. */
export interface SavedLayout {
  width: number
  height: number
  nodes: Array<[string, number, number]>
  edges: Array<{ from: string; to: string; points: Array<[number, number]> }>
}

export class GraphLayout {
  private readonly layouts = new Map<string, Layout>()
  /** The shapes of the graphs drawn: only their layouts are kept for the next board (the file would grow forever). */
  private readonly used = new Set<string>()
  /** Layouts made in this process (the others came from the cache). */
  made = 0

  /** The SVG of `tasks` (their ids, titles, states and dependencies) for issue `number`. */
  svg(number: number, tasks: readonly BoardTask[]): string {
    return renderSvg(number, tasks, this.layout(tasks))
  }

  private layout(tasks: readonly BoardTask[]): Layout {
    const known = new Set(tasks.map((t) => t.id))
    const edges = tasks.flatMap((t) => t.depends_on.filter((d) => known.has(d)).map((d) => [d, t.id] as const))
    const key = createHash('sha256').update(`${LAYOUT_VERSION}|${tasks.map((t) => t.id).join(',')}|${edges.map((e) => e.join('>')).join(',')}`).digest('base64url').slice(0, 22)
    this.used.add(key)
    let layout = this.layouts.get(key)
    if (!layout) {
      layout = this.run(tasks.map((t) => t.id), edges)
      this.layouts.set(key, layout)
    }
    return layout
  }

  /**
   * The layouts of the graphs drawn, by shape, to keep for the next board (those of plans gone are dropped); `all`:
   * every layout known, for another thread drawing graphs of the same board.
   */
  exportLayouts(all = false): Record<string, SavedLayout> {
    const saved: Record<string, SavedLayout> = {}
    for (const key of all ? this.layouts.keys() : this.used) {
      const l = this.layouts.get(key)!
      saved[key] = {
        width: l.width, height: l.height,
        nodes: [...l.nodes].map(([id, at]) => [id, at.x, at.y]),
        edges: l.edges.map((e) => ({ from: e.from, to: e.to, points: e.points.map((p) => [p.x, p.y]) })),
      }
    }
    return saved
  }

  /** Layouts kept by an earlier board: used for graphs of the same shape. Anything malformed is ignored. */
  importLayouts(saved: unknown): void {
    if (!saved || typeof saved !== 'object') return
    for (const [key, value] of Object.entries(saved as Record<string, SavedLayout>)) {
      try {
        const layout: Layout = {
          width: Number(value.width), height: Number(value.height),
          nodes: new Map(value.nodes.map(([id, x, y]) => [String(id), { x: Number(x), y: Number(y) }])),
          edges: value.edges.map((e) => ({ from: String(e.from), to: String(e.to), points: e.points.map(([x, y]) => ({ x: Number(x), y: Number(y) })) })),
        }
        this.layouts.set(key, layout)
      } catch {
        // A malformed entry is laid out again.
      }
    }
  }

  /** The layouts another thread drew for this board (`made` of them new): kept with this board's. */
  adoptLayouts(drawn: Record<string, SavedLayout>, made: number): void {
    this.importLayouts(drawn)
    for (const key of Object.keys(drawn)) this.used.add(key)
    this.made += made
  }

  private run(ids: string[], edges: ReadonlyArray<readonly [string, string]>): Layout {
    this.made++
    return layeredLayout(ids, edges, { nodeWidth: NODE_WIDTH, nodeHeight: NODE_HEIGHT, layerGap: 44, nodeGap: 16, padding: 8 })
  }
}

const round = (n: number) => Math.round(n * 10) / 10

function renderSvg(number: number, tasks: readonly BoardTask[], layout: Layout): string {
  const marker = `arrow-${number}`
  const edges = layout.edges.map((e) => {
    const d = e.points.map((p, i) => `${i ? 'L' : 'M'}${round(p.x)} ${round(p.y)}`).join(' ')
    return `<path class="edge" d="${d}" marker-end="url(#${marker})"/>`
  })
  const nodes = tasks.map((t) => {
    const at = layout.nodes.get(t.id) ?? { x: 0, y: 0 }
    const title = t.title.length > TITLE_FIT ? `${t.title.slice(0, TITLE_FIT - 1)}…` : t.title
    return [
      `<a href="#issue-${number}-${escapeHtml(t.id)}" class="node st-${t.state}" transform="translate(${round(at.x)} ${round(at.y)})">`,
      `<title>${escapeHtml(`${t.id}: ${t.title} (${t.badge})`)}</title>`,
      `<rect width="${NODE_WIDTH}" height="${NODE_HEIGHT}" rx="6"/>`,
      `<text x="10" y="19" class="id">${escapeHtml(t.id)} · ${escapeHtml(t.badge)}</text>`,
      `<text x="10" y="36">${escapeHtml(title)}</text>`,
      '</a>',
    ].join('')
  })
  return [
    `<svg class="graph" role="group" aria-label="Task graph of ISS-${number}" viewBox="0 0 ${round(layout.width)} ${round(layout.height)}" width="${round(layout.width)}" height="${round(layout.height)}">`,
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z"/></marker></defs>`,
    ...edges,
    ...nodes,
    '</svg>',
  ].join('')
}
