import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { analyseDag } from '../../src/plan/dag.js'
import type { Task } from '../../src/model/index.js'
import { task } from '../support/tasks.js'

const FILES = ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts']

/** Random acyclic plans: a task may depend only on tasks listed before it, and touch a few shared files. */
const acyclicPlan = fc
  .integer({ min: 1, max: 60 })
  .chain((n) =>
    fc.tuple(
      ...Array.from({ length: n }, (_, i) =>
        fc.record({
          deps: fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, i - 1) }), { maxLength: i === 0 ? 0 : 4 }),
          files: fc.uniqueArray(fc.constantFrom(...FILES), { maxLength: 2 }),
        }),
      ),
    ),
  )
  .chain((specs) =>
    // Shuffle so plan order is not already a topological order.
    fc.shuffledSubarray(specs.map((s, i) => task(`T${i + 1}`, s.deps.map((d) => `T${d + 1}`), s.files)), {
      minLength: specs.length,
      maxLength: specs.length,
    }),
  )

const waveOf = (waves: string[][]) => new Map(waves.flatMap((w, k) => w.map((id) => [id, k] as const)))
const shareFile = (a: Task, b: Task) => a.files.some((f) => b.files.some((g) => g.path === f.path))

describe('analyseDag properties', () => {
  it('every topological order respects every dependency and contains every task once', () => {
    fc.assert(
      fc.property(acyclicPlan, (tasks) => {
        const dag = analyseDag(tasks)
        expect(dag.errors).toEqual([])
        expect([...dag.order].sort()).toEqual(tasks.map((t) => t.id).sort())
        const position = new Map(dag.order.map((id, i) => [id, i]))
        for (const t of tasks) for (const d of t.depends_on) expect(position.get(d)!).toBeLessThan(position.get(t.id)!)
      }),
      { numRuns: 300 },
    )
  })

  it('waves respect dependencies, are conflict-free and are maximal', () => {
    fc.assert(
      fc.property(acyclicPlan, (tasks) => {
        const { waves } = analyseDag(tasks)
        const wave = waveOf(waves)
        const byId = new Map(tasks.map((t) => [t.id, t]))
        expect(wave.size).toBe(tasks.length)
        expect(waves.every((w) => w.length > 0)).toBe(true)
        for (const t of tasks) for (const d of t.depends_on) expect(wave.get(d)!).toBeLessThan(wave.get(t.id)!)
        for (const w of waves)
          for (let i = 0; i < w.length; i++)
            for (let j = i + 1; j < w.length; j++) expect(shareFile(byId.get(w[i]!)!, byId.get(w[j]!)!)).toBe(false)
        // Maximal: nothing could run one wave earlier.
        for (const t of tasks) {
          const k = wave.get(t.id)!
          if (k === 0) continue
          const blockedByDependency = t.depends_on.some((d) => wave.get(d) === k - 1)
          const blockedByFile = waves[k - 1]!.some((id) => shareFile(byId.get(id)!, t))
          expect(blockedByDependency || blockedByFile).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('any added back edge is reported as a cycle whose path follows real dependencies', () => {
    fc.assert(
      fc.property(acyclicPlan, fc.nat(), (tasks, pick) => {
        const withDeps = tasks.filter((t) => t.depends_on.length > 0)
        fc.pre(withDeps.length > 0)
        const victim = withDeps[pick % withDeps.length]!
        const dep = victim.depends_on[0]!
        const cyclic = tasks.map((t) => (t.id === dep ? { ...t, depends_on: [...t.depends_on, victim.id] } : t))
        const dag = analyseDag(cyclic)
        const cycles = dag.errors.filter((e) => e.code === 'cycle')
        expect(cycles.length).toBeGreaterThan(0)
        const byId = new Map(cyclic.map((t) => [t.id, t]))
        for (const c of cycles) {
          const path = c.cycle!
          expect(path[0]).toBe(path[path.length - 1])
          for (let i = 0; i + 1 < path.length; i++) expect(byId.get(path[i]!)!.depends_on).toContain(path[i + 1])
        }
      }),
      { numRuns: 200 },
    )
  })
})
