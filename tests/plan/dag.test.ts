import { describe, expect, it } from 'vitest'
import { analyseDag, normalisePath } from '../../src/plan/dag.js'
import { task } from '../support/tasks.js'
import { UNDER_MUTATION } from '../support/mutation.js'

describe('analyseDag', () => {
  it('orders dependencies first and groups independent tasks into waves', () => {
    const dag = analyseDag([task('T1'), task('T2', ['T1']), task('T3', ['T1']), task('T4', ['T2', 'T3'])])
    expect(dag.errors).toEqual([])
    expect(dag.order).toEqual(['T1', 'T2', 'T3', 'T4'])
    expect(dag.waves).toEqual([['T1'], ['T2', 'T3'], ['T4']])
  })

  it('keeps plan order among tasks that are ready together', () => {
    const dag = analyseDag([task('T3'), task('T1'), task('T2')])
    expect(dag.order).toEqual(['T3', 'T1', 'T2'])
    expect(dag.waves).toEqual([['T3', 'T1', 'T2']])
  })

  it('never puts two tasks touching the same file in one wave', () => {
    const dag = analyseDag([task('T1', [], ['a.ts']), task('T2', [], ['./a.ts']), task('T3', [], ['b.ts'])])
    expect(dag.waves).toEqual([['T1', 'T3'], ['T2']])
    expect(dag.conflicts).toEqual([{ path: 'a.ts', tasks: ['T1', 'T2'] }])
  })

  it('reports duplicate ids with both positions', () => {
    const dag = analyseDag([task('T1'), task('T1')])
    expect(dag.errors).toMatchObject([{ code: 'duplicate_id', path: 'tasks[1].id', task_id: 'T1' }])
    expect(dag.errors[0]!.message).toContain('tasks[0]')
  })

  it('reports self and unknown dependencies with the exact path', () => {
    const dag = analyseDag([task('T1', ['T1']), task('T2', ['T1', 'T9'])])
    expect(dag.errors).toMatchObject([
      { code: 'self_dependency', path: 'tasks[0].depends_on[0]', task_id: 'T1' },
      { code: 'unknown_dependency', path: 'tasks[1].depends_on[1]', task_id: 'T2', message: 'T2 depends on unknown task T9' },
    ])
  })

  it('reports a cycle as a path and still orders the tasks outside it', () => {
    const dag = analyseDag([task('T1', ['T3']), task('T2'), task('T3', ['T1'])])
    const cycles = dag.errors.filter((e) => e.code === 'cycle')
    expect(cycles).toHaveLength(1)
    expect(cycles[0]!.message).toBe('Circular dependency: T1 → T3 → T1')
    expect(cycles[0]!.cycle).toEqual(['T1', 'T3', 'T1'])
    expect(dag.order).toEqual(['T2'])
  })

  it('finds a cycle at the end of a 10,000-task chain without recursion', () => {
    const n = 10_000
    const tasks = Array.from({ length: n }, (_, i) => task(`T${i + 1}`, i === 0 ? [`T${n}`] : [`T${i}`]))
    const dag = analyseDag(tasks)
    const cycle = dag.errors.find((e) => e.code === 'cycle')!
    expect(cycle.cycle).toHaveLength(n + 1)
    expect(cycle.cycle![0]).toBe(cycle.cycle![n])
    expect(dag.order).toEqual([])
  })

  const chain = UNDER_MUTATION ? 1_000 : 100_000
  it(`schedules a ${chain.toLocaleString('en')}-task chain`, () => {
    const tasks = Array.from({ length: chain }, (_, i) => task(`T${i + 1}`, i ? [`T${i}`] : []))
    const dag = analyseDag(tasks)
    expect(dag.errors).toEqual([])
    expect(dag.waves).toHaveLength(chain)
  })

  it('normalises file paths for conflict detection', () => {
    expect(normalisePath('./src//a.ts')).toBe('src/a.ts')
    expect(normalisePath('src\\b.ts')).toBe('src/b.ts')
  })
})
