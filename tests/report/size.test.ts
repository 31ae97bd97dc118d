import { describe, expect, it } from 'vitest'
import type { Solution, Task } from '../../src/model/index.js'
import { renderCheckRun } from '../../src/report/check-run.js'
import { renderIssueComment } from '../../src/report/issue-comment.js'
import { renderTaskGraph } from '../../src/report/mermaid.js'
import { renderReportBody } from '../../src/report/report-body.js'
import type { RunReport } from '../../src/report/run-report.js'
import { COMPACTIONS, cutToFit, fitToLimit } from '../../src/report/size.js'
import { buildView } from '../../src/report/task-view.js'
import * as fx from './fixtures.js'
import { countTags, toHtml } from './html.js'

const LIMIT = 65_536

function notice(comment: string): string {
  return /^_.* to fit GitHub's size limit; the full report is in .* on the state branch\._$/m.exec(comment)?.[0] ?? ''
}

/** Every command of every recorded task printed `lines` long lines. */
function withHugeOutputs(report: RunReport, lines: number): RunReport {
  const long = (i: number) => `${'x'.repeat(200)} line ${i} ${'y'.repeat(200)}`
  const tail = Array.from({ length: lines }, (_, i) => (i % 50 === 49 ? `Error: case ${i} failed` : long(i))).join('\n')
  const tasks = Object.fromEntries(Object.entries(report.execution!.tasks).map(([id, r]) => [
    id,
    { ...r, convergence_verified: r.convergence_verified.map((c) => (c.kind === 'command' ? { ...c, output_tail: tail } : c)) },
  ]))
  return { ...report, execution: { ...report.execution!, tasks } }
}

function allFailed(size: number): RunReport {
  const report = fx.largePlan(size, 10)
  const solution = report.solution!
  const results = solution.tasks.map((t) => fx.taskResult(t, {
    startedAt: '2025-06-01T09:00:00Z', durationMs: 1000, failing: { [t.test.commands[0]!]: 2 },
    outputs: { [t.test.commands[0]!]: 'FAIL something\n'.repeat(30) },
  }))
  return { ...report, running: [], execution: { ...report.execution!, tasks: Object.fromEntries(results.map((r) => [r.task_id, r])) } }
}

describe('the size policy', () => {
  it('a 300-task plan fits, with the finished tasks collapsed and the cut announced', () => {
    const comment = renderIssueComment(fx.largePlan(300))
    expect(comment.length).toBeLessThan(LIMIT)
    expect(notice(comment)).toBe(
      "_Output tails left out, 180 finished tasks collapsed, 115 waiting tasks collapsed and the task graph left out to fit GitHub's size limit; " +
        'the full report is in [execution.md](https://github.com/octo-org/demo/blob/converge/state/.converge/issues/42/execution.md) on the state branch._',
    )
    // The failure, the running tasks and every row of the table survive.
    expect(comment).toContain('#### ❌ T181 failed')
    expect(comment).toContain('<details open><summary>❌ <b>T181</b>')
    expect(comment).toContain('| T300 |')
  })

  it('a fresh 300-task plan fits too', () => {
    const report = fx.largePlan(300)
    const comment = renderIssueComment({ ...report, execution: undefined, running: [], status: 'planned' })
    expect(comment.length).toBeLessThan(LIMIT)
    expect(notice(comment)).toContain('300 waiting tasks collapsed')
    expect(comment).toContain('comment `/converge execute`')
  })

  it('huge outputs: tails are shortened first, and nothing else is cut', () => {
    const comment = renderIssueComment(withHugeOutputs(fx.withFailures(), 20_000))
    expect(comment.length).toBeLessThan(LIMIT)
    expect(notice(comment)).toMatch(/^_Output tails shortened to fit/)
    expect(comment).toContain('```mermaid')
    expect(comment).toContain('<details><summary>✅ <b>T1</b>')
    expect(comment).toContain('Error: case 19999 failed')
  })

  it('thousands of failed tasks: five described, the rest counted', () => {
    const report = allFailed(3000)
    const comment = renderIssueComment(report)
    expect(comment.length).toBeLessThan(LIMIT)
    expect(comment).toContain('…and 2995 more failed tasks: T6, T7, T8, T9, T10, T11, T12, T13, T14, T15 and 2985 more.')
    expect(notice(comment)).toContain('the details of 2995 failed or running tasks left out and 2900 more tasks left out of the table')
    expect(comment).toContain('_The task graph is too large for Mermaid to draw; the waves are in [execution.md](')
    expect(renderCheckRun(report).summary.length).toBeLessThanOrEqual(65_535)
  })

  it('past the last level: cut at a line, with code blocks and <details> closed, and said', () => {
    const body = renderReportBody(fx.withFailures(), 1500)
    expect(body.length).toBeLessThanOrEqual(1500)
    expect(body.trimEnd().endsWith("_The report was cut to fit GitHub's size limit; the full report is in [execution.md](https://github.com/octo-org/demo/blob/converge/state/.converge/issues/42/execution.md) on the state branch._")).toBe(true)
    const html = toHtml(body)
    expect(countTags(html, 'details').open).toBe(countTags(html, 'details').close)
    expect(countTags(html, 'pre').open).toBe(countTags(html, 'pre').close)
  })

  it('a report that fits is not cut and says nothing about size', () => {
    const comment = renderIssueComment(fx.withFailures())
    expect(notice(comment)).toBe('')
    expect(comment).toContain('<details><summary>Output of <code>node --test</code> · 12 lines</summary>')
  })

  it('tries the levels in order and keeps the first that fits', () => {
    const tried: number[] = []
    const text = fitToLimit((level) => {
      tried.push(COMPACTIONS.indexOf(level))
      return level.graph ? 'x'.repeat(200) : 'fits'
    }, 100, 'cut')
    expect(text).toBe('fits')
    expect(tried).toEqual([0, 1, 2, 3, 4])
  })

  it('cutToFit closes the code fence and the <details> it cuts into', () => {
    const text = ['<details><summary>a</summary>', '', '````text', ...Array.from({ length: 100 }, (_, i) => `line ${i}`), '````', '', '</details>'].join('\n')
    const cut = cutToFit(text, 300, '_cut_')
    expect(cut.length).toBeLessThanOrEqual(300)
    expect(cut).toMatch(/line \d+\n````\n\n<\/details>\n\n_cut_\n$/)
  })
})

describe('the Mermaid graph', () => {
  it('is left out when Mermaid would refuse it (more than 500 edges)', () => {
    const solution = fx.demoSolution()
    const tasks: Task[] = Array.from({ length: 40 }, (_, i) => ({
      ...solution.tasks[0]!, id: `T${i + 1}`, depends_on: Array.from({ length: i }, (_, k) => `T${k + 1}`),
    }))
    const view = buildView({ ...fx.freshPlan(), solution: { ...solution, tasks } as Solution })
    expect(renderTaskGraph(view.tasks)).toBeUndefined()
  })
})
