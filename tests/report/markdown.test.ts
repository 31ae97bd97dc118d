import { describe, expect, it } from 'vitest'
import { renderExecutionMarkdown } from '../../src/report/execution-md.js'
import { renderIssueComment } from '../../src/report/issue-comment.js'
import { cell, code, codeBlock, codeCell, htmlText, inline, truncate } from '../../src/report/markdown.js'
import type { RunReport } from '../../src/report/run-report.js'
import * as fx from './fixtures.js'
import { countTags, toHtml } from './html.js'

describe('the rendered markdown, through a GFM renderer', () => {
  it.each<[string, () => RunReport]>([
    ['a fresh plan', fx.freshPlan],
    ['an invalid plan', fx.invalidPlan],
    ['a run in progress', fx.inProgress],
    ['a run with failures', fx.withFailures],
    ['a converged run', fx.converged],
    ['a 300-task plan', () => fx.largePlan(300)],
  ])('%s: every table and <details> written becomes one element', (_, make) => {
    const markdown = renderIssueComment(make())
    const tables = (markdown.match(/^\| (?:--- \| )*--- \|$/gm) ?? []).length
    const sections = (markdown.match(/^<details/gm) ?? []).length
    const html = toHtml(markdown)
    expect(tables).toBeGreaterThan(0)
    expect(countTags(html, 'table')).toEqual({ open: tables, close: tables })
    expect(countTags(html, 'details')).toEqual({ open: sections, close: sections })
    expect(countTags(html, 'pre').open).toBe((markdown.match(/^```+\w+$/gm) ?? []).length)
  })

  it('keeps the task table one row per task whatever the titles hold', () => {
    const report = fx.freshPlan()
    report.solution!.tasks[0]!.title = 'Handle a | b and `x | y` and <td> and\nnewlines\r\nand \\| escapes'
    const html = toHtml(renderIssueComment(report))
    const taskTable = html.slice(html.indexOf('<table>'), html.indexOf('</table>'))
    expect((taskTable.match(/<tr>/g) ?? []).length).toBe(1 + report.solution!.tasks.length)
    expect((taskTable.match(/<td[\s>]/g) ?? []).length).toBe(6 * report.solution!.tasks.length)
  })

  it('renders execution.md with its overview, results and details', () => {
    const html = toHtml(renderExecutionMarkdown(fx.withFailures()))
    expect(countTags(html, 'table').open).toBeGreaterThanOrEqual(2)
    const { open, close } = countTags(html, 'details')
    expect(open).toBe(close)
  })
})

describe('markdown helpers', () => {
  it('cell: one line, pipes escaped, HTML and mentions defused', () => {
    expect(cell('a | b\n<i>@bob</i>')).toBe('a \\| b &lt;i&gt;@\u200bbob&lt;/i&gt;')
  })

  it('inline: \\r is a line break too', () => {
    expect(inline('one\rtwo\r\nthree')).toBe('one two three')
  })

  it('inline: cannot open a block where it starts a line', () => {
    expect(inline('```json')).toBe('\\```json')
    expect(inline('  # Title')).toBe('\\# Title')
    expect(inline('> quoted')).toBe('&gt; quoted')
    expect(inline('- item')).toBe('\\- item')
    expect(inline('12. item')).toBe('12\\. item')
    expect(inline('---')).toBe('\\---')
    expect(inline('Plain text - with a dash')).toBe('Plain text - with a dash')
    expect(inline('`code` first, *emphasis*, 2024 figures')).toBe('`code` first, *emphasis*, 2024 figures')
  })

  it('entities are shown as typed, so &#64;name cannot become a mention', () => {
    expect(inline('&#64;octocat &lt;b&gt;')).toBe('&amp;#64;octocat &amp;lt;b&amp;gt;')
  })

  it('htmlText: entities for a <summary>', () => {
    expect(htmlText('"a" & <b> @x')).toBe('&quot;a&quot; &amp; &lt;b&gt; @\u200bx')
  })

  it('code and codeCell survive backticks and pipes', () => {
    expect(code('a `b` c')).toBe('`` a `b` c ``')
    expect(codeCell('grep "a|b"')).toBe('`grep "a\\|b"`')
  })

  it('codeBlock: a fence longer than any backtick run inside', () => {
    expect(codeBlock('x\n````\ny')).toBe('`````text\nx\n````\ny\n`````')
    expect(codeBlock('plain')).toBe('```text\nplain\n```')
  })

  it('truncate: never splits a surrogate pair', () => {
    expect(truncate('ab🚀cd', 4)).toBe('ab…')
    expect(truncate('abc', 3)).toBe('abc')
    expect(truncate('abcdef', 4)).toBe('abc…')
  })
})
