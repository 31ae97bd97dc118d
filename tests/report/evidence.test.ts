import { describe, expect, it } from 'vitest'
import type { EvidenceKind, EvidenceRun, TaskEvidence } from '../../src/model/index.js'
import { renderCheckRun } from '../../src/report/check-run.js'
import { evidenceSentence } from '../../src/report/evidence-words.js'
import { renderIssueComment } from '../../src/report/issue-comment.js'
import { renderJobSummary } from '../../src/report/job-summary.js'
import type { RunReport } from '../../src/report/run-report.js'
import * as fx from './fixtures.js'

const run = (command: string, exit: number | null, output = ''): EvidenceRun => ({ command, exit_code: exit, duration_ms: 40, output_tail: output })
const MOCHA_RED = '  3 passing (12ms)\n  2 failing\n'

/** The converged fixture run, each task's result carrying the evidence given (by task id). */
function withEvidence(evidence: Record<string, TaskEvidence>): RunReport {
  const report = fx.converged()
  const tasks = Object.fromEntries(Object.entries(report.execution!.tasks).map(([id, r]) => [id, { ...r, evidence: evidence[id]! }]))
  return { ...report, execution: { ...report.execution!, tasks } }
}

const proven = (command = 'npm test'): TaskEvidence => ({ kind: 'proven', before: [run(command, 1, MOCHA_RED)], after: [run(command, 0)] })
const allProven = () => Object.fromEntries(['T1', 'T2', 'T3', 'T4', 'T5'].map((id) => [id, proven()]))
const of = (kind: EvidenceKind, before: EvidenceRun[], after: EvidenceRun[]): TaskEvidence => ({ kind, before, after })

describe('evidence in words', () => {
  it('says what failed before and passes after, with the failing count the output gives', () => {
    expect(evidenceSentence('T2', proven())).toBe('T2: `npm test` failed before the change (2 failing) and passes after')
    expect(evidenceSentence('T2', of('proven', [run('test -f src/a.test.js', 1), run('./t.sh', 127)], [run('a', 0), run('b', 0)])))
      .toBe('T2: `test -f src/a.test.js` failed before the change (exit 1) and both commands pass after')
  })

  it('says a task that changed nothing changed nothing, and why its check proves nothing', () => {
    expect(evidenceSentence('T3', of('no-change', [run('test -f package.json', 0)], [run('test -f package.json', 0)])))
      .toBe('T3 changed nothing: its check already passed before the change')
    expect(evidenceSentence('T1', of('unproven', [run('npm test', 0)], [run('npm test', 0)])))
      .toBe('T1: `npm test` already passed before the change: nothing shows the change did what the task asks')
    expect(evidenceSentence('T4', of('regression-guard', [run('npm test', 0)], [run('npm test', 0)])))
      .toBe('T4: `npm test` passed before and after the change: it guards against regressions')
    expect(evidenceSentence('T5', of('manual', [], []))).toBe('T5 has no command to run: a person checks it')
    expect(evidenceSentence('T6', of('not-measured', [], [run('npm test', 0)]))).toBe('T6: not measured (evidence: off): `npm test` ran after the change only')
  })

  it('speaks of the pull request in a verification of one', () => {
    expect(evidenceSentence('T1', of('unproven', [run('npm test', 0)], [run('npm test', 0)]), 'verify'))
      .toBe('T1: `npm test` already passed before the pull request: nothing shows the pull request did what the task asks')
  })
})

describe('verdicts that mean what they say', () => {
  it('every task proven: success, and the comment says why per task', () => {
    const report = withEvidence(allProven())
    const check = renderCheckRun(report)
    expect(check.conclusion).toBe('success')
    expect(check.title).toMatch(/^5\/5 tasks converged/)
    expect(renderIssueComment(report)).toContain('- ✅ T2: `npm test` failed before the change (2 failing) and passes after')
  })

  it('a task that changed nothing: neutral, named in the title, said in the comment, the check run and the job summary alike', () => {
    const report = withEvidence({ ...allProven(), T3: of('no-change', [run('test -f package.json', 0)], [run('test -f package.json', 0)]) })
    const check = renderCheckRun(report)
    expect(check.conclusion).toBe('neutral')
    expect(check.title).toMatch(/^4\/5 tasks converged · 1 not proven \(T3 changed nothing\)/)
    const sentence = '- ⚠️ T3 changed nothing: its check already passed before the change'
    for (const text of [renderIssueComment(report), check.summary, renderJobSummary(report)]) {
      expect(text).toContain(sentence)
      expect(text).toContain('⚠️ 1 unproven')
    }
  })

  it('unproven, manual and not-measured tasks are neutral too; a failed task still fails', () => {
    for (const kind of ['unproven', 'manual', 'not-measured'] as const)
      expect(renderCheckRun(withEvidence({ ...allProven(), T1: of(kind, [], []) })).conclusion).toBe('neutral')
    expect(renderCheckRun(withEvidence({ ...allProven(), T4: of('regression-guard', [run('npm test', 0)], [run('npm test', 0)]) })).conclusion).toBe('success')
    const failed = fx.withFailures()
    expect(renderCheckRun(failed).conclusion).toBe('failure')
  })

  it('criteria no command checks are a checklist for a person, counted in the check run, never ticked', () => {
    const report = withEvidence(allProven())
    const comment = renderIssueComment(report)
    expect(comment).toMatch(/\*\*For a person to check\*\*: 8 criteria wait for a person/)
    expect(comment).toContain("- [ ] T5: CHANGELOG.md names `truncate` and the slug fix under \"Unreleased\"")
    expect(renderCheckRun(report).title).toContain('8 criteria wait for a person')
  })
})
