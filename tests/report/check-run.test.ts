import { describe, expect, it } from 'vitest'
import { renderCheckRun } from '../../src/report/check-run.js'
import { renderIssueComment } from '../../src/report/issue-comment.js'
import type { RunReport } from '../../src/report/run-report.js'
import * as fx from './fixtures.js'

const approvedPlan = (): RunReport => ({ ...fx.freshPlan(), solution: fx.approved(fx.demoSolution()) })

function skippedAll(): RunReport {
  const report = fx.converged()
  const tasks = Object.fromEntries(Object.entries(report.execution!.tasks).map(([id, r]) => [id, id === 'T5' ? { ...r, status: 'skipped' as const } : r]))
  return { ...report, execution: { ...report.execution!, tasks } }
}

describe('the check run', () => {
  it.each<[string, () => RunReport, string, string | undefined]>([
    ['an invalid plan', fx.invalidPlan, 'Plan invalid: 1 error', 'failure'],
    ['a plan failing its quality gate', fx.vaguePlan, 'Plan fails the quality gate (28/100)', 'failure'],
    ['a fresh plan', fx.freshPlan, 'Needs approval', 'action_required'],
    ['a plan changed since its approval', fx.staleApproval, 'Needs approval: the plan changed', 'action_required'],
    ['an approved plan not executed yet', approvedPlan, 'Approved, not executed yet', 'neutral'],
    ['a paused plan', () => ({ ...approvedPlan(), status: 'paused' }), 'Paused · 0/5 tasks converged', 'neutral'],
    ['a run in progress', fx.inProgress, '2/5 tasks converged', undefined],
    ['a converged run', fx.converged, '5/5 tasks converged · 8 criteria wait for a person', 'success'],
    ['a run with a failed task', fx.withFailures, 'T3 failed · 3/5 tasks converged', 'failure'],
    ['a run that skipped a task', skippedAll, '4/5 tasks converged', 'neutral'],
    ['no plan at all', () => ({ ...fx.freshPlan(), solution: undefined }), 'No plan yet', 'neutral'],
  ])('%s: %s, %s', (_, make, title, conclusion) => {
    const check = renderCheckRun(make())
    expect(check.title).toBe(title)
    expect(check.conclusion).toBe(conclusion)
  })

  it('summarises what the comment says, without the marker', () => {
    const report = fx.withFailures()
    expect(`<!-- converge:ISS-42 -->\n${renderCheckRun(report).summary}`).toBe(renderIssueComment(report))
  })

  it('keeps its summary within GitHub\'s 65,535 characters on a 300-task plan', () => {
    const check = renderCheckRun(fx.largePlan(300))
    expect(check.summary.length).toBeLessThanOrEqual(65_535)
    expect(check.title).toBe('T181 failed · 180/300 tasks converged')
  })
})
