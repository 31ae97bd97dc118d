import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { TaskInputSchema } from '../../src/model/task.js'
import { analyseDag } from '../../src/plan/dag.js'
import { verificationEntries } from '../../src/model/verification.js'
import { parseSolution } from '../../src/plan/read.js'
import { analysePlanText } from '../../src/plan/analyse.js'
import { planFileText } from '../../src/plan/plan-file.js'
import { issueNumberFromFileName, solutionIdIssue } from '../../src/model/ids.js'
import { analysePlannerOutput, explicitPlan, type IssueDocument } from '../../src/planners/index.js'

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

describe('the issue a CCW plan is for', () => {
  it.each([
    ['GH-123.jsonl', 123], ['ISS-123.json', 123], ['GH-123-solution.json', 123], ['dir/issue-42.md', 42],
    ['ISS-20251229-001.jsonl', undefined], ['plan.json', undefined], ['solution-7.json', undefined],
  ])('file name %s → %s', (name, number) => {
    expect(issueNumberFromFileName(name)).toBe(number)
  })

  it.each([
    ['SOL-ISS-42-1', 42], ['SOL-GH-123-a7x9', 123], ['SOL-123-b2k4', 123], ['SOL-ISS-20251229-001-b2k4', undefined],
  ])('solution id %s names issue %s', (id, number) => {
    expect(solutionIdIssue(id)).toBe(number)
  })

  const dated = { id: 'SOL-ISS-20251229-001-b2k4', description: 'x', tasks: [{ id: 'T1', title: 'Fix it' }] }
  it('a plan without issue_id is read for the issue it was found for; on its own, for issue 0', () => {
    const found = parseSolution(dated, { issueNumber: 88 })
    expect(found.ok && found.solution).toMatchObject({ id: 'SOL-ISS-88-1', original_id: 'SOL-ISS-20251229-001-b2k4', issue_id: 'ISS-88' })
    const alone = parseSolution(dated)
    expect(alone.ok && alone.solution).toMatchObject({ id: 'SOL-ISS-0-1', issue_id: 'ISS-0' })
  })

  it('a stated issue_id wins over the issue it was found for', () => {
    const read = parseSolution({ ...dated, issue_id: 'GH-9' }, { issueNumber: 88 })
    expect(read.ok && read.solution.issue_id).toBe('ISS-9')
  })
})

describe("a CCW solution pasted into an issue's ```json block", () => {
  const block = (plan: Record<string, unknown>) => `# Title\n\n\`\`\`json\n${JSON.stringify(plan)}\n\`\`\`\n`
  const plan = (id: string) => ({
    id, description: 'Refresh the token', analysis: { risk: 'low', impact: 'low', complexity: 'low' },
    tasks: [{
      id: 'IMPL-001', title: 'Add token refresh', description: 'Refresh before expiry', implementation: ['Refresh 60 s early'],
      files: [{ path: 'src/token.ts', action: 'modify', change: 'refreshIfDue' }],
      convergence: { criteria: ['A token 30 s from expiry is refreshed'], verification: ['npm test -- token', 'npx tsc --noEmit'], definition_of_done: 'People stay signed in' },
    }],
  })
  const issue = (number: number, body: string): IssueDocument => ({ number, title: 'Token refresh', body, labels: [] })

  it.each([
    ['SOL-GH-123-a7x9', 123],
    ['SOL-ISS-20251229-001-b2k4', 5],
  ])('%s in issue %s is planned for that issue, its ids kept as original ids', (id, number) => {
    const analysis = analysePlannerOutput(explicitPlan(issue(number, block(plan(id)))))
    expect(analysis.errors).toEqual([])
    expect(analysis.solution).toMatchObject({ id: `SOL-ISS-${number}-1`, original_id: id, issue_id: `ISS-${number}` })
    expect(analysis.solution!.tasks[0]!.source?.original_id).toBe('IMPL-001')
  })

  it("notes a CCW id that names another issue", () => {
    expect(explicitPlan(issue(123, block(plan('SOL-GH-124-a7x9')))).notes)
      .toContain("the plan's id SOL-GH-124-a7x9 belongs to ISS-124, not ISS-123: kept as written")
  })
})

describe('plan file forms', () => {
  it('a .md file without a ```json block is Markdown without a plan, whatever its text', () => {
    expect(planFileText('Just a paragraph about the plan.\n', 'notes.md')).toEqual({ form: 'markdown-without-plan' })
    expect(planFileText('Just a paragraph about the plan.\n').form).toBe('json')
  })

  it("a plan overview whose tasks are separate files says so", () => {
    const result = parseSolution({ summary: 'x', task_ids: ['TASK-001', 'TASK-002'], task_count: 2 })
    expect(!result.ok && result.errors).toEqual([expect.objectContaining({ code: 'tasks_elsewhere', path: 'tasks', hint: expect.stringContaining('"tasks" array') })])
  })

  it("summary is the description when there is none (CCW's lite and fix plans)", () => {
    const result = parseSolution({ summary: 'Export saved searches', tasks: [{ id: 'T1', title: 'Add export' }] })
    expect(result.ok && result.solution).toMatchObject({ id: 'SOL-ISS-0-1', description: 'Export saved searches' })
  })
})

describe('more CCW task forms', () => {
  it("roadmap layers: name and goal are the title and description; without title or name, title is missing", () => {
    expect(TaskInputSchema.parse({ id: 'L0', name: 'MVP', goal: 'One person can add events' })).toMatchObject({ title: 'MVP', description: 'One person can add events' })
    const missing = TaskInputSchema.safeParse({ id: 'L0', goal: 'x' })
    expect(missing.error?.issues).toEqual([expect.objectContaining({ code: 'invalid_type', path: ['title'], message: 'Missing required field "title"' })])
  })

  it('TASK-001 and T-006 keep the id they were written with', () => {
    expect(TaskInputSchema.parse({ id: 'TASK-001', title: 'x' }).source).toEqual({ original_id: 'TASK-001' })
    expect(TaskInputSchema.parse({ id: 'T1', title: 'x' }).source).toBeUndefined()
  })

  it('evidence objects are kept, one line each', () => {
    const task = TaskInputSchema.parse({ id: 'T1', title: 'x', evidence: [{ file: 'src/a.ts:18', severity: 'critical' }, 'seen in review'] })
    expect(task.evidence).toEqual(['file: src/a.ts:18; severity: critical', 'seen in review'])
  })

  it("a fix plan's task-level verification: commands run, prose is manual, and they are the criteria", () => {
    const task = TaskInputSchema.parse({ id: 'FIX1', title: 'Fix the date', verification: ['npm test -- date', 'Print a receipt and read it'] })
    expect(verificationEntries(task).map((e) => [e.kind, e.command ?? e.text])).toEqual([['command', 'npm test -- date'], ['manual', 'Print a receipt and read it']])
    expect(task.convergence.criteria).toEqual(['npm test -- date', 'Print a receipt and read it'])
  })

  it("the lite plan's verification object: manual checks are manual steps, tests are test requirements", () => {
    const task = TaskInputSchema.parse({
      id: 'T1', title: 'x', acceptance: ['ok'],
      verification: { unit_tests: ['shows the link'], integration_tests: [], manual_checks: ['Click the link'], success_metrics: ['< 200 ms'] },
    })
    expect(task.test.unit).toEqual(['shows the link'])
    expect(task.convergence).toMatchObject({ criteria: ['ok'], verification: 'Manual: Click the link' })
  })

  it("the earlier task JSON: context.requirements, context.acceptance and flow_control.test_commands are read", () => {
    const task = TaskInputSchema.parse({
      id: 'IMPL-001', title: 'Generate tests',
      context: { requirements: ['Write 6 tests'], acceptance: ['6 tests pass'], depends_on: [] },
      flow_control: { test_commands: { run_tests: 'npm test -- invoice' } },
    })
    expect(task).toMatchObject({ description: 'Write 6 tests', convergence: { criteria: ['6 tests pass'] }, test: { commands: ['npm test -- invoice'] } })
  })

  it('an unknown enum value is inferred and reported with the field, the known values and what it was read as', () => {
    const result = parseSolution({ description: 'x', tasks: [{ id: 'T1', title: 'Fix the crash', action: 'Notify', effort: 'huge' }] })
    expect(result.ok && result.solution.tasks[0]).toMatchObject({ action: 'Fix', effort: 'small' })
    expect(result.warnings.filter((w) => w.rule === 'unknown-enum-value').map((w) => [w.path, w.message])).toEqual([
      ['tasks[0].action', 'action "Notify" is not one of Create, Modify, Fix, Refactor, Add, Remove, Update, Implement, Delete, Configure, Test: read as "Fix"'],
      ['tasks[0].effort', 'effort "huge" is not one of small, medium, large: read as "small"'],
    ])
  })

  it('a value of the wrong type is still an error', () => {
    const result = parseSolution({ description: 'x', tasks: [{ id: 'T1', title: 'x', action: ['Fix'] }] })
    expect(!result.ok && result.errors.map((e) => e.path)).toEqual(['tasks[0].action'])
  })
})
