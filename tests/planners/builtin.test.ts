import { describe, expect, it } from 'vitest'
import { analysePlannerOutput, builtinPlan, type IssueDocument } from '../../src/planners/index.js'
import { exampleIssue } from './issue-file.js'

function plan(body: string, issue: Partial<IssueDocument> = {}, options: Parameters<typeof builtinPlan>[1] = {}) {
  const output = builtinPlan({ number: 7, title: 'Improve the widget', body, labels: [], ...issue }, options)
  const analysis = analysePlannerOutput(output)
  if (!analysis.solution) throw new Error(`plan does not validate: ${JSON.stringify(analysis.errors)}`)
  return { output, analysis, solution: analysis.solution, tasks: analysis.solution.tasks, notes: output.notes }
}

const task = (p: ReturnType<typeof plan>, id: string) => p.tasks.find((t) => t.id === id)!

describe('tasks', () => {
  it('makes one task per open task-list item, in document order; ticked ones are recorded as done, not planned', () => {
    const p = plan('Intro.\n\n- [ ] Add the widget\n- [x] Fix the gadget\n\n## More\n\n- [ ] Remove the gizmo\n- plain bullet\n')
    expect(p.tasks.map((t) => [t.id, t.title, t.action])).toEqual([['T1', 'Add the widget', 'Add'], ['T2', 'Remove the gizmo', 'Remove']])
    expect(p.solution.already_done).toEqual(['Fix the gadget'])
    expect(p.notes).toContain('made 2 tasks from the task list (- [ ] items)')
    expect(p.notes).toContain('already done (ticked in the issue), not planned: "Fix the gadget"')
  })

  it('does not take checkboxes in acceptance, verification, done or repro sections as tasks', () => {
    const p = plan('- [ ] Add the widget\n\n## Acceptance criteria\n\n- [ ] the widget renders a title\n\n## Steps to reproduce\n\n- [ ] open it\n')
    expect(p.tasks.map((t) => t.title)).toEqual(['Add the widget'])
    expect(p.tasks[0]!.convergence.criteria).toEqual(['the widget renders a title'])
  })

  it('without a task list, takes the list of a Tasks/Steps/Plan section; nested items are steps', () => {
    const p = plan('## Plan\n\n1. Write the parser\n   - handle quotes\n   - handle escapes\n2. Document it\n\n## Other\n\n- not a task\n')
    expect(p.tasks.map((t) => [t.title, t.action])).toEqual([['Write the parser', 'Create'], ['Document it', 'Update']])
    expect(p.tasks[0]!.implementation.map((s) => s.description)).toEqual(['handle quotes', 'handle escapes'])
    expect(p.notes[0]).toBe('no task list (- [ ] items): made 2 tasks from the list under "Plan"')
  })

  it('with neither, makes one task from the title and says so', () => {
    const p = plan('It is slow.', { title: '[Perf] fix: slow start-up in `src/boot.ts`' })
    expect(p.tasks).toHaveLength(1)
    expect(p.tasks[0]).toMatchObject({ title: 'fix: slow start-up in `src/boot.ts`', action: 'Fix', type: 'fix', description: 'It is slow.' })
    expect(p.tasks[0]!.files).toEqual([{ path: 'src/boot.ts', action: 'modify', target: null, changes: ['fix: slow start-up in `src/boot.ts`'] }])
    expect(p.notes[0]).toMatch(/^no task list and no Tasks\/Steps\/Plan section: made one task from the title/)
  })

  it('titles a task by its first sentence, without labels, dependency phrases and backticks', () => {
    const p = plan('- [ ] T1: Add `src/a.ts`. It exports `a()`.\n- [ ] T2 - Update `README.md` (depends on T1)\n')
    expect(p.tasks.map((t) => t.title)).toEqual(['Add src/a.ts', 'Update README.md'])
    expect(task(p, 'T1').description).toBe('Add `src/a.ts`. It exports `a()`.')
  })

  it('titles an item with no words of its own by its id', () => {
    const p = plan('- [ ] Add x\n- [ ] (after T1)\n')
    expect(task(p, 'T2').title).toBe('Task T2')
    expect(p.notes).toContain('T2 has no words of its own: titled "Task T2"')
  })

  it('maps the leading verb to the action, Implement by default, and infers type and effort', () => {
    const p = plan('- [ ] Write tests for the parser\n- [ ] Rename `src/a.ts`\n- [ ] Widget polish\n- [ ] Improve the cache\n')
    expect(p.tasks.map((t) => [t.action, t.type])).toEqual([['Create', 'testing'], ['Refactor', 'refactor'], ['Implement', 'enhancement'], ['Update', 'enhancement']])
    expect(p.tasks.map((t) => t.effort)).toEqual(['small', 'small', 'small', 'small'])
  })

  it('makes plain sub-items implementation steps, with their own sub-items as actions; else one step from the title', () => {
    const p = plan('- [ ] Add the cache\n  - Create `src/cache.ts`\n    - LRU with 100 entries\n  - Wire it into `src/server.ts`\n- [ ] Add `src/b.ts`\n')
    expect(task(p, 'T1').implementation).toEqual([
      { step: '1', description: 'Create `src/cache.ts`', actions: ['LRU with 100 entries'] },
      { step: '2', description: 'Wire it into `src/server.ts`', actions: [] },
    ])
    expect(task(p, 'T2').implementation).toEqual([{ step: '1', description: 'Add src/b.ts', actions: ['Create src/b.ts'] }])
  })
})

describe('dependencies', () => {
  it('reads "depends on", "after", "(needs …)", "blocked by" and sub-items that only state a dependency', () => {
    const p = plan('- [ ] A\n- [ ] B (depends on T1)\n- [ ] C, after T2\n- [ ] D (needs T1, T3)\n- [ ] E blocked by TASK-004\n- [ ] F\n  - depends on T5\n')
    expect(p.tasks.map((t) => t.depends_on)).toEqual([[], ['T1'], ['T2'], ['T1', 'T3'], ['T4'], ['T5']])
    expect(p.tasks.map((t) => t.title)).toEqual(['A', 'B', 'C', 'D', 'E', 'F'])
  })

  it('makes a nested task depend on the task it is nested under', () => {
    const p = plan('- [ ] Add the API\n  - [ ] Add the client\n    - [ ] Add the CLI\n- [ ] Other\n')
    expect(p.tasks.map((t) => [t.id, t.depends_on])).toEqual([['T1', []], ['T2', ['T1']], ['T3', ['T2']], ['T4', []]])
  })

  it('chains the items of a section that says "in order" or "sequentially"', () => {
    const p = plan('## Tasks (in order)\n\n- [ ] A\n- [ ] B\n\n## Later\n\nThese run sequentially.\n\n- [ ] C\n- [ ] D\n\n## Free\n\n- [ ] E\n')
    expect(p.tasks.map((t) => t.depends_on)).toEqual([[], ['T1'], [], ['T3'], []])
  })

  it('translates labels that are not in document order', () => {
    const p = plan('- [ ] T5: Make the base\n- [ ] T9: Build on it (after T5)\n')
    expect(task(p, 'T2').depends_on).toEqual(['T1'])
    expect(p.notes).toContain('T1 is labelled T5 in the issue: references to T5 mean T1')
  })

  it('keeps references to missing tasks, for the plan analysis to report', () => {
    const p = plan('- [ ] A (after T7)\n')
    expect(p.analysis.errors.map((e) => e.code)).toEqual(['unknown_dependency'])
  })
})

describe('files', () => {
  it('makes backticked paths files, the action from the verb, described by the item', () => {
    const p = plan(
      '- [ ] Create `src/new.ts`\n- [ ] Add a route to `src/server.ts` and `docs/api.md`\n- [ ] Delete `src/old.ts`\n' +
        '- [ ] Remove the flag from `src/cli.ts`\n- [ ] Run `npm test` on `src/a.ts:12`\n',
    )
    expect(p.tasks.map((t) => t.files.map((f) => `${f.action} ${f.path}`))).toEqual([
      ['create src/new.ts'], ['modify src/server.ts', 'create docs/api.md'], ['delete src/old.ts'], ['modify src/cli.ts'], ['modify src/a.ts'],
    ])
    expect(task(p, 'T4').files[0]!.changes).toEqual(['Remove the flag from `src/cli.ts`'])
    expect(task(p, 'T5').evidence).toEqual(['src/a.ts:12'])
    expect(p.analysis.quality!.findings.filter((f) => f.rule === 'modify-without-changes')).toEqual([])
  })

  it('adds paths named in steps, described by the step, with the step verb', () => {
    const p = plan('- [ ] Add caching\n  - Create `src/cache.ts`\n  - Call it from `src/server.ts`\n')
    expect(task(p, 'T1').files).toEqual([
      { path: 'src/cache.ts', action: 'create', target: null, changes: ['Create `src/cache.ts`'] },
      { path: 'src/server.ts', action: 'modify', target: null, changes: ['Call it from `src/server.ts`'] },
    ])
  })

  it('says which tasks name no files', () => {
    expect(plan('- [ ] A\n- [ ] B `x.ts`\n').notes).toContain('T1 names no files')
    expect(plan('- [ ] A\n').notes).toContain('no file paths in backticks: tasks name no files')
  })
})

describe('acceptance criteria', () => {
  const tasks = '- [ ] Add `src/a.ts`\n- [ ] Add `src/b.ts` (after T1)\n- [ ] Add `src/c.ts`\n'

  it('gives a criterion that names a task to that task', () => {
    const p = plan(`${tasks}\n## Acceptance criteria\n\n- T1: a() returns 1\n- T2, T3: b() and c() return 2\n`)
    expect(p.tasks.map((t) => t.convergence.criteria)).toEqual([['a() returns 1'], ['b() and c() return 2'], ['b() and c() return 2']])
  })

  it('gives a criterion under a "### T2" heading to T2', () => {
    const p = plan(`${tasks}\n## Acceptance\n\n### T1\n\n- a() returns 1\n\n### T3: c\n\n- c() returns 3\n`)
    // T2 is given none: its own item stands as its criterion, and the gate says it only repeats the title.
    expect(p.tasks.map((t) => t.convergence.criteria)).toEqual([['a() returns 1'], [task(p, 'T2').title], ['c() returns 3']])
    expect(p.analysis.quality!.findings.filter((f) => f.rule === 'criterion-repeats-title').map((f) => f.task_id)).toEqual(['T2'])
  })

  it('gives a criterion that names a file to the last task touching it, others to the final tasks', () => {
    const p = plan(`${tasks}\n## Definition of done\n\n- \`src/a.ts\` exports a()\n- everything is documented\n`)
    expect(p.tasks.map((t) => t.convergence.criteria)).toEqual([['`src/a.ts` exports a()'], ['everything is documented'], ['everything is documented']])
    const chain = plan('- [ ] A\n- [ ] B (after T1)\n\n## Acceptance criteria\n\n- everything is documented\n')
    expect(chain.notes).toContain('T1 has no acceptance criteria: criteria that name no task ("T1: …") or file go to the final task T2')
  })

  it('reads "Acceptance:" sub-items as the task\'s own criteria', () => {
    const p = plan('- [ ] Add x\n  - Acceptance: x() returns 1\n  - Do the thing\n')
    expect(task(p, 'T1').convergence.criteria).toEqual(['x() returns 1'])
    expect(task(p, 'T1').implementation.map((s) => s.description)).toEqual(['Do the thing'])
  })

  it('reads bold pseudo-headings and Chinese headings', () => {
    const p = plan('- [ ] 修复 `src/a.ts`\n\n**验收标准**\n\n- T1：在 UTC 下返回当天的午夜时间\n')
    expect(task(p, 'T1').convergence.criteria).toEqual(['在 UTC 下返回当天的午夜时间'])
  })

  it('notes a criterion that names a task that does not exist', () => {
    const p = plan('- [ ] A\n\n## Acceptance criteria\n\n- T9: the thing\n')
    expect(p.notes).toContain('"the thing" names T9, which is not a task: given to T1')
    expect(task(p, 'T1').convergence.criteria).toEqual(['the thing'])
  })

  it('says when there is no acceptance criteria section', () => {
    const p = plan('- [ ] A\n- [ ] B\n')
    expect(p.notes).toContain('no Acceptance criteria section: tasks have no criteria')
    expect(p.notes).toContain('no criterion stated for T1, T2: their titles stand as the criterion, for a person to judge')
    expect(p.analysis.quality!.findings.filter((f) => f.rule === 'criterion-repeats-title').map((f) => f.task_id)).toEqual(['T1', 'T2'])
    // Stated work with no command and no criterion of its own: a person reviews it, it does not fail.
    expect(p.analysis.gate).toBe('review')
  })
})

describe('verification', () => {
  it('makes each line of a shell block under Verification a command of every task, and a Run: verification line', () => {
    const p = plan('- [ ] A\n- [ ] B\n\n## Verification\n\n```sh\n# the suite\nnpm test\n\n$ npx tsc --noEmit\n```\n')
    for (const t of p.tasks) {
      expect(t.test.commands).toEqual(['npm test', 'npx tsc --noEmit'])
      expect(t.convergence.verification).toBe('Run: npm test\nRun: npx tsc --noEmit')
    }
    expect(p.analysis.quality!.findings.filter((f) => f.rule === 'no-runnable-verification')).toEqual([])
  })

  it('gives commands under "# T2" to T2 and commands naming a file to the tasks touching it', () => {
    const p = plan(
      '- [ ] Add `test/a.test.js`\n- [ ] B\n\n## How to test\n\n```console\n$ node --test test/a.test.js\nok 1\n# T2\n$ node b.js\n```\n',
    )
    expect(p.tasks.map((t) => t.test.commands)).toEqual([['node --test test/a.test.js'], ['node b.js']])
  })

  it('reads a shell block inside a task item and "Run: `cmd`" sub-items as that task\'s commands', () => {
    const p = plan('- [ ] A\n  - Run: `npm test -- a`\n- [ ] B\n\n  ```bash\n  npm test -- b\n  ```\n')
    expect(p.tasks.map((t) => t.test.commands)).toEqual([['npm test -- a'], ['npm test -- b']])
  })

  it('reads list items under Verification as commands when they are one code span, else manual checks', () => {
    const p = plan('- [ ] A\n\n## Verification\n\n- Run `npm test`\n- Open the page and see the banner\n')
    expect(task(p, 'T1').test.commands).toEqual(['npm test'])
    expect(task(p, 'T1').convergence.verification).toBe('Run: npm test\nManual: Open the page and see the banner')
  })

  it('ignores shell blocks outside verification sections and notes unlabelled blocks under one', () => {
    const p = plan('```sh\nrm -rf /\n```\n\n- [ ] A\n\n## Verification\n\n```\nnpm test\n```\n')
    expect(task(p, 'T1').test.commands).toEqual([])
    expect(p.notes).toContain('1 code block without a language under a verification heading was not read: mark it ```sh to have its commands run')
  })

  it('says when nothing verifies the tasks', () => {
    expect(plan('- [ ] A\n').notes).toContain('no Verification block: no command will verify the tasks')
  })
})

describe('definition of done, priority, strategy and analysis', () => {
  it('gives the Definition of done paragraph to the final tasks, a labelled one to its task', () => {
    const p = plan('- [ ] A\n- [ ] B (after T1)\n\n## Definition of done\n\nUsers see the banner.\n\nT1: Admins can turn it on.\n')
    expect(p.tasks.map((t) => t.convergence.definition_of_done)).toEqual(['Admins can turn it on.', 'Users see the banner.'])
  })

  it.each([
    [['priority: high'], 'high'], [['priority/low'], 'low'], [['P0'], 'critical'], [['p2', 'P1'], 'high'],
    [['security'], 'high'], [['bug'], 'medium'], [['high'], 'medium'], [[], 'medium'],
  ])('labels %j give priority %s', (labels, priority) => {
    expect(plan('- [ ] A\n', { labels }).tasks[0]!.priority).toBe(priority)
  })

  it('reads "Priority: high" in the body when no label sets it', () => {
    expect(plan('Priority: high\n\n- [ ] A\n').tasks[0]!.priority).toBe('high')
    expect(plan('Priority: high\n\n- [ ] A\n', { labels: ['P3'] }).tasks[0]!.priority).toBe('low')
  })

  it.each([
    [['bug'], 'bugfix'], [['type: refactor'], 'refactor'], [['enhancement'], 'feature'], [['kind/feature'], 'feature'],
  ])('labels %j give strategy %s', (labels, strategy) => {
    expect(plan('- [ ] A\n', { labels }).solution.strategy_type).toBe(strategy)
  })

  it('takes risk, impact and complexity from lines that state them', () => {
    const p = plan('- [ ] A\n\n**Risk:** high\nImpact: low\n复杂度：中\n')
    expect(p.solution.analysis).toEqual({ risk: 'high', risk_reason: 'stated in the issue', impact: 'low', complexity: 'medium' })
    expect(p.tasks.map((t) => t.title)).toEqual(['A'])
  })

  it('infers risk from labels and paths, impact from top-level directories, complexity from counts', () => {
    // A high risk carries its reason, for the gate to say.
    expect(plan('- [ ] Fix `src/auth/token.ts`\n').solution.analysis).toEqual({ risk: 'high', risk_reason: 'touches src/auth/token.ts', impact: 'low', complexity: 'low' })
    expect(plan('- [ ] A\n', { labels: ['breaking-change'] }).solution.analysis!.risk).toBe('high')
    expect(plan('- [ ] Update `package.json` and `src/a.ts`\n').solution.analysis).toEqual({ risk: 'medium', impact: 'medium', complexity: 'low' })
    const many = plan(['a/x.ts', 'b/x.ts', 'c/x.ts', 'd/x.ts', 'e/x.ts', 'f/x.ts'].map((f) => `- [ ] Change \`${f}\``).join('\n'))
    expect(many.solution.analysis).toEqual({ risk: 'low', impact: 'high', complexity: 'high' })
    expect(many.notes).toContain(
      'analysis: risk low (no risky label or path); impact high (touches 6 top-level entries: a/, b/, c/, d/, e/, f/); complexity high (6 tasks, 6 files)',
    )
  })

  it('describes the solution by the first paragraph, else by the title', () => {
    expect(plan('## Problem\n\nThe widget\nis slow.\n\n- [ ] A\n').solution.description).toBe('The widget is slow.')
    const titled = plan('- [ ] A\n', { title: 'Speed up the widget' })
    expect(titled.solution.description).toBe('Speed up the widget')
    expect(titled.notes).toContain('no description paragraph: the issue title describes the solution')
  })
})

describe('identity and determinism', () => {
  it('numbers the solution from the issue and options, and sets created_at only from options.now', () => {
    const p = plan('- [ ] A\n', { number: 42 }, { seq: 3, now: '2025-01-29T11:00:00Z' })
    expect(p.solution).toMatchObject({ id: 'SOL-ISS-42-3', issue_id: 'ISS-42', created_at: '2025-01-29T11:00:00Z', is_bound: false })
    expect(plan('- [ ] A\n').solution.created_at).toBeUndefined()
  })

  it('gives byte-identical output for the same issue', async () => {
    const issue = await exampleIssue('demo')
    expect(JSON.stringify(builtinPlan(issue))).toBe(JSON.stringify(builtinPlan(structuredClone(issue))))
  })
})

describe('examples', () => {
  it.each(['demo', 'refactor.md', 'bugfix-zh.md'])('%s passes the quality gate', async (name) => {
    const output = builtinPlan(await exampleIssue(name))
    const analysis = analysePlannerOutput(output)
    expect(analysis.errors).toEqual([])
    expect(analysis.warnings).toEqual([])
    expect(analysis.gate).toBe('pass')
    expect(analysis.quality!.findings.filter((f) => f.severity !== 'low')).toEqual([])
  })

  it('the demo issue: tasks, dependencies, files and per-task verification', async () => {
    const issue = await exampleIssue('demo')
    const { solution } = plan(issue.body, issue)
    expect(solution.tasks.map((t) => [t.id, t.action, t.depends_on, t.files.map((f) => `${f.action} ${f.path}`)])).toEqual([
      ['T1', 'Fix', [], ['modify src/slugify.js']],
      ['T2', 'Add', [], ['create src/truncate.js']],
      ['T3', 'Create', ['T1', 'T2'], ['create test/truncate.test.js', 'modify test/slugify.test.js']],
      ['T4', 'Update', ['T2'], ['modify README.md']],
    ])
    expect(solution.tasks.map((t) => t.test.commands.length)).toEqual([2, 2, 2, 2])
    expect(solution.tasks.every((t) => t.test.commands.at(-1) === 'node --test')).toBe(true)
    expect(solution.analysis).toEqual({ risk: 'low', impact: 'medium', complexity: 'medium' })
  })

  it('vague.md gives a valid plan that is not pass, and the notes and findings say what is missing', async () => {
    const output = builtinPlan(await exampleIssue('vague.md'))
    const analysis = analysePlannerOutput(output)
    expect(analysis.errors).toEqual([])
    expect(analysis.gate).not.toBe('pass')
    expect(output.notes).toEqual(expect.arrayContaining([
      'no task list and no Tasks/Steps/Plan section: made one task from the title "Make the slugs better"',
      'no Acceptance criteria section: tasks have no criteria',
      'no Verification block: no command will verify the tasks',
      'no Definition of done paragraph: tasks have no definition of done',
      'no file paths in backticks: tasks name no files',
    ]))
    expect(analysis.quality!.findings.map((f) => f.rule)).toEqual(
      expect.arrayContaining(['no-criteria', 'no-runnable-verification', 'no-definition-of-done', 'no-files']),
    )
  })
})
