import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { TaskInputSchema } from '../../src/model/task.js'
import { analyseDag } from '../../src/plan/dag.js'
import { verificationEntries } from '../../src/plan/verification.js'
import { parseSolution } from '../../src/plan/read.js'
import { analysePlanText } from '../../src/plan/analyse.js'

// Task shapes written from CCW's (catlog22/Claude-Code-Workflow) and Taskmaster's schemas, not copied.

describe('verification written as an array', () => {
  it('judges each entry on its own: two bare commands both run', () => {
    const task = TaskInputSchema.parse({
      id: 'T1', title: 'Fix token refresh',
      convergence: { criteria: ['Token refreshes'], verification: ['npm test -- token', 'npx tsc --noEmit'] },
    })
    expect(verificationEntries(task).map((e) => [e.kind, e.command ?? e.text])).toEqual([
      ['command', 'npm test -- token'],
      ['command', 'npx tsc --noEmit'],
    ])
  })

  it('keeps Manual: entries and prose manual next to a command', () => {
    const task = TaskInputSchema.parse({
      id: 'T1', title: 'Fix token refresh',
      acceptance: { criteria: ['ok'], verification: ['npm test', 'Manual: log in twice', 'Check the console is quiet'] },
    })
    expect(verificationEntries(task).map((e) => e.kind)).toEqual(['command', 'manual', 'manual'])
  })

  it('leaves a single text as written (one multi-line text keeps the one-line rule)', () => {
    const task = TaskInputSchema.parse({
      id: 'T1', title: 'x', convergence: { verification: 'npm test\nnpx tsc --noEmit' },
    })
    expect(task.convergence.verification).toBe('npm test\nnpx tsc --noEmit')
  })
})

describe('dependencies are never dropped', () => {
  const tasks = (extra: Record<string, unknown>) => [
    TaskInputSchema.parse({ id: 'T1', title: 'Add the model', files: [{ path: 'a.ts' }] }),
    TaskInputSchema.parse({ id: 'T2', title: 'Use the model', files: [{ path: 'b.ts' }], ...extra }),
  ]

  it.each([
    ['depends_on', { depends_on: ['T1'] }],
    ['dependencies (CCW docs, Taskmaster)', { dependencies: ['T1'] }],
    ['numeric dependencies (Taskmaster)', { dependencies: [1] }],
    ['context.depends_on (CCW task JSON)', { context: { depends_on: ['TASK-001'] } }],
  ])('%s orders the waves', (_name, extra) => {
    const list = tasks(extra)
    expect(list[1]!.depends_on).toEqual(['T1'])
    expect(analyseDag(list).waves).toEqual([['T1'], ['T2']])
  })
})

describe('CCW task variants', () => {
  it('reads acceptance as an array, xlarge effort, CCW types, scope and test.commands objects, manual checks', () => {
    const task = TaskInputSchema.parse({
      id: 'T1', title: 'Set up the CI cache', type: 'infrastructure', effort: 'xlarge',
      scope: ['src/ci', '.github/workflows'],
      acceptance: ['Cache is restored on the second run'],
      test: { commands: { unit: 'npm test -- cache', types: 'npx tsc --noEmit' }, manual_checks: ['Open the Actions log'] },
    })
    expect(task).toMatchObject({ type: 'enhancement', effort: 'large', scope: 'src/ci, .github/workflows' })
    expect(task.convergence.criteria).toEqual(['Cache is restored on the second run'])
    expect(verificationEntries(task).map((e) => [e.kind, e.command ?? e.text])).toEqual([
      ['command', 'npm test -- cache'],
      ['command', 'npx tsc --noEmit'],
      ['manual', 'Manual: Open the Actions log'],
    ])
  })

  it('keeps acceptance.manual_checks as manual steps', () => {
    const task = TaskInputSchema.parse({
      id: 'T1', title: 'x', type: 'docs',
      acceptance: { criteria: ['ok'], verification: ['npm run docs'], manual_checks: ['Read the page'] },
    })
    expect(verificationEntries(task).map((e) => e.kind)).toEqual(['command', 'manual'])
  })
})

describe('an unknown field that looks like a dependency is an error', () => {
  const plan = (extra: Record<string, unknown>) => ({
    id: 'SOL-ISS-1-1', issue_id: 'ISS-1', description: 'Two steps',
    tasks: [
      { id: 'T1', title: 'Add the model', convergence: { criteria: ['ok'], verification: 'npm test' } },
      { id: 'T2', title: 'Use the model', convergence: { criteria: ['ok'], verification: 'npm test' }, ...extra },
    ],
  })

  it.each([
    ['by name', { prerequisites: ['T1'] }],
    ['by holding task ids', { runs_after_tasks: ['T1'] }],
    ['by holding task ids under any name', { parents: ['T1'] }],
  ])('%s', (_name, extra) => {
    const result = parseSolution(plan(extra))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors[0]).toMatchObject({ code: 'unread_dependency', hint: expect.stringContaining('Did you mean "depends_on"?') })
  })

  it('reads dependencies and keeps other unknown fields as remarks', () => {
    const result = parseSolution(plan({ dependencies: ['T1'], notes: 'x' }))
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.solution.tasks[1]!.depends_on).toEqual(['T1'])
    expect(result.warnings.map((w) => w.path)).toEqual(['tasks[1].notes'])
  })
})

describe("CCW's task ids", () => {
  it.each([
    [['IMPL-001', 'IMPL-002', 'IMPL-003']],
    [['FIX-001', 'FIX-002', 'FIX-003']],
    [['FIX1', 'FIX2', 'FIX3']],
    [['L0', 'L1', 'L2']],
    [['IMPL-001.1', 'IMPL-001.2', 'IMPL-001.3']],
  ])('%j are renumbered T1…T3 with their dependencies and original ids', (ids) => {
    const result = parseSolution({
      id: 'SOL-ISS-1-1', issue_id: 'ISS-1', description: 'Three steps',
      tasks: ids.map((id, i) => ({
        id, title: `Step ${i + 1}`, files: [{ path: `f${i}.ts` }],
        convergence: { criteria: ['ok'], verification: 'npm test' },
        ...(i > 0 ? { depends_on: [ids[i - 1]] } : {}),
      })),
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const tasks = result.solution.tasks
    expect(tasks.map((t) => [t.id, t.depends_on, t.source?.original_id])).toEqual([
      ['T1', [], ids[0]], ['T2', ['T1'], ids[1]], ['T3', ['T2'], ids[2]],
    ])
    expect(analyseDag(tasks).waves).toEqual([['T1'], ['T2'], ['T3']])
  })
})

it('reads T-006 as T6, as TASK-006 is', () => {
  expect(TaskInputSchema.parse({ id: 'T-006', title: 'x', depends_on: ['T-005'] })).toMatchObject({ id: 'T6', depends_on: ['T5'] })
})

describe("CCW's solution ids", () => {
  const task = { id: 'T1', title: 'Fix it', convergence: { criteria: ['ok'], verification: 'npm test' } }
  it.each([
    ['SOL-GH-123-a7x9', undefined, 'SOL-ISS-123-1', 'SOL-GH-123-a7x9'],
    ['SOL-GH-123-a7x9', 'GH-123', 'SOL-ISS-123-1', 'SOL-GH-123-a7x9'],
    ['SOL-ISS-42-2', undefined, 'SOL-ISS-42-2', undefined],
  ])('%s (issue_id %s) is read as %s', (id, issue, canonical, original) => {
    const result = parseSolution({ id, ...(issue ? { issue_id: issue } : {}), description: 'x', tasks: [task] })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.solution).toMatchObject({ id: canonical, issue_id: `ISS-${/\d+/.exec(canonical)![0]}` })
    expect(result.solution.original_id).toBe(original)
  })
})

describe('Taskmaster tasks.json', () => {
  const tagged = readFileSync(new URL('../fixtures/ccw-compat/taskmaster-tagged.json', import.meta.url), 'utf8')

  it.each([
    ['tagged', tagged],
    ['untagged', JSON.stringify(JSON.parse(tagged).master)],
  ])('%s: tasks, dependencies and commands are read, and the dependency orders the waves', (_form, text) => {
    const analysis = analysePlanText(text, 7)
    expect(analysis.errors).toEqual([])
    const solution = analysis.solution!
    expect(solution).toMatchObject({ id: 'SOL-ISS-7-1', issue_id: 'ISS-7' })
    expect(solution.tasks.map((t) => [t.id, t.depends_on, t.priority])).toEqual([['T1', [], 'high'], ['T2', ['T1'], 'medium']])
    expect(solution.tasks[0]!.implementation.map((s) => s.step)).toEqual(['1.1', '1.2'])
    expect(solution.tasks.flatMap((t) => verificationEntries(t).map((e) => e.command))).toEqual(['npm test -- session', 'npm test -- login'])
    expect(analysis.dag!.waves).toEqual([['T1'], ['T2']])
  })
})

describe('gate rule: a plan no command will verify cannot pass', () => {
  const plan = (verification: string[]) => JSON.stringify({
    id: 'SOL-ISS-3-1', description: 'Document the login flow', analysis: { risk: 'low', impact: 'low', complexity: 'low' },
    tasks: [{
      id: 'T1', title: 'Document the login flow', description: 'Write docs/login.md',
      implementation: [{ step: '1', description: 'Write the page', actions: ['Describe each step'] }],
      files: [{ path: 'docs/login.md', action: 'create', changes: ['The login flow, step by step'] }],
      convergence: { criteria: ['docs/login.md describes the three login steps'], verification, definition_of_done: 'People can follow the page' },
    }],
  })

  it('manual only: at most review, with the finding', () => {
    const analysis = analysePlanText(plan(['Manual: read the page', 'Ask a colleague to follow it']))
    expect(analysis.gate).toBe('review')
    expect(analysis.quality!.findings.map((f) => f.message)).toContain('Nothing will be verified by a command: every verification is manual')
  })

  it('with a command: passes', () => {
    expect(analysePlanText(plan(['test -f docs/login.md', 'Manual: read the page'])).gate).toBe('pass')
  })
})
