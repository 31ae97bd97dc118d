import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ConvergenceCheck, Solution, TaskResult } from '../../src/model/index.js'
import { renderCheckRun } from '../../src/report/check-run.js'
import { renderIssueComment } from '../../src/report/issue-comment.js'
import type { RunReport } from '../../src/report/run-report.js'
import * as fx from './fixtures.js'
import { LIVE_MENTION, countTags, outsideCode, toHtml } from './html.js'

/** Text people and commands write, with everything that has broken markdown reports before. */
const hostile = fc.constantFrom(
  '|', '`', '```', '````', '<script>alert(1)</script>', '<SCRIPT src=x>', '@octocat', '@org/team', '-->', '<!--', '<!-- converge:ISS-42 -->',
  '\n', '\r', '\r\n', '</details>', '<details>', '</summary>', '[x]', '# heading', '*', '_', '\\', '&lt;', '#quot;', '"', '🚀', 'ü',
)
const text = (maxLength: number) =>
  fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), hostile), { maxLength: Math.ceil(maxLength / 20) }).map((parts) => parts.join(''))

const secret = fc.stringMatching(/^[A-Za-z0-9]{12,24}$/)

/** Where a secret may turn up: anywhere in any text. */
const withSecret = (t: fc.Arbitrary<string>, secrets: string[]) =>
  fc.tuple(t, fc.nat(), fc.option(fc.constantFrom(...secrets), { nil: undefined })).map(([s, at, leak]) =>
    leak === undefined ? s : `${s.slice(0, at % (s.length + 1))}${leak}${s.slice(at % (s.length + 1))}`,
  )

const verdict = fc.constantFrom<ConvergenceCheck['verdict']>('pass', 'fail', 'pending')

function reportOf(secrets: string[]) {
  const t = (max: number) => withSecret(text(max), secrets)
  const output = fc.oneof(t(400), fc.tuple(t(200), fc.integer({ min: 1, max: 3000 })).map(([s, n]) => `${s}\n`.repeat(n)))
  const check = fc.record({
    kind: fc.constantFrom<ConvergenceCheck['kind']>('criterion', 'command'),
    text: t(200),
    verdict,
    verified_by: fc.constantFrom<ConvergenceCheck['verified_by']>('command', 'agent', 'manual'),
    exit_code: fc.option(fc.integer({ min: 0, max: 255 }), { nil: null }),
    duration_ms: fc.nat(10_000_000),
    output_tail: output,
  })
  const task = fc.record({
    title: t(300),
    criteria: fc.array(t(200), { maxLength: 4 }),
    verification: t(200),
    commands: fc.array(t(120), { maxLength: 3 }),
    files: fc.array(t(60), { maxLength: 3 }),
    result: fc.option(
      fc.record({
        status: fc.constantFrom<TaskResult['status']>('completed', 'failed', 'skipped'),
        checks: fc.array(check, { maxLength: 5 }),
        error: fc.option(t(300), { nil: null }),
        attempts: fc.integer({ min: 1, max: 5 }),
      }),
      { nil: undefined },
    ),
  })
  return fc
    .record({
      tasks: fc.array(task, { minLength: 1, maxLength: 40 }),
      headline: t(300),
      notes: fc.array(t(200), { maxLength: 5 }),
      status: fc.constantFrom<RunReport['status']>('planned', 'executing', 'failed', 'completed', 'paused'),
    })
    .map(({ tasks, headline, notes, status }): RunReport => {
      const base = fx.demoSolution()
      const solution: Solution = {
        ...base,
        tasks: tasks.map((x, i) => ({
          ...base.tasks[0]!,
          id: `T${i + 1}`,
          title: x.title || 'untitled',
          files: x.files.map((path) => ({ path: path || 'x', action: 'modify' as const, target: null, changes: ['change'] })),
          test: { commands: x.commands, unit: [], integration: [] },
          convergence: { criteria: x.criteria, verification: x.verification, definition_of_done: '' },
          depends_on: i > 0 && i % 3 ? [`T${i}`] : [],
        })),
      }
      const results = tasks.flatMap((x, i): TaskResult[] =>
        x.result
          ? [{
              task_id: `T${i + 1}`, status: x.result.status, started_at: '2025-06-01T09:00:00Z', executed_at: '2025-06-01T09:01:00Z',
              duration_ms: 60_000, files_modified: [], commit_hash: null, tests_passed: null,
              convergence_verified: x.result.checks, attempts: x.result.attempts, error: x.result.error,
            }]
          : [],
      )
      return {
        issue: { number: 42, title: 'Issue' },
        status,
        headline,
        notes,
        solution,
        ...(results.length
          ? { execution: { solution_id: solution.id, issue_id: 'ISS-42', plan_hash: 'sha256:0', status: 'running', started_at: '2025-06-01T09:00:00Z', executed_at: null, tasks: Object.fromEntries(results.map((r) => [r.task_id, r])) } }
          : {}),
        commandPrefix: '/converge',
        links: fx.LINKS,
        secrets,
      }
    })
}

const anyReport = fc.uniqueArray(secret, { minLength: 1, maxLength: 3 }).chain(reportOf)

describe('any report, whatever its text', () => {
  it('renders under 65,536 characters, masks every secret, pings nobody and carries no live markup', () => {
    fc.assert(
      fc.property(anyReport, (report) => {
        const comment = renderIssueComment(report)
        expect(comment.length).toBeLessThan(65_536)
        expect(comment.startsWith('<!-- converge:ISS-42 -->\n')).toBe(true)
        for (const s of report.secrets!) expect(comment).not.toContain(s)
        const html = toHtml(comment)
        // The marker is the one HTML comment: user text cannot open another and hide what follows.
        expect(outsideCode(html).split('<!--').length).toBe(2)
        expect(html).not.toMatch(/<script/i)
        expect(outsideCode(html)).not.toMatch(LIVE_MENTION)
        const details = countTags(html, 'details')
        expect(details.open).toBe(details.close)
        expect(renderCheckRun(report).summary.length).toBeLessThanOrEqual(65_535)
      }),
      { numRuns: 150 },
    )
    // 150 reports of up to 3,000 lines each, rendered twice and parsed as HTML: 45 s in CI, 82 s at a load average of 20.
  }, 300_000)
})
