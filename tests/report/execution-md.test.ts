import { describe, expect, it } from 'vitest'
import { renderExecutionMarkdown } from '../../src/report/execution-md.js'
import { renderTaskEvent } from '../../src/report/task-event.js'
import * as fx from './fixtures.js'

describe('execution.md (task-generation-execution-spec.md, Steps 4 and 6)', () => {
  it('has the seed sections, in order', () => {
    const md = renderExecutionMarkdown(fx.withFailures())
    const headings = md.split('\n').filter((l) => /^#{1,3} /.test(l))
    expect(headings).toEqual([
      '# Execution Overview', '## Session Info', '## Task Overview', '## Pre-Execution Analysis', '### Execution Order',
      '## Execution Timeline', '## Execution Summary', '### Task Results', '## Task Details', '## Task Graph',
    ])
    expect(md).toContain('| # | ID | Title | Type | Priority | Status |')
    expect(md).toContain('| 3 | T3 | Create test/truncate.test.js and extend test/slugify.test.js with accented titles | testing | medium | failed |')
    expect(md).toContain('- **Total Tasks**: 5')
    expect(md).toContain('No file conflicts detected.')
    expect(md).toContain('- **Completed**: 3/5 · **Failed**: 1 · **Skipped**: 0 · **Not run**: 1')
  })

  it('lists file conflicts as the seed does', () => {
    const report = fx.freshPlan()
    report.solution!.tasks[3]!.files.push({ path: 'src/truncate.js', action: 'modify', target: null, changes: ['Add a JSDoc example'] })
    expect(renderExecutionMarkdown(report)).toContain('### File Conflicts\n\n- **src/truncate.js**: T2, T4')
  })

  it('keeps output tails whole: it is where the comment sends readers', () => {
    const md = renderExecutionMarkdown(fx.withFailures())
    expect(md).toContain('· 30 lines</summary>')
    expect(md).toContain('at Test.run (node:internal/test_runner/test:639:25)')
  })

  it('masks secrets', () => {
    const md = renderExecutionMarkdown(fx.withSecrets())
    expect(md).not.toContain(fx.DEPLOY_KEY)
    expect(md).not.toContain(fx.PRINTED_TOKEN)
  })

  it.each([
    ['failures', fx.withFailures],
    ['converged', fx.converged],
  ])('snapshot: %s', async (name, make) => {
    await expect(renderExecutionMarkdown(make())).toMatchFileSnapshot(`__snapshots__/execution-${name}.md`)
  })
})

describe('events.md entries (the seed\'s execution-events.md format)', () => {
  const report = fx.withFailures()
  const [t1, , t3, t4] = report.solution!.tasks
  const results = report.execution!.tasks

  it('a START event says IN PROGRESS and the files', () => {
    expect(renderTaskEvent(t3!, undefined, '2025-06-01T09:04:05Z')).toBe(
      [
        '## 2025-06-01T09:04:05Z — T3: Create test/truncate.test.js and extend test/slugify.test.js with accented titles',
        '',
        '**Type**: testing | **Priority**: medium',
        '',
        '**Status**: IN PROGRESS',
        '',
        '**Files**: `test/truncate.test.js`, `test/slugify.test.js`',
        '',
        '---',
        '',
        '',
      ].join('\n'),
    )
  })

  it('a finished event has the log, the status, the files modified and the convergence verification', () => {
    const completed = renderTaskEvent(t4!, results.T4, '2025-06-01T09:04:28Z')
    expect(completed).toContain('**Status**: COMPLETED')
    expect(completed).toContain('**Files Modified**: `README.md`')
    expect(completed).toContain('#### Convergence Verification\n\n- [x] the README shows one call and its result for `slugify` and for `truncate`')
    expect(completed).toContain('- **Verification**: `grep -q "truncate(" README.md` → PASS')
    const failed = renderTaskEvent(t3!, results.T3, '2025-06-01T09:06:17Z')
    expect(failed).toContain('**Status**: FAILED')
    expect(failed).toContain('- [ ] the tests cover an accented title')
    expect(failed).toContain('- **Verification**: `node --test` → FAIL')
  })

  it('masks secrets and token shapes', () => {
    const leaky = { ...results.T1!, error: `push failed: Bearer ${fx.PRINTED_TOKEN} rejected, key ${fx.DEPLOY_KEY}` }
    const event = renderTaskEvent({ ...t1!, title: `Rotate ${fx.DEPLOY_KEY}` }, leaky, '2025-06-01T09:03:50Z', [fx.DEPLOY_KEY])
    expect(event).not.toContain(fx.DEPLOY_KEY)
    expect(event).not.toContain(fx.PRINTED_TOKEN)
    expect(event).toContain('Bearer *** rejected, key ***')
  })

  it('snapshot', async () => {
    const events = [
      renderTaskEvent(t3!, undefined, '2025-06-01T09:04:05Z'),
      renderTaskEvent(t4!, results.T4, '2025-06-01T09:04:28Z'),
      renderTaskEvent(t3!, results.T3, '2025-06-01T09:06:17Z'),
    ]
    await expect(`# Execution Events\n\n${events.join('')}`).toMatchFileSnapshot('__snapshots__/events.md')
  })
})
