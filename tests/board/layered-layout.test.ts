/** The board's own layered layout of a task graph (src/board/layered-layout.ts), without a browser. */
import { describe, expect, it } from 'vitest'
import { assignLayers, closestInOrder, layeredLayout, type Layout } from '../../src/board/layered-layout.js'
import { syntheticPlan } from '../../bench/synthetic.js'

const SIZES = { nodeWidth: 100, nodeHeight: 40, layerGap: 30, nodeGap: 10, padding: 8 }

function planGraph(tasks: number, seed: number) {
  const plan = syntheticPlan(tasks, 'full', seed) as { tasks: Array<{ id: string; depends_on: string[] }> }
  return { ids: plan.tasks.map((t) => t.id), edges: plan.tasks.flatMap((t) => t.depends_on.map((d) => [d, t.id] as const)) }
}

const overlap = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.abs(a.x - b.x) < SIZES.nodeWidth && Math.abs(a.y - b.y) < SIZES.nodeHeight

/** Pairs of edges whose segments between the same two layers cross. */
function crossingsOf(layout: Layout): number {
  const segments = layout.edges.flatMap((e) => e.points.slice(1).map((p, i) => [e.points[i]!, p] as const))
  let count = 0
  for (let i = 0; i < segments.length; i++) {
    for (let j = i + 1; j < segments.length; j++) {
      const [[a, b], [c, d]] = [segments[i]!, segments[j]!]
      if (a.x !== c.x || b.x !== d.x) continue
      if ((a.y - c.y) * (b.y - d.y) < 0) count++
    }
  }
  return count
}

describe('the layered layout', () => {
  it('puts every task in a layer after each task it depends on, and its edges from left to right', () => {
    for (const seed of [1, 2, 3]) {
      const { ids, edges } = planGraph(60, seed)
      const layout = layeredLayout(ids, edges, SIZES)
      for (const [from, to] of edges) {
        expect(layout.nodes.get(from)!.x, `${from} → ${to}`).toBeLessThan(layout.nodes.get(to)!.x)
      }
      for (const edge of layout.edges) {
        expect(edge.points[0]!.x).toBe(layout.nodes.get(edge.from)!.x + SIZES.nodeWidth)
        expect(edge.points.at(-1)!.x).toBe(layout.nodes.get(edge.to)!.x)
      }
    }
  })

  it('overlaps no two nodes, and keeps every node and edge inside its size', () => {
    const { ids, edges } = planGraph(200, 4)
    const layout = layeredLayout(ids, edges, SIZES)
    const at = [...layout.nodes.values()]
    expect(at).toHaveLength(200)
    for (let i = 0; i < at.length; i++) for (let j = i + 1; j < at.length; j++) expect(overlap(at[i]!, at[j]!)).toBe(false)
    for (const p of [...at, ...layout.edges.flatMap((e) => e.points)]) {
      expect(p.x).toBeGreaterThanOrEqual(SIZES.padding)
      expect(p.y).toBeGreaterThanOrEqual(SIZES.padding - 1e-9)
    }
    for (const p of at) {
      expect(p.x + SIZES.nodeWidth).toBeLessThanOrEqual(layout.width - SIZES.padding)
      expect(p.y + SIZES.nodeHeight).toBeLessThanOrEqual(layout.height - SIZES.padding + 1e-9)
    }
  })

  it('is deterministic: the same graph gives the same layout', () => {
    const { ids, edges } = planGraph(40, 5)
    expect(layeredLayout(ids, edges, SIZES)).toEqual(layeredLayout(ids, edges, SIZES))
  })

  it('undoes the crossings of an order given crossed', () => {
    // A before B and C before D in the input, but A leads to D and B to C: drawn in the given order, they cross.
    const edges = [['A', 'D'], ['B', 'C'], ['D', 'E'], ['C', 'F']] as const
    const layout = layeredLayout(['A', 'B', 'C', 'D', 'E', 'F'], edges, SIZES)
    expect(crossingsOf(layout)).toBe(0)
    const y = (id: string) => layout.nodes.get(id)!.y
    expect(Math.sign(y('A') - y('B'))).toBe(Math.sign(y('D') - y('C')))
  })

  it('routes an edge over several layers beside the nodes, not through them', () => {
    // A → B → C → D and A → D: the long edge passes layers 1 and 2 in a slot of its own.
    const layout = layeredLayout(['A', 'B', 'C', 'D'], [['A', 'B'], ['B', 'C'], ['C', 'D'], ['A', 'D']], SIZES)
    const long = layout.edges.find((e) => e.from === 'A' && e.to === 'D')!
    expect(long.points).toHaveLength(6)
    for (const p of long.points.slice(1, -1)) {
      for (const id of ['B', 'C']) {
        const n = layout.nodes.get(id)!
        const inside = p.x >= n.x && p.x <= n.x + SIZES.nodeWidth && p.y >= n.y && p.y <= n.y + SIZES.nodeHeight
        expect(inside, `${JSON.stringify(p)} inside ${id}`).toBe(false)
      }
    }
  })

  it('lays out a plan that is not a DAG (a cycle), drawing one edge backwards, and no graph at all', () => {
    const layout = layeredLayout(['A', 'B', 'C'], [['A', 'B'], ['B', 'C'], ['C', 'A'], ['A', 'A'], ['A', 'X']], SIZES)
    expect(layout.nodes.size).toBe(3)
    expect(layout.edges.map((e) => [e.from, e.to])).toEqual([['A', 'B'], ['B', 'C'], ['C', 'A']])
    const back = layout.edges[2]!
    expect(back.points.at(-1)!.x).toBe(layout.nodes.get('A')!.x + SIZES.nodeWidth)
    expect(layeredLayout([], [], SIZES)).toEqual({ width: 2 * SIZES.padding, height: 2 * SIZES.padding, nodes: new Map(), edges: [] })
  })

  it('places a task nothing depends on first next to the task that needs it', () => {
    // D is needed only by C, two layers on: it goes in the layer just before C.
    expect(assignLayers(4, [[0, 1], [1, 2], [3, 2]])).toEqual([0, 1, 2, 1])
  })

  it('places a layer as close to where its nodes want to be as the order and gaps allow', () => {
    expect(closestInOrder([0, 100, 200], [10, 10])).toEqual([0, 100, 200])
    expect(closestInOrder([50, 50], [20])).toEqual([40, 60])
    expect(closestInOrder([10, 0, 30], [10, 10])).toEqual([0, 10, 30])
  })
})
