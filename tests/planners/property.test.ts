import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { analysePlannerOutput, builtinPlan, choosePlanner, type IssueDocument } from '../../src/planners/index.js'

/** Pieces of the markdown the planners read, so that random documents exercise every rule. */
const fragment = fc.constantFrom(
  '# Tasks\n', '## Acceptance criteria\n', '### T2\n', '## Verification\n', '## Definition of done\n', '## Steps to reproduce\n',
  '## Plan (in order)\n', '**Tasks**\n', 'Tasks:\n', '- [ ] ', '- [x] ', '  - ', '    - [ ] ', '1. ', '* ', '> ',
  '`src/a.ts`', '`src/a.ts:3`', '`npm test`', '`package.json`', '(depends on T1)', ' after T3', '（依赖 T2）', 'T2: ', '[T9] ',
  'Acceptance: ', 'Run: ', '```sh\nnpm test\n# T1\n$ node --test \\\n x\n```\n', '```console\n$ ls\nout\n```\n', '```\nplain\n```\n',
  '```json\n{"tasks": [}\n```\n', '~~~json\n{"tasks":[{"id":"T1","title":"x","action":"Add"}]}\n~~~\n', 'Risk: high\n', '风险：中\n',
  '\n', '\n\n', ' ', '\t', 'Add ', 'Fix ', 'Remove the flag from ', 'word', '修复', '验收标准', '<!-- x -->', '`', '*', '[', ']', '(', ')', '&amp;',
)
const markdown = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.array(fragment, { maxLength: 80 }).map((parts) => parts.join('')),
  fc.array(fc.oneof(fragment, fc.string({ maxLength: 6 })), { maxLength: 50 }).map((parts) => parts.join('')),
)
const issueOf = (body: string, title: string, labels: string[]): IssueDocument => ({ number: 9, title, body, labels })
const labels = fc.array(fc.oneof(fc.constantFrom('bug', 'P1', 'priority: low', 'security', 'refactor'), fc.string({ maxLength: 8 })), { maxLength: 3 })

describe('planners on any markdown', () => {
  it('the built-in planner always gives a plan that reads, deterministically, without throwing', () => {
    fc.assert(
      fc.property(markdown, fc.string({ maxLength: 40 }), labels, (body, title, labelList) => {
        const output = builtinPlan(issueOf(body, title, labelList))
        const analysis = analysePlannerOutput(output)
        // The plans it declines: a task list whose items are all ticked (nothing left to do), and an issue with no words of its own.
        if (output.error?.code !== 'nothing_to_plan' && output.error?.code !== 'too_vague') expect(analysis.solution, JSON.stringify(analysis.errors)).toBeDefined()
        expect(output.notes.length).toBeGreaterThan(0)
        expect(JSON.stringify(builtinPlan(issueOf(body, title, labelList)))).toBe(JSON.stringify(output))
      }),
      { numRuns: 400 },
    )
  })

  it('every mode gives an output whose plan validates or yields errors, never an exception', () => {
    fc.assert(
      fc.property(fc.constantFrom('auto', 'explicit', 'builtin'), markdown, fc.option(markdown, { nil: undefined }), (mode, body, comment) => {
        const output = choosePlanner(mode, issueOf(body, 'Title', []), comment)
        const analysis = analysePlannerOutput(output)
        expect(analysis.solution !== undefined || analysis.errors.length > 0).toBe(true)
        if (output.error) expect(output.raw).toBeUndefined()
      }),
      { numRuns: 400 },
    )
  })
})
