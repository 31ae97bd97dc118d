import { describe, expect, it } from 'vitest'
import { QualityReportSchema, type Solution, type Task } from '../../src/model/index.js'
import { analyseDag, type DagAnalysis, type DagError } from '../../src/plan/dag.js'
import { assessQuality, qualityGate } from '../../src/plan/quality.js'
import { UNDER_MUTATION } from '../support/mutation.js'

/** A task that passes every rule. */
function goodTask(id: string, dependsOn: string[] = []): Task {
  return {
    id,
    title: `Refresh expired tokens (${id})`,
    action: 'Fix',
    type: 'fix',
    priority: 'high',
    effort: 'small',
    description: 'Token refresh fails silently when the JWT expires',
    files: [{ path: `src/auth/${id}.ts`, action: 'modify', target: 'refreshToken', changes: ['Await refreshToken() at line 89'] }],
    implementation: [{ step: '1', description: 'Await the refresh call', actions: ['Add await at line 89'] }],
    test: { commands: [`npm test -- ${id}.test.ts`], unit: [], integration: [] },
    convergence: {
      criteria: ['refreshToken() returns a new JWT for an expired token'],
      verification: 'npx tsc --noEmit',
      definition_of_done: 'Users stay logged in when their session expires',
    },
    depends_on: dependsOn,
    evidence: [],
  }
}

/** A solution with a complete analysis, or the one given, or none (`null`). */
function solution(tasks: Task[], analysis: Solution['analysis'] | null = { risk: 'low', impact: 'medium', complexity: 'low' }): Solution {
  return {
    id: 'SOL-ISS-42-1', issue_id: 'ISS-42', description: 'Keep users logged in', strategy_type: 'bugfix',
    tasks, is_bound: false, ...(analysis ? { analysis } : {}),
  }
}

function assess(plan: Solution, dag: DagAnalysis = analyseDag(plan.tasks)) {
  return assessQuality(plan, dag)
}

/** The rule and path of each finding about a plan of one task. */
const rulesOf = (task: Task) => assess(solution([task])).findings.map((f) => `${f.rule} ${f.path}`)
const edit = (id: string, change: Partial<Task>): Task => ({ ...goodTask(id), ...change })
const convergence = (change: Partial<Task['convergence']>): Task['convergence'] => ({ ...goodTask('T0').convergence, ...change })
const noCommands: Task['test'] = { commands: [], unit: [], integration: [] }

describe('assessQuality: a well-formed plan', () => {
  it('scores 1, passes and has nothing to say', () => {
    const report = assess(solution([goodTask('T1'), goodTask('T2', ['T1']), goodTask('T3', ['T1'])]))
    expect(report).toEqual({
      score: 1,
      quality_score: 100,
      quality_gate: 'pass',
      breakdown: { completeness: 1, dependency_validity: 1, testable_acceptance: 1, complexity_assessed: 1 },
      findings: [],
      issues_by_severity: { critical: 0, high: 0, medium: 0, low: 0 },
    })
    expect(QualityReportSchema.parse(report)).toEqual(report)
  })
})

describe('assessQuality: score components', () => {
  it('completeness: the share of tasks with a title, something to go on and a criterion', () => {
    const report = assess(solution([
      goodTask('T1'),
      edit('T2', { convergence: convergence({ criteria: [] }) }),
      edit('T3', { description: '', implementation: [] }),
      edit('T4', { description: '' }), // implementation steps are enough
      edit('T5', { implementation: [] }), // so is a description
    ]))
    expect(report.breakdown.completeness).toBe(0.6)
  })

  it('dependency validity: 1 without DAG errors, else the share of tasks no error names', () => {
    const tasks = ['T1', 'T2', 'T3', 'T4'].map((id) => goodTask(id))
    const dag = (errors: Array<Partial<DagError>>): DagAnalysis =>
      ({ ...analyseDag(tasks), errors: errors.map((e) => ({ code: 'unknown_dependency', path: '', message: '', fix: '', task_id: 'T1', ...e })) })
    expect(assess(solution(tasks), dag([])).breakdown.dependency_validity).toBe(1)
    expect(assess(solution(tasks), dag([{ task_id: 'T2' }])).breakdown.dependency_validity).toBe(0.75)
    expect(assess(solution(tasks), dag([{ task_id: 'T2' }, { task_id: 'T2', code: 'self_dependency' }])).breakdown.dependency_validity).toBe(0.75)
    const cycle = { code: 'cycle' as const, task_id: 'T1', cycle: ['T1', 'T3', 'T4', 'T1'] }
    expect(assess(solution(tasks), dag([cycle])).breakdown.dependency_validity).toBe(0.25)
  })

  it('dependency validity counts every task that shares a duplicated id', () => {
    const tasks = [goodTask('T1'), goodTask('T1'), goodTask('T2'), goodTask('T3')]
    expect(assess(solution(tasks)).breakdown.dependency_validity).toBe(0.5)
  })

  it('dependency validity from a real cycle in a chain', () => {
    const tasks = [goodTask('T1', ['T3']), goodTask('T2', ['T1']), goodTask('T3', ['T2']), goodTask('T4', ['T1']), goodTask('T5')]
    const dag = analyseDag(tasks)
    expect(dag.errors.map((e) => e.cycle?.join(' → '))).toEqual(['T1 → T3 → T2 → T1'])
    expect(assess(solution(tasks), dag).breakdown.dependency_validity).toBe(0.4) // T4 is stuck behind the cycle, not in it
  })

  it('testable acceptance: half for specific criteria, half for a runnable command, averaged', () => {
    const manualOnly = { test: noCommands, convergence: convergence({ verification: 'Manual: log in again' }) }
    const report = assess(solution([
      goodTask('T1'), // 1
      edit('T2', manualOnly), // 0.5: criteria only
      edit('T3', { convergence: convergence({ criteria: ['works fine', 'refreshToken() returns a new JWT'] }) }), // 0.5: command only
      edit('T4', { ...manualOnly, convergence: convergence({ criteria: [], verification: 'Check it' }) }), // 0
    ]))
    expect(report.breakdown.testable_acceptance).toBe(0.5)
  })

  it('complexity assessed: the share of risk, impact and complexity given', () => {
    expect(assess(solution([goodTask('T1')], { risk: 'low' })).breakdown.complexity_assessed).toBe(0.3333)
    expect(assess(solution([goodTask('T1')], { risk: 'low', complexity: 'high' })).breakdown.complexity_assessed).toBe(0.6667)
    expect(assess(solution([goodTask('T1')], null)).breakdown.complexity_assessed).toBe(0)
  })

  it('weights them 30 / 20 / 30 / 20', () => {
    // completeness 1, dependencies 1, testable 0.5 (no command anywhere), analysis 1/3.
    const tasks = [edit('T1', { test: noCommands, convergence: convergence({ verification: 'Manual: look' }) })]
    const report = assess(solution(tasks, { impact: 'low' }))
    expect(report.breakdown).toEqual({ completeness: 1, dependency_validity: 1, testable_acceptance: 0.5, complexity_assessed: 0.3333 })
    expect(report.score).toBe(0.7167) // 0.3 + 0.2 + 0.15 + 0.0667
    expect(report.quality_score).toBe(72)
    expect(report.quality_gate).toBe('review')
  })
})

describe('quality gate', () => {
  it.each([
    [1, false, 'pass'],
    [0.8, false, 'pass'],
    [0.7999, false, 'review'],
    [0.6, false, 'review'],
    [0.5999, false, 'fail'],
    [0, false, 'fail'],
    [1, true, 'review'],
    [0.8, true, 'review'],
    [0.6, true, 'review'],
    [0.5, true, 'fail'],
  ] as const)('score %d, critical finding %s → %s', (score, critical, gate) => {
    expect(qualityGate(score, critical)).toBe(gate)
  })

  it('passes at exactly 0.8: a perfect plan without any analysis', () => {
    const report = assess(solution([goodTask('T1'), goodTask('T2')], null))
    expect(report).toMatchObject({ score: 0.8, quality_score: 80, quality_gate: 'pass' })
  })

  it('holds a high-scoring plan with a critical finding at review', () => {
    const tasks = Array.from({ length: 10 }, (_, i) => goodTask(`T${i + 1}`))
    tasks[4] = edit('T5', { convergence: convergence({ criteria: [] }) })
    const report = assess(solution(tasks))
    expect(report.score).toBe(0.955)
    expect(report.quality_gate).toBe('review')
    expect(report.findings[0]).toMatchObject({ rule: 'no-criteria', severity: 'critical', task_id: 'T5', path: 'tasks[4].convergence.criteria' })
  })

  it('fails below 0.6', () => {
    const weak = edit('T1', { description: '', implementation: [], test: noCommands, convergence: convergence({ criteria: ['好'], verification: '' }) })
    const report = assess(solution([weak], null))
    expect(report.breakdown).toEqual({ completeness: 0, dependency_validity: 1, testable_acceptance: 0, complexity_assessed: 0 })
    expect(report).toMatchObject({ score: 0.2, quality_score: 20, quality_gate: 'fail' })
  })
})

describe('assessQuality: findings', () => {
  it('flags vague criteria of 20 characters or fewer, in English and Chinese, as whole words', () => {
    const criteria = [
      'Code works', '功能正常', '返回结果正确', '结果可以', 'Code works correctly',
      'Handles errors properly', 'Token TTL is correctly set', 'define the schema', 'goodput over 1k/s',
    ]
    const report = assess(solution([edit('T1', { convergence: convergence({ criteria }) })]))
    expect(report.findings.map((f) => [f.severity, f.value])).toEqual([
      ['medium', 'Code works'], ['medium', '功能正常'], ['medium', '返回结果正确'], ['medium', '结果可以'], ['medium', 'Code works correctly'],
    ])
    expect(report.findings[0]).toMatchObject({ path: 'tasks[0].convergence.criteria[0]', task_id: 'T1', message: 'Criterion "Code works" is too vague to check' })
  })

  it('flags a criterion that only repeats the task title, and counts it as not testable', () => {
    const task = edit('T1', { title: 'Add the `--json` flag to list', convergence: convergence({ criteria: ['add the --json flag to list.', 'list --json prints one JSON object per line'] }) })
    const report = assess(solution([task]))
    expect(report.findings.map((f) => [f.rule, f.value])).toEqual([['criterion-repeats-title', 'add the --json flag to list.']])
    expect(report.breakdown.testable_acceptance).toBe(0.5)
    const only = assess(solution([edit('T1', { title: 'Add the flag', test: noCommands, convergence: convergence({ criteria: ['Add the flag'], verification: '' }) })]))
    // Stated work, no real criterion, no command: a person reviews it.
    expect(only.quality_gate).toBe('review')
  })

  it('flags a verification too short to execute, unless it is a command', () => {
    expect(rulesOf(edit('T1', { convergence: convergence({ verification: 'ok' }) })))
      .toEqual(['verification-too-short tasks[0].convergence.verification'])
    expect(rulesOf(edit('T1', { convergence: convergence({ verification: 'make' }) }))).toEqual([])
    const alsoATestCommand = { test: { ...noCommands, commands: ['tsc'] }, convergence: convergence({ verification: 'tsc' }) }
    expect(rulesOf(edit('T1', alsoATestCommand))).toEqual([])
    expect(rulesOf(edit('T1', { convergence: convergence({ verification: '  ' }) }))).toEqual([])
  })

  it('flags technical words in the definition of done, and a missing one', () => {
    for (const dod of ['jest passes', 'The build is green', 'No lint errors', 'Project compiles', 'go test passes'])
      expect(rulesOf(edit('T1', { convergence: convergence({ definition_of_done: dod }) })))
        .toEqual(['technical-definition-of-done tasks[0].convergence.definition_of_done'])
    expect(rulesOf(edit('T1', { convergence: convergence({ definition_of_done: '' }) })))
      .toEqual(['no-definition-of-done tasks[0].convergence.definition_of_done'])
  })

  it('flags modify entries without changes, not creates or deletes', () => {
    const files: Task['files'] = [
      { path: 'src/new.ts', action: 'create', target: null, changes: [] },
      { path: 'src/old.ts', action: 'delete', target: null, changes: [] },
      { path: 'src/auth.ts', action: 'modify', target: null, changes: [] },
    ]
    const [finding] = assess(solution([edit('T1', { files })])).findings
    expect(finding).toMatchObject({ rule: 'modify-without-changes', severity: 'medium', path: 'tasks[0].files[2].changes', value: 'src/auth.ts' })
  })

  it('distinguishes no steps (medium) from nothing to go on at all (high)', () => {
    expect(rulesOf(edit('T1', { implementation: [] }))).toEqual(['no-implementation tasks[0].implementation'])
    expect(rulesOf(edit('T1', { implementation: [], description: ' ' }))).toEqual(['no-guidance tasks[0].implementation'])
  })

  it('says whether a task has no verification or only manual checks', () => {
    const none = assess(solution([edit('T1', { test: noCommands, convergence: convergence({ verification: '' }) })])).findings[0]!
    expect(none).toMatchObject({ rule: 'no-runnable-verification', severity: 'high', message: 'T1 has no verification: no test command and no verification step' })
    const manual = assess(solution([edit('T1', { test: noCommands, convergence: convergence({ verification: 'Manual: a\nManual: b' }) })])).findings[0]!
    expect(manual.message).toBe('T1 can only be verified by hand: all 2 verification steps are manual')
  })

  it('mentions a task without files once', () => {
    expect(rulesOf(edit('T1', { files: [] }))).toEqual(['no-files tasks[0].files'])
  })

  it('orders findings by severity, then task, solution-level last; counts them by severity', () => {
    const report = assess(solution([
      edit('T1', { files: [], convergence: convergence({ criteria: ['works'] }) }),
      edit('T2', { convergence: convergence({ criteria: [] }), implementation: [] }),
      edit('T3', { test: noCommands, convergence: convergence({ verification: 'Manual: look', definition_of_done: 'npm test passes' }) }),
    ], { risk: 'low' }))
    expect(report.findings.map((f) => `${f.severity} ${f.rule} ${f.task_id ?? '-'}`)).toEqual([
      'critical no-criteria T2',
      'high no-runnable-verification T3',
      'medium vague-criterion T1',
      'medium no-implementation T2',
      'low no-files T1',
      'low technical-definition-of-done T3',
      'low analysis-missing -',
      'low analysis-missing -',
    ])
    expect(report.issues_by_severity).toEqual({ critical: 1, high: 1, medium: 2, low: 4 })
    for (const f of report.findings) expect(f.fix).toMatch(/\w{3,}/)
  })
})

describe('assessQuality: tasks changing one file in no stated order', () => {
  const onA = (id: string, dependsOn: string[] = []) => ({ ...goodTask(id, dependsOn), files: [{ path: 'src/a.ts', action: 'modify' as const, target: null, changes: ['Change it'] }] })

  it('names the second task of a pair that neither depends on the other, once a file, and counts both against the order', () => {
    const report = assess(solution([onA('T1'), goodTask('T2'), onA('T3'), onA('T4')]))
    expect(report.findings).toEqual([{
      rule: 'unordered-shared-file', severity: 'medium', task_id: 'T3', path: 'tasks[2].depends_on', value: 'src/a.ts',
      message: 'T1 and T3 both change src/a.ts but neither depends on the other: the plan does not say which goes first',
      fix: 'Add "depends_on": ["T1"] to T3 (or the other way round), or merge the two changes to src/a.ts into one task',
    }])
    expect(report.breakdown.dependency_validity).toBe(0.5)
  })

  it('says nothing of tasks ordered by a dependency, or at different depths (taken as ordered)', () => {
    expect(assess(solution([onA('T1'), onA('T2', ['T1'])])).findings).toEqual([])
    const deeper = assess(solution([goodTask('T1'), onA('T2', ['T1']), onA('T3')]))
    expect(deeper.findings).toEqual([])
    expect(deeper.breakdown.dependency_validity).toBe(1)
    // T2 and T4 are both one below T1: neither reaches the other.
    const siblings = assess(solution([goodTask('T1'), onA('T2', ['T1']), onA('T3'), onA('T4', ['T1'])]))
    expect(siblings.findings.map((f) => `${f.rule} ${f.task_id}`)).toEqual(['unordered-shared-file T4'])
  })

  it('leaves tasks caught in a cycle to the cycle error', () => {
    const report = assess(solution([onA('T1', ['T2']), onA('T2', ['T1'])]))
    expect(report.findings.map((f) => f.rule)).toEqual([])
    expect(report.breakdown.dependency_validity).toBe(0)
  })
})

describe('assessQuality: what no command verifies', () => {
  it('says whether every verification is manual or there is none, and holds the plan at review', () => {
    const manual = assess(solution([edit('T1', { test: noCommands, convergence: convergence({ verification: 'Manual: look' }) })]))
    expect(manual.findings.find((f) => f.rule === 'no-command-verification')).toEqual({
      rule: 'no-command-verification', severity: 'high', path: 'tasks', message: 'Nothing will be verified by a command: every verification is manual',
      fix: 'Give at least one task a command to run, e.g. "verification": ["npm test"] or "Run: npm test"',
    })
    expect(manual).toMatchObject({ score: 0.85, quality_gate: 'review' })
    const none = assess(solution([edit('T1', { test: noCommands, convergence: convergence({ verification: '' }) })]))
    expect(none.findings.find((f) => f.rule === 'no-command-verification')?.message).toBe('Nothing will be verified by a command: no task has a verification')
  })

  it('an empty plan scores only its analysis and fails', () => {
    const report = assess(solution([]))
    expect(report.breakdown).toEqual({ completeness: 0, dependency_validity: 1, testable_acceptance: 0, complexity_assessed: 1 })
    expect(report.quality_gate).toBe('fail')
  })

  it('flags a criterion about the process, not the software, as untestable, and counts it so', () => {
    const report = assess(solution([edit('T1', { convergence: convergence({ criteria: ['The team is happy with the change', 'GET /health answers 200'] }) })]))
    expect(report.findings).toEqual([{
      rule: 'untestable-criterion', severity: 'medium', task_id: 'T1', path: 'tasks[0].convergence.criteria[0]', value: 'The team is happy with the change',
      message: 'Criterion "The team is happy with the change" is about the process, not the software: no check of the code can decide it',
      fix: 'Keep process notes out of the criteria (put them in the description) and state what the software does when the work is done',
    }])
    expect(report.breakdown.testable_acceptance).toBe(0.5)
  })

  it('a blank title makes a task incomplete; one manual step is named as one', () => {
    expect(assess(solution([edit('T1', { title: '  ' }), goodTask('T2')])).breakdown.completeness).toBe(0.5)
    const one = assess(solution([edit('T1', { test: noCommands, convergence: convergence({ verification: 'Manual: look' }) })]))
    expect(one.findings.find((f) => f.rule === 'no-runnable-verification')?.message).toBe('T1 can only be verified by hand: its one verification step is manual')
  })

  it('takes a manual verification of 5 characters as one, not of 4', () => {
    expect(rulesOf(edit('T1', { convergence: convergence({ verification: 'abcd' }) }))).toEqual(['verification-too-short tasks[0].convergence.verification'])
    expect(rulesOf(edit('T1', { convergence: convergence({ verification: 'abcde' }) }))).toEqual([])
  })
})

describe('assessQuality: scale', () => {
  // How fast is for bench/ to measure (against a baseline of the same run); here, that a huge plan is assessed right.
  const size = UNDER_MUTATION ? 1_000 : 100_000
  it(`assesses a ${size.toLocaleString('en')}-task plan`, () => {
    const tasks = Array.from({ length: size }, (_, i) => {
      const t = goodTask(`T${i + 1}`, i > 0 ? [`T${i}`] : [])
      return i % 10 === 0 ? { ...t, convergence: convergence({ criteria: ['works'], verification: 'Run: npm test\nManual: check' }) } : t
    })
    const plan = solution(tasks)
    const dag = analyseDag(tasks)
    const report = assessQuality(plan, dag)
    expect(report.issues_by_severity.medium).toBe(size / 10)
    expect(report.breakdown.testable_acceptance).toBe(0.95)
  })
})

describe('assessQuality: work the planner left out (issue 38)', () => {
  it('a plan that leaves out work the issue asks for is at most review, and the finding names it with its reason', () => {
    const plan = { ...solution([goodTask('T1')]), left_out: [{ item: 'src/version.ts exports the new version', reason: 'not placed in any task', work: true }] }
    const report = assess(plan)
    expect(report.quality_gate).toBe('review')
    const finding = report.findings.find((f) => f.rule === 'issue-work-left-out')
    expect(finding?.message).toBe('The plan leaves out what the issue asks: "src/version.ts exports the new version" (not placed in any task)')
  })

  it('what is left out with a reason that is not work (a confirmation, context) does not hold the plan back', () => {
    const plan = { ...solution([goodTask('T1')]), left_out: [{ item: 'I have searched the issues', reason: 'a confirmation for the reporter, not work' }] }
    expect(assess(plan).quality_gate).toBe('pass')
  })
})
