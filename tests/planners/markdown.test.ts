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
