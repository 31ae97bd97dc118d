/**
 * validate + order + waves + conflicts for synthetic plans of 1k, 10k and 100k tasks, against the
 * algorithm written in the seed documents, measured in the same process.
 *
 * The seed's topological sort scans every task for every dequeued task (quadratic), so at 100k it would
 * run for minutes; it is measured there only with `--full`, and otherwise extrapolated from 10k (×100)
 * and marked as estimated.
 */
import { analyseDag } from '../src/plan/dag.js'
import { parseSolution } from '../src/plan/read.js'
import { fmt, medianMs, table } from './measure.js'
import { seedAnalysis } from './seed-algorithm.js'
import { syntheticPlan, type PlanShape } from './synthetic.js'

export function benchDag(options: { full?: boolean; sizes?: number[] } = {}): string {
  const sizes = options.sizes ?? [1_000, 10_000, 100_000]
  return (['minimal', 'full'] as const).map((shape) => benchShape(shape, sizes, options.full ?? false)).join('\n\n')
}

function benchShape(shape: PlanShape, sizes: number[], full: boolean): string {
  const rows: Array<Array<string | number>> = []
  let seedAt10k: number | undefined
  for (const size of sizes) {
    const raw = syntheticPlan(size, shape)
    const bytes = JSON.stringify(raw).length
    const runs = size >= 100_000 ? 3 : size >= 10_000 ? 7 : 21
    const parsed = parseSolution(raw)
    if (!parsed.ok) throw new Error(`synthetic plan invalid: ${JSON.stringify(parsed.errors.slice(0, 3))}`)
    const tasks = parsed.solution.tasks
    const ours = medianMs(() => {
      const result = parseSolution(raw)
      if (!result.ok) throw new Error('invalid')
      analyseDag(result.solution.tasks)
    }, runs)
    const oursAnalysis = medianMs(() => analyseDag(tasks), runs)
    let seedMs: number
    let note = 'measured'
    if (size <= 10_000 || full) {
      seedMs = medianMs(() => seedAnalysis(raw as never), size >= 10_000 ? 3 : 7)
      if (size === 10_000) seedAt10k = seedMs
    } else if (seedAt10k !== undefined) {
      seedMs = seedAt10k * (size / 10_000) ** 2
      note = 'estimated (quadratic from 10k)'
    } else {
      continue
    }
    const waves = analyseDag(tasks).waves.length
    rows.push([size, `${(bytes / 1e6).toFixed(1)} MB`, waves, fmt(ours), fmt(oursAnalysis), fmt(seedMs), `${(seedMs / ours).toFixed(0)}×`, `${(seedMs / oursAnalysis).toFixed(0)}×`, note])
  }
  return [
    `DAG, ${shape} tasks: validate + order + waves + conflicts (median ms)`,
    table(['tasks', 'JSON', 'waves', 'ours (zod validate + DAG)', 'ours (DAG only)', 'seed algorithm', 'ratio', 'ratio (DAG only)', 'seed'], rows),
  ].join('\n')
}
