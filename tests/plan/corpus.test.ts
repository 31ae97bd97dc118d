import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { QualityGate, Severity } from '../../src/model/index.js'
import { analysePlanText } from '../../src/plan/analyse.js'

/**
 * A corpus of malformed and weak plans (tests/fixtures/plans/, one defect per file, named after it)
 * with the exact errors, warnings and findings each must produce. Lists of findings are complete, not
 * samples: most of those plans differ from well-formed.json in one respect only.
 */

const CORPUS = new URL('../fixtures/plans/', import.meta.url)

interface ExpectedError {
  code: string
  path: string
  /** Substring (or pattern) of the message. */
  message: string | RegExp
  /** For cycles: the dependency path. */
  cycle?: string
}

interface ExpectedFinding {
  rule: string
  severity: Severity
  path: string
  value?: string
}

interface Case {
  gate: QualityGate
  /** Every error, in order. Absent: none. */
  errors?: ExpectedError[]
  /** Every unknown-field warning. Absent: none. */
  warnings?: Array<{ path: string; fix: string }>
  /** Every quality finding, in report order (checked only when the plan could be read). */
  findings?: ExpectedFinding[]
  score?: number
}

const dod = (task: string): ExpectedFinding => ({
  rule: 'no-definition-of-done', severity: 'low', path: `${task}.convergence.definition_of_done`,
})
const analysisMissing = (field: string): ExpectedFinding => ({ rule: 'analysis-missing', severity: 'low', path: `analysis.${field}` })
const missing = (path: string, field: string): ExpectedError => ({ code: 'invalid_type', path, message: `Missing required field "${field}"` })
const dagError = (code: string, path: string, message: string, cycle?: string): ExpectedError => ({ code, path, message, ...(cycle ? { cycle } : {}) })

const CASES: Record<string, Case> = {
  'well-formed.json': { gate: 'pass', findings: [], score: 1 },

  // Text that is not a usable JSON object.
  'invalid-json-missing-comma.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_json', path: '(root)', message: 'Not valid JSON at line 4, column 3' }],
  },
  'invalid-json-trailing-comma.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_json', path: '(root)', message: 'Not valid JSON at line 4, column 1' }],
  },
  'invalid-json-comment.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_json', path: '(root)', message: 'Not valid JSON at line 3, column 3' }],
  },
  'invalid-json-prose-before-plan.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_json', path: '(root)', message: 'Not valid JSON at line 1, column 1' }],
  },
  'not-an-object.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_type', path: '(root)', message: 'Expected object, got an array' }],
  },

  // Solution fields.
  // CCW's lite plans have no id: it is SOL-ISS-<issue>-1 (issue 17).
  'missing-id.json': { gate: 'pass', findings: [], score: 1 },
  // The issue is read from the solution id, as CCW writes it (issue 17).
  'missing-issue-id.json': { gate: 'pass', findings: [], score: 1 },
  'missing-description.json': { gate: 'fail', errors: [missing('description', 'description')] },
  'blank-description.json': { gate: 'fail', errors: [{ code: 'too_small', path: 'description', message: 'Must not be empty' }] },
  'bad-solution-id.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_format', path: 'id', message: 'expected SOL-ISS-<issue>-<seq>, e.g. SOL-ISS-42-1' }],
  },
  'bad-issue-id.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_format', path: 'issue_id', message: 'expected ISS-<issue number>, e.g. ISS-42' }],
  },
  'empty-tasks.json': { gate: 'fail', errors: [{ code: 'too_small', path: 'tasks', message: 'Needs at least 1 item' }] },
  'tasks-not-an-array.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_type', path: 'tasks', message: 'Expected array, got an object' }],
  },
  'score-out-of-range.json': { gate: 'fail', errors: [{ code: 'too_big', path: 'score', message: 'Must be at most 1' }] },
  'bad-analysis-level.json': {
    gate: 'fail',
    errors: [{ code: 'custom', path: 'analysis.risk', message: '"extreme" is not one of low, medium, high' }],
  },

  // Task fields.
  'bad-task-id.json': { gate: 'fail', errors: [{ code: 'custom', path: 'tasks[1].id', message: '"step-two" is not a task id' }] },
  'task-missing-title.json': { gate: 'fail', errors: [missing('tasks[1].title', 'title')] },
  'task-action-not-a-string.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_type', path: 'tasks[0].action', message: 'Expected string, got an array' }],
  },
  // Unknown values of optional enum fields are inferred and reported, never refused (issue 17).
  'unknown-action.json': {
    gate: 'pass',
    warnings: [{ path: 'tasks[0].action', fix: 'Use one of Create, Modify, Fix, Refactor, Add, Remove, Update, Implement, Delete, Configure, Test, or leave action out to have it inferred' }],
  },
  'bad-priority-word.json': {
    gate: 'pass',
    warnings: [{ path: 'tasks[0].priority', fix: 'Use one of critical, high, medium, low, or leave priority out to have it inferred' }],
  },
  'bad-priority-number.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_union', path: 'tasks[0].priority', message: 'Value does not match any accepted form' }],
  },
  'bad-implementation-item.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_union', path: 'tasks[0].implementation[1]', message: 'Value does not match any accepted form' }],
  },
  'bad-file-action.json': {
    gate: 'pass',
    warnings: [{ path: 'tasks[0].files[0].action', fix: 'Use one of create, modify, delete, or leave file action out to have it inferred' }],
  },
  'wrong-type-title.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_type', path: 'tasks[0].title', message: 'Expected string, got number 42' }],
  },
  'wrong-type-estimated-minutes.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_type', path: 'tasks[0].estimated_minutes', message: 'Expected number, got string "15"' }],
  },
  'depends-on-not-an-array.json': {
    gate: 'fail',
    errors: [{ code: 'invalid_type', path: 'tasks[1].depends_on', message: 'Expected array, got string "T1"' }],
  },
  // A misspelt dependency field is an error, never a remark: the dependency would be lost (issue 17).
  'unknown-field-depend-on.json': {
    gate: 'fail',
    errors: [{ code: 'unread_dependency', path: 'tasks[1].depend_on', message: 'Field "depend_on" looks like a dependency list but is not read' }],
    warnings: [{ path: 'tasks[1].depend_on', fix: 'Did you mean "depends_on"?' }],
  },

  // The dependency graph.
  'duplicate-ids.json': {
    gate: 'fail',
    errors: [dagError('duplicate_id', 'tasks[2].id', 'Duplicate task id T1 (first used by tasks[0])')],
  },
  'duplicate-ids-t1-and-task-001.json': {
    gate: 'fail',
    errors: [dagError('duplicate_id', 'tasks[1].id', 'Duplicate task id T1 (first used by tasks[0])')],
  },
  'self-dependency.json': { gate: 'fail', errors: [dagError('self_dependency', 'tasks[1].depends_on[0]', 'T2 depends on itself')] },
  'unknown-dependency.json': {
    gate: 'fail',
    errors: [dagError('unknown_dependency', 'tasks[1].depends_on[1]', 'T2 depends on unknown task T9')],
  },
  'cycle-2.json': {
    gate: 'fail',
    errors: [dagError('cycle', 'tasks[0].depends_on', 'Circular dependency: T1 → T2 → T1', 'T1 → T2 → T1')],
  },
  'cycle-3.json': {
    gate: 'fail',
    errors: [dagError('cycle', 'tasks[0].depends_on', 'Circular dependency: T1 → T3 → T2 → T1', 'T1 → T3 → T2 → T1')],
  },
  'cycle-deep-in-long-chain.json': {
    gate: 'fail',
    errors: [dagError('cycle', 'tasks[8].depends_on', 'Circular dependency: T9 → T12 → T11 → T10 → T9', 'T9 → T12 → T11 → T10 → T9')],
  },

  // Quality findings.
  'vague-criteria-english.json': {
    gate: 'pass', score: 0.925,
    findings: [{ rule: 'vague-criterion', severity: 'medium', path: 'tasks[1].convergence.criteria[1]', value: 'works fine' }],
  },
  'vague-criteria-chinese.json': {
    gate: 'pass', score: 0.925,
    findings: [
      { rule: 'vague-criterion', severity: 'medium', path: 'tasks[1].convergence.criteria[0]', value: '功能正常' },
      { rule: 'vague-criterion', severity: 'medium', path: 'tasks[1].convergence.criteria[1]', value: '登录没问题' },
      dod('tasks[1]'), // written as acceptance{}, which has no definition of done
    ],
  },
  'short-verification.json': {
    gate: 'pass', score: 0.925,
    findings: [
      { rule: 'verification-too-short', severity: 'high', path: 'tasks[1].convergence.verification', value: 'ok' },
      { rule: 'no-runnable-verification', severity: 'high', path: 'tasks[1].convergence.verification' },
    ],
  },
  'technical-definition-of-done.json': {
    gate: 'pass', score: 1,
    findings: [{
      rule: 'technical-definition-of-done', severity: 'low', path: 'tasks[1].convergence.definition_of_done',
      value: 'npm test passes and tsc compiles',
    }],
  },
  'modify-without-changes.json': {
    gate: 'pass', score: 1,
    findings: [{ rule: 'modify-without-changes', severity: 'medium', path: 'tasks[1].files[1].changes', value: 'src/auth/token.ts' }],
  },
  'no-implementation.json': {
    gate: 'pass', score: 1,
    findings: [{ rule: 'no-implementation', severity: 'medium', path: 'tasks[1].implementation' }],
  },
  'no-description-no-implementation.json': {
    gate: 'pass', score: 0.85,
    findings: [{ rule: 'no-guidance', severity: 'high', path: 'tasks[1].implementation' }],
  },
  'no-criteria.json': {
    // 0.775: one task in two is incomplete and half-testable.
    gate: 'review', score: 0.775,
    findings: [{ rule: 'no-criteria', severity: 'critical', path: 'tasks[1].convergence.criteria' }],
  },
  'no-runnable-verification.json': {
    gate: 'pass', score: 0.925,
    findings: [{ rule: 'no-runnable-verification', severity: 'high', path: 'tasks[1].convergence.verification' }],
  },
  'numbered-prose-verification.json': {
    gate: 'pass', score: 0.925,
    findings: [{ rule: 'no-runnable-verification', severity: 'high', path: 'tasks[1].convergence.verification' }],
  },
  'manual-only-verification.json': {
    gate: 'pass', score: 0.925,
    findings: [{ rule: 'no-runnable-verification', severity: 'high', path: 'tasks[1].convergence.verification' }],
  },
  'missing-analysis.json': {
    gate: 'pass', score: 0.8,
    findings: [analysisMissing('risk'), analysisMissing('impact'), analysisMissing('complexity')],
  },
  'partial-analysis.json': {
    gate: 'pass', score: 0.8667,
    findings: [analysisMissing('impact'), analysisMissing('complexity')],
  },
  'no-files.json': { gate: 'pass', score: 1, findings: [{ rule: 'no-files', severity: 'low', path: 'tasks[1].files' }] },
  'seed-bad-examples.json': {
    // The seed's "bad" column: "Performance is good", "No errors", "Check it", "jest passes".
    gate: 'review', score: 0.7,
    findings: [
      { rule: 'no-runnable-verification', severity: 'high', path: 'tasks[0].convergence.verification' },
      { rule: 'no-command-verification', severity: 'high', path: 'tasks' },
      { rule: 'vague-criterion', severity: 'medium', path: 'tasks[0].convergence.criteria[0]', value: 'Performance is good' },
      { rule: 'technical-definition-of-done', severity: 'low', path: 'tasks[0].convergence.definition_of_done', value: 'jest passes' },
    ],
  },
  'weak-plan-fails-gate.json': {
    gate: 'fail', score: 0.2,
    findings: [
      { rule: 'no-criteria', severity: 'critical', path: 'tasks[1].convergence.criteria' },
      { rule: 'no-runnable-verification', severity: 'high', path: 'tasks[0].convergence.verification' },
      { rule: 'no-guidance', severity: 'high', path: 'tasks[0].implementation' },
      { rule: 'no-runnable-verification', severity: 'high', path: 'tasks[1].convergence.verification' },
      { rule: 'no-guidance', severity: 'high', path: 'tasks[1].implementation' },
      { rule: 'no-command-verification', severity: 'high', path: 'tasks' },
      { rule: 'vague-criterion', severity: 'medium', path: 'tasks[0].convergence.criteria[0]', value: '登录正常' },
      dod('tasks[0]'),
      { rule: 'no-files', severity: 'low', path: 'tasks[0].files' },
      dod('tasks[1]'),
      { rule: 'no-files', severity: 'low', path: 'tasks[1].files' },
      analysisMissing('risk'), analysisMissing('impact'), analysisMissing('complexity'),
    ],
  },
}

function analyse(file: string) {
  return analysePlanText(readFileSync(new URL(file, CORPUS), 'utf8'))
}

describe('plan corpus', () => {
  it('has an expectation for every file, and at least 35 broken or weak plans', () => {
    const files = readdirSync(CORPUS).sort()
    expect(files).toEqual(Object.keys(CASES).sort())
    expect(files.filter((f) => f !== 'well-formed.json').length).toBeGreaterThanOrEqual(35)
  })

  it.each(Object.entries(CASES))('%s', (file, expected) => {
    const result = analyse(file)
    expect(result.gate).toBe(expected.gate)

    const errors = expected.errors ?? []
    expect(result.errors.map((e) => `${e.code} @ ${e.path}`)).toEqual(errors.map((e) => `${e.code} @ ${e.path}`))
    errors.forEach((want, i) => {
      const got = result.errors[i]!
      if (typeof want.message === 'string') expect(got.message).toContain(want.message)
      else expect(got.message).toMatch(want.message)
      expect(got.hint.length).toBeGreaterThan(10)
    })
    const cycles = (result.dag?.errors ?? []).filter((e) => e.cycle).map((e) => e.cycle!.join(' → '))
    expect(cycles).toEqual(errors.filter((e) => e.cycle).map((e) => e.cycle))

    expect(result.warnings.map((w) => ({ path: w.path, fix: w.fix }))).toEqual(expected.warnings ?? [])

    if (expected.findings) {
      const findings = result.quality!.findings
      expect(findings.map(({ rule, severity, path, value }) => ({ rule, severity, path, ...(value !== undefined && { value }) })))
        .toEqual(expected.findings)
      for (const f of findings) expect(f.fix.length).toBeGreaterThan(10)
    }
    if (expected.score !== undefined) expect(result.quality!.score).toBe(expected.score)
  })

  it('names the unknown dependency in the message and in the hint', () => {
    const [error] = analyse('unknown-dependency.json').errors
    expect(error!.message).toContain('T9')
    expect(error!.hint).toContain('"T9"')
  })

  it('reads T1 and TASK-001 as the same id', () => {
    const result = analyse('duplicate-ids-t1-and-task-001.json')
    expect(result.solution!.tasks.map((t) => t.id)).toEqual(['T1', 'T1'])
  })
})
