/**
 * A small layered (Sugiyama-style) layout of a task graph, drawn left to right: a task is in a layer after every
 * task it depends on. Pure and deterministic: the same ids and edges in the same order give the same layout.
 *
 * 1. Layers: each node one layer after the furthest of its predecessors (longest path); a task nothing depends on
 *    first is moved right, next to its first successor. A cycle (a plan that is not a DAG) is broken by laying out
 *    against the first node still waiting, so its edge is drawn backwards rather than the layout failing.
 * 2. An edge over several layers is a chain of points, one in each layer it crosses, each with a slot of its own, so
 *    no edge runs through a node.
 * 3. Order within each layer: barycenter sweeps down and up, keeping the order with the fewest crossings.
 * 4. Vertical places: each node as close as its order allows to the mean of its neighbours' places (the closest
 *    places keeping the order and the gaps: pool-adjacent-violators), a few passes down and up.
 */

export interface Point { x: number; y: number }

export interface Layout {
  width: number
  height: number
  /** Each node's top-left corner. */
  nodes: Map<string, Point>
  /** Each edge's polyline, from its source's right side to its target's left side. */
  edges: Array<{ from: string; to: string; points: Point[] }>
}

export interface LayoutSizes {
  nodeWidth: number
  nodeHeight: number
  /** Between two layers, where the edges run. */
  layerGap: number
  /** Between two nodes of a layer (half of it beside an edge's slot). */
  nodeGap: number
  padding: number
}

const MAX_SWEEPS = 24
/** Sweeps in a row that found no fewer crossings before the ordering stops. */
const PATIENCE = 4
const PLACEMENT_PASSES = 4

export function layeredLayout(ids: readonly string[], edges: ReadonlyArray<readonly [string, string]>, sizes: LayoutSizes): Layout {
  const index = new Map(ids.map((id, i) => [id, i]))
  const drawn = edges.filter(([from, to]) => from !== to && index.has(from) && index.has(to))
  const pairs = drawn.map(([from, to]) => [index.get(from)!, index.get(to)!] as const)
  const layer = assignLayers(ids.length, pairs)
  const graph = chainEdges(ids.length, layer, pairs)
  const layers = orderLayers(graph)
  const centre = placeVertically(graph, layers, sizes)
  const vertices = layers.flat()
  const top = least(vertices.map((v) => centre[v]! - graph.height(v, sizes) / 2))
  const y = (v: number) => centre[v]! - top + sizes.padding
  const x = (v: number) => sizes.padding + graph.layer[v]! * (sizes.nodeWidth + sizes.layerGap)
  const nodes = new Map(ids.map((id, v) => [id, { x: x(v), y: y(v) - sizes.nodeHeight / 2 }]))
  const laidEdges = drawn.map(([from, to], e) => {
    const chain = graph.chains[e]!
    const points: Point[] = [{ x: x(chain[0]!) + sizes.nodeWidth, y: y(chain[0]!) }]
    for (const d of chain.slice(1, -1)) points.push({ x: x(d), y: y(d) }, { x: x(d) + sizes.nodeWidth, y: y(d) })
    points.push({ x: x(chain.at(-1)!), y: y(chain.at(-1)!) })
    // A chain runs left to right; an edge drawn against a cycle runs back to its target.
    return { from, to, points: graph.reversed[e] ? points.reverse() : points }
  })
  const layerCount = layers.length
  return {
    width: 2 * sizes.padding + layerCount * sizes.nodeWidth + Math.max(0, layerCount - 1) * sizes.layerGap,
    height: 2 * sizes.padding + (vertices.length ? greatest(vertices.map((v) => y(v) + graph.height(v, sizes) / 2)) - sizes.padding : 0),
    nodes,
    edges: laidEdges,
  }
}

/** The least and greatest of `values` (0 of none), without spreading a long array into arguments. */
const least = (values: readonly number[]) => (values.length ? values.reduce((a, b) => Math.min(a, b)) : 0)
const greatest = (values: readonly number[]) => (values.length ? values.reduce((a, b) => Math.max(a, b)) : 0)

/** Each node's layer: after all its predecessors (edges against a cycle set aside), sources next to their successors. */
export function assignLayers(count: number, pairs: ReadonlyArray<readonly [number, number]>): number[] {
  const order = topologicalOrder(count, pairs)
  const rank = new Array<number>(count)
  order.forEach((v, i) => { rank[v] = i })
  const preds = Array.from({ length: count }, () => [] as number[])
  const succs = Array.from({ length: count }, () => [] as number[])
  for (const [a, b] of pairs) {
    const [from, to] = rank[a]! < rank[b]! ? [a, b] : [b, a]
    preds[to]!.push(from)
    succs[from]!.push(to)
  }
  const layer = new Array<number>(count).fill(0)
  for (const v of order) for (const p of preds[v]!) layer[v] = Math.max(layer[v]!, layer[p]! + 1)
  for (const v of order) if (!preds[v]!.length && succs[v]!.length) layer[v] = Math.min(...succs[v]!.map((s) => layer[s]!)) - 1
  return layer
}

/** Kahn's order, nodes taken in index order; when only a cycle is left, its first node by index goes next. */
function topologicalOrder(count: number, pairs: ReadonlyArray<readonly [number, number]>): number[] {
  const waiting = new Array<number>(count).fill(0)
  const succs = Array.from({ length: count }, () => [] as number[])
  for (const [a, b] of pairs) {
    waiting[b]!++
    succs[a]!.push(b)
  }
  const done = new Array<boolean>(count).fill(false)
  const order: number[] = []
  const ready = [...waiting.keys()].filter((v) => waiting[v] === 0)
  let next = 0
  let firstUndone = 0
  while (order.length < count) {
    if (next === ready.length) {
      while (done[firstUndone]) firstUndone++
      ready.push(firstUndone)
    }
    const v = ready[next++]!
    if (done[v]) continue
    done[v] = true
    order.push(v)
    for (const s of succs[v]!) if (!done[s] && --waiting[s]! === 0) ready.push(s)
  }
  return order
}

/** The graph the ordering works on: the nodes, then one point per layer each long edge crosses. */
interface LayerGraph {
  /** Vertices' layers: the nodes first (as their index), then the edges' points. */
  layer: number[]
  /** Neighbours in the layer before and the layer after. */
  before: number[][]
  after: number[][]
  /** Each edge's vertices, left to right. */
  chains: number[][]
  reversed: boolean[]
  height(v: number, sizes: LayoutSizes): number
  isNode(v: number): boolean
}

function chainEdges(count: number, nodeLayer: readonly number[], pairs: ReadonlyArray<readonly [number, number]>): LayerGraph {
  const layer = [...nodeLayer]
  const before: number[][] = Array.from({ length: count }, () => [])
  const after: number[][] = Array.from({ length: count }, () => [])
  const reversed = pairs.map(([a, b]) => layer[a]! > layer[b]!)
  const chains = pairs.map(([a, b], e) => {
    const [from, to] = reversed[e] ? [b, a] : [a, b]
    const chain = [from]
    for (let l = layer[from]! + 1; l < layer[to]!; l++) {
      layer.push(l)
      before.push([])
      after.push([])
      chain.push(layer.length - 1)
    }
    chain.push(to)
    for (let i = 1; i < chain.length; i++) {
      after[chain[i - 1]!]!.push(chain[i]!)
      before[chain[i]!]!.push(chain[i - 1]!)
    }
    return chain
  })
  const isNode = (v: number) => v < count
  return { layer, before, after, chains, reversed, isNode, height: (v, sizes) => (isNode(v) ? sizes.nodeHeight : 0) }
}

/** The vertices of each layer, top to bottom, after barycenter sweeps: the order with the fewest crossings found. */
function orderLayers(graph: LayerGraph): number[][] {
  const layerCount = graph.layer.length ? greatest(graph.layer) + 1 : 0
  const layers: number[][] = Array.from({ length: layerCount }, () => [])
  graph.layer.forEach((l, v) => layers[l]!.push(v))
  const position = new Array<number>(graph.layer.length)
  const number = () => layers.forEach((l) => l.forEach((v, i) => { position[v] = i }))
  number()
  let best = layers.map((l) => [...l])
  let fewest = crossings(layers, graph.after, position)
  const weight = new Float64Array(graph.layer.length)
  for (let sweep = 0, stale = 0; sweep < MAX_SWEEPS && fewest > 0 && stale < PATIENCE; sweep++) {
    const down = sweep % 2 === 0
    const neighbours = down ? graph.before : graph.after
    for (let k = 1; k < layerCount; k++) {
      const layer = layers[down ? k : layerCount - 1 - k]!
      for (const v of layer) {
        const next = neighbours[v]!
        let sum = 0
        for (const u of next) sum += position[u]!
        weight[v] = next.length ? sum / next.length : position[v]!
      }
      // Equal barycenters keep their order.
      layer.sort((a, b) => weight[a]! - weight[b]! || position[a]! - position[b]!)
      layer.forEach((v, i) => { position[v] = i })
    }
    const count = crossings(layers, graph.after, position)
    if (count < fewest) {
      fewest = count
      best = layers.map((l) => [...l])
      stale = 0
    } else stale++
  }
  return best
}

/** Edge crossings between each pair of neighbouring layers: inversions of the edges' lower ends, by a Fenwick tree. */
export function crossings(layers: readonly number[][], after: readonly number[][], position: readonly number[]): number {
  let total = 0
  const tree = new Int32Array(layers.reduce((most, l) => Math.max(most, l.length), 0) + 1)
  const ends: number[] = []
  for (let l = 0; l + 1 < layers.length; l++) {
    ends.length = 0
    for (const v of layers[l]!) {
      const first = ends.length
      for (const w of after[v]!) ends.push(position[w]!)
      // Edges of one upper vertex in the order of their lower ends: they never cross each other.
      for (let i = first + 1; i < ends.length; i++) for (let j = i; j > first && ends[j - 1]! > ends[j]!; j--) [ends[j - 1], ends[j]] = [ends[j]!, ends[j - 1]!]
    }
    const size = layers[l + 1]!.length
    tree.fill(0, 0, size + 1)
    ends.forEach((end, seen) => {
      let notAfter = 0
      for (let i = end + 1; i > 0; i -= i & -i) notAfter += tree[i]!
      total += seen - notAfter
      for (let i = end + 1; i <= size; i += i & -i) tree[i]!++
    })
  }
  return total
}

/** Each vertex's vertical centre: near its neighbours, in its layer's order, with the gaps between. */
function placeVertically(graph: LayerGraph, layers: readonly number[][], sizes: LayoutSizes): number[] {
  const centre = new Array<number>(graph.layer.length).fill(0)
  const gap = (a: number, b: number) => (graph.height(a, sizes) + graph.height(b, sizes)) / 2 + (graph.isNode(a) && graph.isNode(b) ? sizes.nodeGap : sizes.nodeGap / 2)
  for (const l of layers) l.forEach((v, i) => { centre[v] = i ? centre[l[i - 1]!]! + gap(l[i - 1]!, v) : 0 })
  const mean = (vs: readonly number[], own: number) => (vs.length ? vs.reduce((s, u) => s + centre[u]!, 0) / vs.length : own)
  for (let pass = 0; pass < 2 * PLACEMENT_PASSES + 1; pass++) {
    const last = pass === 2 * PLACEMENT_PASSES
    const down = pass % 2 === 0
    const sequence = down ? [...layers.keys()] : [...layers.keys()].reverse()
    for (const l of sequence) {
      const layer = layers[l]!
      const wanted = layer.map((v) => (last ? mean([...graph.before[v]!, ...graph.after[v]!], centre[v]!) : mean((down ? graph.before : graph.after)[v]!, centre[v]!)))
      const placed = closestInOrder(wanted, layer.slice(1).map((v, i) => gap(layer[i]!, v)))
      layer.forEach((v, i) => { centre[v] = placed[i]! })
    }
  }
  return centre
}

/**
 * The places closest (least squares) to `wanted` with each at least `gaps[i]` below the one before: with the gaps
 * taken out this is an increasing fit, solved by pooling neighbours that are out of order into their mean.
 */
export function closestInOrder(wanted: readonly number[], gaps: readonly number[]): number[] {
  const offset = [0]
  for (const g of gaps) offset.push(offset.at(-1)! + g)
  const blocks: Array<{ sum: number; count: number }> = []
  for (let i = 0; i < wanted.length; i++) {
    blocks.push({ sum: wanted[i]! - offset[i]!, count: 1 })
    while (blocks.length > 1 && blocks.at(-2)!.sum / blocks.at(-2)!.count > blocks.at(-1)!.sum / blocks.at(-1)!.count) {
      const last = blocks.pop()!
      blocks.at(-1)!.sum += last.sum
      blocks.at(-1)!.count += last.count
    }
  }
  const placed: number[] = []
  for (const b of blocks) for (let k = 0; k < b.count; k++) placed.push(b.sum / b.count + offset[placed.length]!)
  return placed
}
