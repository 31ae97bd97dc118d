/**
 * An issue's task graph as SVG, laid out by ELK's layered algorithm (elkjs) when the page is made: the page
 * itself runs no layout code. Graphs of the same shape (same tasks and dependencies) share one layout, and the
 * layouts made are kept (`exportLayouts`/`importLayouts`) so the next board of the same plans lays out nothing.
 * elkjs (1.6 MB) is loaded on the first layout only: a command that makes no board never loads it (the bundle
 * keeps it in a chunk of its own).
 */
import { createHash } from 'node:crypto'
import type { ELK as Elk, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js'
import type { BoardTask } from './data.js'
import { escapeHtml } from './escape.js'

const NODE_WIDTH = 190
const NODE_HEIGHT = 46
/** Characters of a task title that fit in a node; the full title is in the node's tooltip and the task list. */
const TITLE_FIT = 24

interface Layout {
  width: number
  height: number
  nodes: Map<string, { x: number; y: number }>
  edges: Array<{ from: string; to: string; points: Array<{ x: number; y: number }> }>
}

/** A layout as kept in the cache file: plain JSON. */
export interface SavedLayout {
  width: number
  height: number
  nodes: Array<[string, number, number]>
  edges: Array<{ from: string; to: string; points: Array<[number, number]> }>
}

export class GraphLayout {
  private elk: Promise<Elk> | undefined
  private readonly layouts = new Map<string, Promise<Layout>>()
  /** Layouts made by elkjs in this process (the others came from the cache). */
  made = 0

  /** The SVG of `tasks` (their ids, titles, states and dependencies) for issue `number`. */
  async svg(number: number, tasks: readonly BoardTask[]): Promise<string> {
    const layout = await this.layout(tasks)
    return renderSvg(number, tasks, layout)
  }

  private layout(tasks: readonly BoardTask[]): Promise<Layout> {
    const known = new Set(tasks.map((t) => t.id))
    const edges = tasks.flatMap((t) => t.depends_on.filter((d) => known.has(d)).map((d) => [d, t.id] as const))
    const key = createHash('sha256').update(`${tasks.map((t) => t.id).join(',')}|${edges.map((e) => e.join('>')).join(',')}`).digest('base64url').slice(0, 22)
    let layout = this.layouts.get(key)
    if (!layout) {
      layout = this.run(tasks.map((t) => t.id), edges)
      this.layouts.set(key, layout)
    }
    return layout
  }

  /** The layouts made so far, by shape, to keep for the next board. */
  async exportLayouts(): Promise<Record<string, SavedLayout>> {
    const saved: Record<string, SavedLayout> = {}
    for (const [key, promise] of this.layouts) {
      const l = await promise
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
        this.layouts.set(key, Promise.resolve(layout))
      } catch {
        // A malformed entry is laid out again.
      }
    }
  }

  private engine(): Promise<Elk> {
    this.elk ??= import('elkjs/lib/elk.bundled.js').then((m) => new m.default())
    return this.elk
  }

  private async run(ids: string[], edges: ReadonlyArray<readonly [string, string]>): Promise<Layout> {
    this.made++
    const graph: ElkNode = {
      id: 'root',
      layoutOptions: {
        'elk.algorithm': 'layered',
        'elk.direction': 'RIGHT',
        'elk.edgeRouting': 'ORTHOGONAL',
        // Fewer crossing-minimisation passes than the default 7: half the time for a 20-task graph (bench/board.ts).
        'elk.layered.thoroughness': '1',
        'elk.layered.spacing.nodeNodeBetweenLayers': '36',
        'elk.spacing.nodeNode': '16',
        'elk.padding': '[top=8,left=8,bottom=8,right=8]',
      },
      children: ids.map((id) => ({ id, width: NODE_WIDTH, height: NODE_HEIGHT })),
      edges: edges.map(([from, to], i): ElkExtendedEdge => ({ id: `e${i}`, sources: [from], targets: [to] })),
    }
    const laid = await (await this.engine()).layout(graph)
    return {
      width: laid.width ?? 0,
      height: laid.height ?? 0,
      nodes: new Map((laid.children ?? []).map((n) => [n.id, { x: n.x ?? 0, y: n.y ?? 0 }])),
      edges: (laid.edges ?? []).map((e, i) => ({
        from: edges[i]![0],
        to: edges[i]![1],
        points: (e.sections ?? []).flatMap((s) => [s.startPoint, ...(s.bendPoints ?? []), s.endPoint]),
      })),
    }
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
