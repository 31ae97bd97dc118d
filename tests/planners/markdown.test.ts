import { describe, expect, it } from 'vitest'
import { readMarkdown, type Block } from '../../src/planners/markdown.js'
import { headingRole, sectionRole } from '../../src/planners/sections.js'

const blocksOf = (markdown: string): Block[] => readMarkdown(markdown).flatMap((s) => s.blocks)

describe('readMarkdown', () => {
  it('splits the document into sections with their enclosing headings', () => {
    const sections = readMarkdown('intro\n\n# A\n\ntext a\n\n## B\n\ntext b\n\n# C\n\ntext c\n')
    expect(sections.map((s) => s.headings)).toEqual([[], ['A'], ['A', 'B'], ['C']])
    expect(sections.map((s) => s.blocks.map((b) => (b.kind === 'paragraph' ? b.text : '')))).toEqual([['intro'], ['text a'], ['text b'], ['text c']])
  })

  it('reads a bold line or a line ending with a colon as a heading below the real ones', () => {
    const sections = readMarkdown('## Notes\n\n**Acceptance criteria**\n\n- a\n\nTasks:\n\n- [ ] b\n')
    expect(sections.map((s) => s.headings)).toEqual([[], ['Notes'], ['Notes', 'Acceptance criteria'], ['Notes', 'Tasks']])
  })

  it('keeps an ordinary paragraph that ends with a colon but holds code as a paragraph', () => {
    expect(blocksOf('Run `npm test`:\n')[0]).toMatchObject({ kind: 'paragraph', plain: 'Run npm test:' })
  })

  it('reads task-list items, their checkboxes and nesting', () => {
    const [list] = blocksOf('- [ ] one\n  - step `src/a.ts`\n  - [x] sub\n- [x] two\n- plain\n')
    expect(list).toMatchObject({ kind: 'list', ordered: false })
    if (list?.kind !== 'list') throw new Error('expected a list')
    expect(list.items.map((i) => [i.head.text, i.checked])).toEqual([['one', false], ['two', true], ['plain', undefined]])
    expect(list.items[0]!.children.map((c) => [c.head.text, c.checked])).toEqual([['step `src/a.ts`', undefined], ['sub', true]])
    expect(list.items[0]!.children[0]!.head.codeSpans).toEqual([{ code: 'src/a.ts', before: 'step ' }])
  })

  it('reads loose items, their further paragraphs and code blocks', () => {
    const [list] = blocksOf('1. [ ] first\n\n   more words\n\n   ```sh\n   npm test\n   ```\n\n2. [x] second\n')
    if (list?.kind !== 'list') throw new Error('expected a list')
    expect(list.ordered).toBe(true)
    expect(list.items[0]).toMatchObject({ head: { text: 'first' }, checked: false, more: [{ text: 'more words' }], code: [{ lang: 'sh', text: 'npm test' }] })
  })

  it('reads fenced code with its language (first word, lower case) and ~~~ fences', () => {
    expect(blocksOf('```Bash title="x"\nls\n```\n\n~~~console\n$ ls\n~~~\n')).toEqual([
      { kind: 'code', lang: 'bash', text: 'ls' },
      { kind: 'code', lang: 'console', text: '$ ls' },
    ])
  })

  it('flattens inline markup: emphasis and links keep their words, HTML is dropped, entities are decoded', () => {
    expect(blocksOf('**Bold** _em_ [link](http://x) <b>x</b> a &amp; b `a<b`\n')[0]).toMatchObject({
      text: 'Bold em link x a & b `a<b`',
      plain: 'Bold em link x a & b a<b',
    })
  })

  it('reads a <details> collapsible\'s <summary> as a heading over its content (issue 38, form of theislab/scvelo#510)', () => {
    const sections = readMarkdown('## Description\n\nThe export is short.\n\n<details>\n<summary>Expected behavior</summary>\n\nThe export lists every entry.\n\n</details>\n')
    const last = sections[sections.length - 1]!
    expect(last.headings).toEqual(['Description', 'Expected behavior'])
    expect(sectionRole(last)).toBe('expected')
    expect(last.blocks).toMatchObject([{ kind: 'paragraph', plain: 'The export lists every entry.' }])
  })

  it('reads an HTML or pipe table one row a paragraph, an Expected column leading its row', () => {
    const html = '<table>\n<tr><th>Entry</th><th>Actual</th><th>Expected</th></tr>\n<tr><td>total</td><td>6</td><td>7.25</td></tr>\n</table>\n'
    const pipe = '| Entry | Actual | Expected |\n| --- | --- | --- |\n| total | 6 | 7.25 |\n'
    for (const table of [html, pipe]) expect(blocksOf(table)).toMatchObject([{ kind: 'paragraph', plain: 'Expected: 7.25 (Entry: total; Actual: 6)' }])
  })

  it('reads the content of block quotes as if it were not quoted', () => {
    expect(blocksOf('> - [ ] quoted task\n')[0]).toMatchObject({ kind: 'list', items: [{ checked: false }] })
  })
})

describe('section roles', () => {
  it.each([
    ['Tasks', 'tasks'], ['Implementation plan', 'tasks'], ['Steps', 'tasks'], ['任务', 'tasks'],
    ['Acceptance criteria', 'criteria'], ['Success criteria', 'criteria'], ['验收标准', 'criteria'],
    ['Definition of done', 'done'], ['完成标准', 'done'],
    ['Verification', 'verification'], ['How to test', 'verification'], ['Test plan', 'verification'], ['Tests', 'verification'], ['验证', 'verification'],
    ['Steps to reproduce', 'context'], ['Expected behaviour', 'expected'], ['复现步骤', 'context'],
    ['Out of scope', 'constraints'], ['Constraints', 'constraints'],
    ['Background', undefined],
  ])('%s → %s', (heading, role) => {
    expect(headingRole(heading)).toBe(role)
  })

  it('inherits the role of the nearest heading that has one', () => {
    const [, , backend] = readMarkdown('# Tasks\n\n## Backend\n\n- [ ] x\n')
    expect(sectionRole(backend!)).toBe('tasks')
  })
})

// Issue 38, third pass: structure written in other conventions, read as the markdown it means.
describe('readMarkdown: labels and HTML as the markdown they mean', () => {
  const headings = (markdown: string) => readMarkdown(markdown).map((s) => s.headings.join(' > '))

  it('inline HTML: a bold label is a heading, <code> is a code span, <pre> is a code block, a link keeps its text', () => {
    const sections = readMarkdown('<p><b>Steps to reproduce:</b></p>\n<ol><li>Sort by amount</li></ol>\n<p>The sort is in <code>src/sort.ts</code>, see <a href="https://x.invalid">the log</a>.</p>\n<pre>\nsortInvoices(list)\n</pre>\n')
    expect(sections.map((s) => s.headings)).toEqual([[], ['Steps to reproduce']])
    const blocks = sections[1]!.blocks
    expect(blocks.find((b) => b.kind === 'paragraph')).toMatchObject({ plain: 'The sort is in src/sort.ts, see the log.', codeSpans: [{ code: 'src/sort.ts' }] })
    expect(blocks.find((b) => b.kind === 'code')).toMatchObject({ text: 'sortInvoices(list)' })
  })

  it('a bold label that names a role, with its text on the same line, is a heading over the text; "**Note:**" stays text', () => {
    expect(headings('**Expected:** the total is 7.25\n\n**Note:** nothing else\n')).toEqual(['', 'Expected'])
    expect(readMarkdown('**Expected:** the total is 7.25\n')[1]!.blocks).toMatchObject([{ kind: 'paragraph', plain: 'the total is 7.25' }])
  })

  it('bracketed labels that name a role are headings (`[Expected result]: …`, `【期望结果】…`); a link is not', () => {
    expect(headings('[Expected result]: the week starts on Sunday\n\n【实际结果】从周一开始\n\n[the docs](https://x.invalid) say so\n')).toEqual(['', 'Expected result', '实际结果'])
  })

  it('a list of template prompts, each answered under it, is read as headed sections', () => {
    const sections = readMarkdown('- What steps will reproduce the problem?\n  1. Open the board\n\n- What is the expected output? What do you see instead?\n\n  Only last month.\n')
    expect(sections.map((s) => s.headings)).toEqual([[], ['What steps will reproduce the problem?'], ['What is the expected output? What do you see instead?']])
    expect(sectionRole(sections[2]!)).toBe('expected')
  })
})
