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

  it('says how to fix each error: a free id for a duplicate, the ids that exist for an unknown dependency', () => {
    const dag = analyseDag([task('T1', ['T1']), task('T1'), task('T2', ['T1', 'T1', 'T9'])])
    expect(dag.errors).toEqual([
      { code: 'duplicate_id', path: 'tasks[1].id', task_id: 'T1', message: 'Duplicate task id T1 (first used by tasks[0])', fix: 'Give tasks[1] a unique id, e.g. T4, and update any depends_on that meant it' },
      { code: 'self_dependency', path: 'tasks[0].depends_on[0]', task_id: 'T1', message: 'T1 depends on itself', fix: 'Remove "T1" from tasks[0].depends_on' },
      { code: 'unknown_dependency', path: 'tasks[2].depends_on[2]', task_id: 'T2', message: 'T2 depends on unknown task T9', fix: 'Use the id of an existing task (T1, T1, T2) or remove "T9"' },
    ])
    const six = Array.from({ length: 6 }, (_, i) => task(`T${i + 1}`, i === 5 ? ['T7'] : []))
    expect(analyseDag(six).errors[0]!.fix).toBe('Use the id of an existing task (T1, T2, T3, T4, T5, …) or remove "T7"')
    expect(analyseDag(six.slice(1)).errors[0]!.fix).toBe('Use the id of an existing task (T2, T3, T4, T5, T6) or remove "T7"')
  })

  it('names a cycle where it starts and says which dependency to drop', () => {
    const dag = analyseDag([task('T0'), task('T1', ['T0', 'T2']), task('T2', ['T1'])])
    expect(dag.errors).toEqual([{
      code: 'cycle', path: 'tasks[1].depends_on', task_id: 'T1', cycle: ['T1', 'T2', 'T1'],
      message: 'Circular dependency: T1 → T2 → T1',
      fix: 'Remove one of these dependencies so the tasks can be ordered (e.g. drop "T2" from T1.depends_on)',
    }])
    expect(dag.order).toEqual(['T0'])
  })

  it('reports at most 10 cycles, even when one task closes them all', () => {
    const spokes = Array.from({ length: 12 }, (_, i) => task(`S${i + 1}`, ['HUB']))
    const dag = analyseDag([task('HUB', spokes.map((t) => t.id)), ...spokes])
    const cycles = dag.errors.filter((e) => e.code === 'cycle')
    expect(cycles).toHaveLength(10)
    expect(cycles.map((e) => e.cycle)).toEqual(Array.from({ length: 10 }, (_, i) => ['HUB', `S${i + 1}`, 'HUB']))
    const rings = Array.from({ length: 12 }, (_, i) => [task(`A${i}`, [`B${i}`]), task(`B${i}`, [`A${i}`])]).flat()
    expect(analyseDag(rings).errors).toHaveLength(10)
  })

  it('counts a dependency or a file a task lists twice once: no conflict of a task with itself', () => {
    const dag = analyseDag([task('T1', [], ['a.ts', './a.ts']), task('T2', ['T1', 'T1'], ['b.ts']), task('T3', ['T2'])])
    expect(dag.errors).toEqual([])
    expect(dag.conflicts).toEqual([])
    expect(dag.order).toEqual(['T1', 'T2', 'T3'])
    expect(dag.waves).toEqual([['T1'], ['T2'], ['T3']])
  })

  it('pushes a task past every wave that holds one of its files, looking again at the files it already passed', () => {
    // T4: p is free in wave 0 but r is not; in wave 1 r is free but p (T2) is not: only wave 2 holds neither.
    const dag = analyseDag([
      task('T1', [], ['q']), task('T2', [], ['q', 'p']), task('T3', [], ['r']), task('T4', [], ['p', 'r']), task('T5', [], ['q']), task('T6', [], ['q', 'p']),
    ])
    expect(dag.waves).toEqual([['T1', 'T3'], ['T2'], ['T4', 'T5'], ['T6']])
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
    expect(normalisePath(' ././src///c.ts ')).toBe('src/c.ts')
    expect(normalisePath('.github/workflows/ci.yml')).toBe('.github/workflows/ci.yml')
  })
})
