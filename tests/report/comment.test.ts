import { describe, expect, it } from 'vitest'
import { renderIssueComment } from '../../src/report/issue-comment.js'
import { renderJobSummary } from '../../src/report/job-summary.js'
import type { RunReport } from '../../src/report/run-report.js'
import * as fx from './fixtures.js'

const MARKER = '<!-- converge:ISS-42 -->'

describe('the sticky comment (snapshots in __snapshots__/, readable as markdown)', () => {
  it.each<[string, () => RunReport]>([
    ['fresh-plan', fx.freshPlan],
    ['needs-approval', fx.staleApproval],
    ['invalid-plan', fx.invalidPlan],
    ['vague-plan', fx.vaguePlan],
    ['in-progress', fx.inProgress],
    ['converged', fx.converged],
    ['failures', fx.withFailures],
    ['300-tasks', () => fx.largePlan(300)],
    ['secret-in-output', fx.withSecrets],
  ])('%s', async (name, make) => {
    const comment = renderIssueComment(make())
    expect(comment.startsWith(`${MARKER}\n`)).toBe(true)
    expect(comment.length).toBeLessThan(65_536)
    await expect(comment).toMatchFileSnapshot(`__snapshots__/comment-${name}.md`)
  })
})

describe('what the end-to-end tests of the action read in the comment', () => {
  it('keeps the planning strings', () => {
    const comment = renderIssueComment(fx.freshPlan())
    expect(comment).toContain('### Converge · ISS-42 · planned')
    expect(comment).toContain('quality **100/100**, gate **pass**')
    expect(comment).toContain('| T3 | Create test/truncate.test.js and extend test/slugify.test.js with accented titles | 2 |')
    expect(comment).toContain('comment `/converge approve`')
  })

  it('keeps the invalid-plan strings', () => {
    const comment = renderIssueComment(fx.invalidPlan())
    expect(comment).toContain('**The plan cannot be used**: 1 error.')
    expect(comment).toContain('| `tasks[1].action` | Expected string, got number 42')
  })

  it('defuses mentions in the approval and the headline', () => {
    const approvedPlan = renderIssueComment({ ...fx.freshPlan(), solution: fx.approved(fx.demoSolution()), headline: 'Paused by @alice.' })
    expect(approvedPlan).toContain('approved by @\u200balice')
    expect(approvedPlan).toContain('Paused by @\u200balice.')
  })
})

describe('status, failures and the next step', () => {
  it('shows progress as a bar and counts', () => {
    const comment = renderIssueComment(fx.withFailures())
    expect(comment).toContain('**▰▰▰▱▱ 3/5 tasks converged** · ❌ 1 failed · ⛔ 1 blocked')
    expect(comment).toContain('| T3 | Create test/truncate.test.js and extend test/slugify.test.js with accented titles | 2 | ❌ failed | 2 | 2m 12s |')
  })

  it('says what failed, why (the telling output lines) and what to do', () => {
    const comment = renderIssueComment(fx.withFailures())
    expect(comment).toContain('#### ❌ T3 failed after 2 attempts')
    expect(comment).toContain('`node --test test/truncate.test.js test/slugify.test.js` exited with code 1 after 39.5 s (1 test failed, 4 passed).')
    const why = comment.slice(comment.indexOf('```text'), comment.indexOf('```', comment.indexOf('```text') + 7))
    expect(why).toContain("'hello wonderful…' !== 'hello…'")
    expect(why).not.toContain('at Test.runInAsyncScope')
    expect(why).not.toContain('✔ returns short text unchanged')
    expect(comment).toContain('T5; it runs once T3 converges.')
    expect(comment).toContain('comment `/converge retry T3` to run it again')
  })

  it('names the command for every stage, with the configured prefix', () => {
    const next = (r: RunReport) => /\*\*Next\*\*: .*/.exec(renderIssueComment({ ...r, commandPrefix: '@converge' }))![0]
    expect(next(fx.freshPlan())).toContain('`@converge approve`')
    expect(next(fx.staleApproval())).toContain('the plan changed after it was approved: comment `@converge approve`')
    expect(next(fx.invalidPlan())).toContain('then comment `@converge plan`')
    expect(next({ ...fx.freshPlan(), solution: fx.approved(fx.demoSolution()) })).toContain('comment `@converge execute`')
    expect(next(fx.inProgress())).toContain('nothing to do while tasks run')
    expect(next(fx.converged())).toContain('review the [pull request](https://github.com/octo-org/demo/pull/57)')
    expect(next({ ...fx.freshPlan(), status: 'paused' })).toContain('`@converge resume`')
  })

  it('marks every criterion with who verified it and every command with PASS/FAIL, exit code and duration', () => {
    const comment = renderIssueComment(fx.withFailures())
    expect(comment).toContain("- [x] ASCII titles are unchanged: `slugify('Hello, World!')` still returns `'hello-world'` · *agent report*")
    expect(comment).toContain('- [ ] Manual: read the README section as a newcomer would · *manual check pending*')
    expect(comment).toContain('| `node --test test/truncate.test.js test/slugify.test.js` | ❌ FAIL · 4 passed, 1 failed | 1 | 39.5 s |')
    expect(comment).toContain('<details><summary>Output of <code>node --test</code> · 12 lines</summary>')
    expect(comment).toContain('<details open><summary>❌ <b>T3</b>')
  })

  it('links the check run, the pull request, the state files and the workflow run (last, as the action expects)', () => {
    const links = renderIssueComment(fx.converged()).trimEnd().split('\n').at(-1)!
    expect(links).toMatch(/^<sub>\[check run\]\(.*\/runs\/31415926535\) · \[pull request\]\(.*\/pull\/57\) · \[plan\.json\]/)
    expect(links).toContain('[execution.md](https://github.com/octo-org/demo/blob/converge/state/.converge/issues/42/execution.md)')
    expect(links).toMatch(/ · \[workflow run\]\([^)]*\)<\/sub>$/)
  })
})

describe('the job summary', () => {
  it('is the comment without its marker', () => {
    for (const make of [fx.freshPlan, fx.withFailures, fx.invalidPlan]) {
      const report = make()
      expect(`${MARKER}\n${renderJobSummary(report)}`).toBe(renderIssueComment(report))
    }
  })

  it('has room for more than the comment', () => {
    const report = fx.largePlan(300)
    expect(renderJobSummary(report).length).toBeGreaterThan(renderIssueComment(report).length)
  })
})

describe('what Converge did about credentials, under the headline', () => {
  it('shows each security note as a warning in the comment, the check run and the job summary, secrets masked', async () => {
    const { renderCheckRun } = await import('../../src/report/check-run.js')
    const report: RunReport = {
      ...fx.converged(),
      security: ['Removed the token actions/checkout persisted before running commands (the Authorization header http.https://github.com/.extraheader in .git/config); nothing is restored. Set persist-credentials: false on actions/checkout to silence this.'],
      secrets: ['ghs_secretInANote0123'],
    }
    report.security!.push('Found credentials outside the checkout: ghs_secretInANote0123 in ~/.gitconfig.')
    for (const text of [renderIssueComment(report), renderJobSummary(report), renderCheckRun(report).summary]) {
      const lines = text.split('\n')
      const headline = lines.indexOf(report.headline!)
      expect(lines[headline + 2]).toBe(`> ⚠️ ${report.security![0]}`)
      expect(text).toContain('> ⚠️ Found credentials outside the checkout: *** in ~/.gitconfig.')
      expect(text).not.toContain('ghs_secretInANote0123')
    }
  })
})

describe('a plan that holds a secret value', () => {
  it('reads as approved once approved: the approval is judged on the stored plan, the secret masked everywhere', async () => {
    const { renderCheckRun } = await import('../../src/report/check-run.js')
    const { renderExecutionMarkdown } = await import('../../src/report/execution-md.js')
    const { planHash } = await import('../../src/plan/hash.js')
    const token = 'npm_pastedIntoTheIssue0123456789'
    const solution = fx.demoSolution()
    solution.tasks[0]!.test.commands.push(`NPM_TOKEN=${token} npm whoami`)
    const report: RunReport = { ...fx.freshPlan(), solution: fx.approved(solution), secrets: [token] }
    const check = renderCheckRun(report)
    expect(check.conclusion).not.toBe('action_required')
    expect(check.title).not.toMatch(/changed/)
    const execution = renderExecutionMarkdown(report)
    expect(execution).toContain(planHash(solution))
    for (const text of [renderIssueComment(report), renderJobSummary(report), check.summary, execution]) {
      expect(text).not.toContain(token)
      expect(text).not.toMatch(/earlier version|plan changed/)
    }
    expect(renderIssueComment(report)).toContain('NPM_TOKEN=*** npm whoami')
  })
})

describe('work the planner left out (issue 38)', () => {
  it('is said to the approver above the fold, with the reason; what was rightly left out is not', () => {
    const solution = {
      ...fx.demoSolution(),
      left_out: [
        { item: 'src/version.ts exports the new version', reason: 'not placed in any task', work: true },
        { item: 'I have searched the issues', reason: 'a confirmation for the reporter, not work' },
      ],
    }
    const comment = renderIssueComment({ ...fx.freshPlan(), solution })
    expect(comment).toContain('⚠️ **Left out of the plan** (the issue asks for it; check before approving): src/version.ts exports the new version (not placed in any task)')
    expect(comment).not.toContain('I have searched the issues')
    expect(renderIssueComment(fx.freshPlan())).not.toContain('Left out of the plan')
  })
})
