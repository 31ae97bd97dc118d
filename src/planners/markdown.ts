import { Lexer, type MarkedToken, type Token, type Tokens } from 'marked'
import { headingRole } from './sections.js'

/**
 * The structure of an issue's markdown that the planners read, built from marked's tokens:
 * sections (by heading), and in them paragraphs, lists (with task checkboxes and nesting) and
 * fenced code blocks. HTML, tables and rules are left out.
 */

/** A code span inside inline text, with the plain text that precedes it (to read the word before a path). */
export interface CodeSpan {
  code: string
  before: string
}

export interface InlineText {
  /** The text with code spans kept in backticks. */
  text: string
  /** The text with code spans unquoted. */
  plain: string
  codeSpans: CodeSpan[]
}

export interface CodeBlock {
  /** First word of the info string, lower-cased (`sh` for ```` ```sh title="x" ````); empty when absent. */
  lang: string
  text: string
}

export interface ListItem {
  /** The item's first line or paragraph. */
  head: InlineText
  /** Further paragraphs of the item. */
  more: InlineText[]
  /** `true`/`false` for a task-list item (`- [x]` / `- [ ]`), `undefined` for a plain item. */
  checked: boolean | undefined
  /** Items of the lists nested in this one. */
  children: ListItem[]
  code: CodeBlock[]
}

export type Block =
  | ({ kind: 'paragraph' } & InlineText)
  | { kind: 'list'; ordered: boolean; items: ListItem[] }
  | ({ kind: 'code' } & CodeBlock)

export interface Section {
  /** Enclosing headings, outermost first; empty for the text before the first heading. */
  headings: string[]
  blocks: Block[]
}

/**
 * A short paragraph that stands on its own line and is fully bold (`**Acceptance criteria**`) or
 * ends with a colon (`Tasks:`) is read as a heading below every real heading: issues often use one.
 */
const PSEUDO_HEADING_DEPTH = 7
const PSEUDO_HEADING_MAX_LENGTH = 80

export function readMarkdown(markdown: string): Section[] {
  const sections: Section[] = [{ headings: [], blocks: [] }]
  const trail: Array<{ depth: number; text: string }> = []
  const open = (depth: number, text: string) => {
    while (trail.length && trail[trail.length - 1]!.depth >= depth) trail.pop()
    trail.push({ depth, text })
    sections.push({ headings: trail.map((h) => h.text), blocks: [] })
  }
  const visit = (tokens: Token[]) => {
    ;(tokens as MarkedToken[]).forEach((token, at) => {
      const section = sections[sections.length - 1]!
      switch (token.type) {
        case 'heading':
          open(token.depth, inlineText(token.tokens).plain.trim())
          break
        case 'paragraph': {
          const label = pseudoHeading(token) ?? labelOverList(token, tokens[at + 1])
          const led = label ? undefined : (boldLead(token) ?? labelLead(token))
          if (label) open(PSEUDO_HEADING_DEPTH, label)
          else if (led) {
            open(PSEUDO_HEADING_DEPTH, led.label)
            sections[sections.length - 1]!.blocks.push({ kind: 'paragraph', ...inlineText(led.rest) })
          } else section.blocks.push({ kind: 'paragraph', ...inlineText(token.tokens) })
          break
        }
        case 'list':
          // A template's prompts as list items, each answered under it: each prompt is a heading over its answer.
          if (isPromptList(token))
            for (const item of token.items) {
              open(PSEUDO_HEADING_DEPTH, inlineText((item.tokens[0] as Tokens.Text | Tokens.Paragraph).tokens ?? [item.tokens[0]!]).plain.trim())
              visit(item.tokens.slice(1))
            }
          else section.blocks.push({ kind: 'list', ordered: token.ordered, items: token.items.map(listItem) })
          break
        case 'code':
          // GitHub's tasklist block (```[tasklist]) renders its markdown as a task list.
          if (codeBlock(token).lang === '[tasklist]') visit(lexMarkdown(token.text))
          else section.blocks.push({ kind: 'code', ...codeBlock(token) })
          break
        case 'blockquote':
          visit(token.tokens)
          break
        case 'table':
          section.blocks.push(...tableRows(token.header.map((c) => c.text), token.rows.map((r) => r.map((c) => c.text))))
          break
      }
    })
  }
  visit(lexMarkdown(normaliseLines(htmlTables(htmlPre(markdown)))))
  return sections
}

/**
 * Lines written in other conventions than markdown's, outside fenced code, as the markdown they mean: wiki-style
 * headings (`== Steps ==`, as Redmine and MediaWiki write them), HTML headings, breaks, paragraphs and divisions (issues
 * pasted from a web form or a mail, their `<span>`/`<font>` styling and `&nbsp;` dropped), CJK enumerations (`1、`, `1，`, `（1）`, `①`) and bullets (`・`, `•`), and `□`/`☐` boxes to tick.
 */
function normaliseLines(markdown: string): string {
  if (!UNUSUAL.test(markdown)) return markdown
  let fence: string | undefined
  return markdown
    .split('\n')
    .flatMap((line) => {
      const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1]
      if (marker && (fence === undefined || marker.startsWith(fence))) fence = fence === undefined ? marker : undefined
      if (fence !== undefined) return [line]
      return asMarkdown(line).split('\n')
    })
    .join('\n')
}

const UNUSUAL = /==|&nbsp;|^\s*\*\*[^*\n]{2,40}\*\*\s*[:：]|^\s*\*\*[^*\n]{2,40}[:：]\*\*|<(?:h[1-6]|br|p|div|span|font|u|li|summary|details|b|strong|i|em|code|a)\b|^\s*(?:\[[^\]\n]{3,60}\]|【)|^\s*(?:\d+(?:[、．]|，(?!\d))|[（(]\d+[)）]|[①-⑳]|[・•●◦▪□☐☑☒])/im
const CIRCLED = '①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳'

function asMarkdown(line: string): string {
  const wiki = /^(={2,6})[ \t]*([^=\n][^\n]*?)[ \t]*\1[ \t]*$/.exec(line)
  if (wiki) return `${'#'.repeat(wiki[1]!.length)} ${wiki[2]}`
  // A label in brackets that names a role (`[Expected result]: …`, `【期望结果】…`, as QA and tracker forms write them).
  const bracketed = /^\s*(?:\[([^\]\n]{3,60})\]|【([^】\n]{2,30})】)[ \t]*[:：]?[ \t]*(.*)$/.exec(line)
  const label = bracketed && (bracketed[1] ?? bracketed[2])!.trim()
  if (bracketed && label && !/\]\s*\(/.test(line) && headingRole(label)) return `###### ${label}\n${bracketed[3] ? `\n${bracketed[3]}` : ''}`
  // A bold role label opens a paragraph of its own (`**Expected:** …` then `**Actual:** …` on the next line).
  const bold = /^\s*\*\*([^*\n]{2,40}?)(?:[:：]\*\*|\*\*\s*[:：])/.exec(line)
  if (bold && headingRole(bold[1]!)) return `\n${line}`
  // HTML outside code spans (`<p>` in a code span is the text it shows).
  let out = outsideCode(line, (text) => text
    .replace(/<h([1-6])\b[^>]*>(.*?)<\/h\1\s*>/gi, (_, depth: string, text: string) => `\n${'#'.repeat(Number(depth))} ${text.trim()}\n`)
    // A collapsible's summary names what it holds ("<summary>Expected output</summary>"): a heading below the others.
    .replace(/<summary\b[^>]*>(.*?)<\/summary\s*>/gi, (_, text: string) => `\n###### ${text.replace(/<[^>]+>/g, '').trim()}\n`)
    .replace(/<\/?details\b[^>]*>/gi, '\n')
    .replace(/<br\s*\/?>\s*$/i, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/?(?:p|div)\b[^>]*>/gi, '\n')
    .replace(/<\/?(?:span|font|u)\b[^>]*>/gi, '')
    .replace(/&nbsp;/gi, ' ')
    .replace(/<\/?(?:ul|ol)\s*>/gi, '\n')
    .replace(/<li\b[^>]*>(.*?)(?:<\/li>|$)/gi, (_, text: string) => `\n- ${text.trim()}\n`)
    // Inline HTML as the markdown it means: a bold label can be a heading, a code span names a file.
    .replace(/<(?:b|strong)\b[^>]*>(.*?)<\/(?:b|strong)\s*>/gi, (_, text: string) => (text.trim() ? `**${text.trim()}**` : ''))
    .replace(/<(?:i|em)\b[^>]*>(.*?)<\/(?:i|em)\s*>/gi, (_, text: string) => (text.trim() ? `_${text.trim()}_` : ''))
    .replace(/<code\b[^>]*>(.*?)<\/code\s*>/gi, (_, text: string) => `\`${text}\``)
    .replace(/<a\b[^>]*>(.*?)<\/a\s*>/gi, '$1'))
  out = out
    .split('\n')
    .map((part) =>
      part
        .replace(/^(\s*)(\d+)(?:[、．]|，(?!\d))\s*/, '$1$2. ')
        .replace(/^(\s*)[（(](\d+)[)）]\s*/, '$1$2. ')
        .replace(/^(\s*)([①-⑳])\s*/, (_, indent: string, circled: string) => `${indent}${CIRCLED.indexOf(circled) + 1}. `)
        .replace(/^(\s*)[・•●◦▪]\s*/, '$1- ')
        .replace(/^(\s*)[□☐]\s*/, '$1- [ ] ')
        .replace(/^(\s*)[☑☒]\s*/, '$1- [x] '),
    )
    .join('\n')
  return out
}

const outsideCode = (line: string, change: (text: string) => string) => line.split(/(`[^`\n]*`)/).map((part, at) => (at % 2 ? part : change(part))).join('')

/** An HTML `<pre>` block (outside fenced code) as the fenced code it shows: a log or a trace pasted from a web form. */
function htmlPre(markdown: string): string {
  if (!/<pre\b/i.test(markdown)) return markdown
  return markdown
    .split(/(^\s{0,3}(?:`{3,}|~{3,})[^\n]*\n[\s\S]*?^\s{0,3}(?:`{3,}|~{3,})\s*$)/m)
    .map((part, i) => (i % 2 ? part : part.replace(/<pre\b[^>]*>(?:\s*<code\b[^>]*>)?\n?([\s\S]*?)(?:<\/code>\s*)?<\/pre\s*>/gi, (_, text: string) => `\n\n\`\`\`\n${text.replace(/\n$/, '')}\n\`\`\`\n\n`)))
    .join('')
}

/**
 * HTML tables (outside fenced code) as the pipe tables they mean, so that marked reads their rows: an issue pasted
 * from a web form or a tracker often gives its actual and expected values in one.
 */
function htmlTables(markdown: string): string {
  if (!/<table\b/i.test(markdown)) return markdown
  return markdown
    .split(/(^\s{0,3}(?:`{3,}|~{3,})[^\n]*\n[\s\S]*?^\s{0,3}(?:`{3,}|~{3,})\s*$)/m)
    .map((part, i) => (i % 2 ? part : part.replace(/<table\b[^>]*>([\s\S]*?)<\/table\s*>/gi, (_, inner: string) => pipeTable(inner))))
    .join('')
}

function pipeTable(inner: string): string {
  const rows = [...inner.matchAll(/<tr\b[^>]*>([\s\S]*?)(?:<\/tr\s*>|(?=<tr\b)|$)/gi)].map((r) =>
    [...r[1]!.matchAll(/<t[hd]\b[^>]*>([\s\S]*?)(?:<\/t[hd]\s*>|(?=<t[hd]\b)|$)/gi)].map((c) => squashCell(c[1]!)),
  )
  const [header, ...body] = rows.filter((r) => r.length)
  if (!header) return '\n'
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`
  return `\n\n${[line(header), line(header.map(() => '---')), ...body.map(line)].join('\n')}\n\n`
}

const squashCell = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim()

/**
 * A table's rows, each a paragraph of "column: value" pairs. A column headed with an expected result ("Expected",
 * "Erwartet", "期望") leads its row, so that each row reads as the "Expected: …" line it states.
 */
function tableRows(header: readonly string[], rows: readonly string[][]): Block[] {
  const expected = header.findIndex((h) => headingRole(h) === 'expected')
  return rows.map((cells) => {
    const pairs = cells.map((c, i) => `${header[i] ?? ''}: ${c}`.trim()).filter((_, i) => i !== expected)
    const text = expected >= 0 && cells[expected] ? `Expected: ${cells[expected]} (${pairs.join('; ')})` : pairs.join('; ')
    return { kind: 'paragraph', ...inlineText(Lexer.lexInline(text)) }
  })
}

export function codeBlock(token: Tokens.Code): CodeBlock {
  return { lang: (token.lang ?? '').trim().split(/\s+/)[0]!.toLowerCase(), text: token.text }
}

function pseudoHeading(token: Tokens.Paragraph): string | undefined {
  const text = inlineText(token.tokens)
  const line = text.plain.trim()
  if (!line || line.includes('\n') || line.length > PSEUDO_HEADING_MAX_LENGTH || text.codeSpans.length) return undefined
  const onlyEmphasis = token.tokens.length === 1 && (token.tokens[0]!.type === 'strong' || token.tokens[0]!.type === 'em')
  // An italic sentence or question under a heading is the template's hint ("*What can be verified …?*"), not a heading.
  const hint = token.tokens[0]?.type === 'em' && /[.?!。？]$/.test(line)
  if ((!onlyEmphasis || hint) && !/[:：]$/.test(line)) return undefined
  return line.replace(/[:：]$/, '').trim()
}

/**
 * A paragraph whose first line is a bold label and nothing else (`**Expected behavior**` then the text on
 * the next line, as bug templates are often filled in): the label is a heading over the rest.
 */
function boldLead(token: Tokens.Paragraph): { label: string; rest: Token[] } | undefined {
  const [first, second, ...others] = token.tokens
  if (first?.type === 'strong' && second?.type === 'text' && !/^[ \t]*\n/.test(second.raw)) return inlineLabel(first, second as Tokens.Text, others)
  if (first?.type !== 'strong' || !second || second.type !== 'text' || !/^[ \t]*\n/.test(second.raw)) return undefined
  const label = inlineText([first]).plain.trim().replace(/[:：]$/, '').trim()
  if (!label || label.length > PSEUDO_HEADING_MAX_LENGTH) return undefined
  const text = second.raw.replace(/^[ \t]*\n/, '')
  return { label, rest: [...(text ? [{ type: 'text', raw: text, text } as Token] : []), ...others] }
}

/** A field that states a level ("**Risk:** high"): read line by line as a statement, never a heading. */
const LEVEL_FIELD = /^(?:risks?|impact|complexity|priority|severity|风险|影响|复杂度|优先级)$/i

/**
 * A bold label that names a role, with its text on the same line (`**Expected:** the total is 7.25`, `<b>Actual:</b> …`
 * from an HTML body): the label is a heading over the text. A bold word that names no role ("**Note:** …") stays text.
 */

function inlineLabel(first: Token, second: Tokens.Text, others: Token[]): { label: string; rest: Token[] } | undefined {
  const bold = inlineText([first]).plain.trim()
  const colon = /[:：]$/.test(bold) || /^[ \t]*[:：]/.test(second.raw)
  const label = bold.replace(/[:：]$/, '').trim()
  if (!colon || !label || label.length > PSEUDO_HEADING_MAX_LENGTH || !headingRole(label) || LEVEL_FIELD.test(label)) return undefined
  const text = second.raw.replace(/^[ \t]*[:：]?[ \t]*/, '')
  return { label, rest: [...(text ? [{ type: 'text', raw: text, text } as Token] : []), ...others] }
}

/** A line this short that ends with a colon is a label ("Expected result:"), not the start of a sentence. */
const LABEL_LINE = /^[^`\n]{1,40}[:：][ \t]*$/

/**
 * A paragraph whose first line is a short label ending with a colon (`Expected result:` then the text on the next
 * line, as plain-text templates are filled in): the label is a heading over the rest.
 */
function labelLead(token: Tokens.Paragraph): { label: string; rest: Token[] } | undefined {
  const cut = token.raw.indexOf('\n')
  const first = cut < 0 ? '' : token.raw.slice(0, cut)
  const text = cut < 0 ? '' : token.raw.slice(cut + 1).trim()
  if (!LABEL_LINE.test(first) || !text) return undefined
  const label = first.replace(/[*_]/g, '').replace(/[:：][ \t]*$/, '').trim()
  return label ? { label, rest: Lexer.lexInline(text) } : undefined
}

/** A one-line paragraph of a few words that names a role ("Tasks", "Acceptance criteria") right above a list: its heading. */
function labelOverList(token: Tokens.Paragraph, next: Token | undefined): string | undefined {
  const line = inlineText(token.tokens).plain.trim()
  if (next?.type !== 'list' || line.includes('\n') || line.split(/\s+/).length > 3 || /[.!?。]$/.test(line)) return undefined
  return headingRole(line) ? line : undefined
}

/**
 * A list of a template's prompts, each answered under it ("- What steps will reproduce the problem?" over the steps,
 * "- What is the expected output?" over the answer): every item's first line is a question or names a role (steps,
 * expected, version), at least two name one, and the items hold their answers.
 */
function isPromptList(list: Tokens.List): boolean {
  const heads = list.items.map((i) => (i.tokens[0]?.type === 'text' || i.tokens[0]?.type === 'paragraph' ? i.tokens[0].text.split('\n')[0]!.trim() : ''))
  const question = (h: string) => /[?？]\s*(?:[（(][^)）]*[)）])?$/.test(h)
  return (
    list.items.length >= 2 &&
    heads.every((h) => h && (question(h) || headingRole(h) !== undefined)) &&
    heads.filter(question).length >= 2 &&
    heads.filter((h) => headingRole(h) !== undefined).length >= 2 &&
    list.items.every((i, at) => i.tokens.some((t, k) => k > 0 && t.type !== 'space') && !list.items[at]!.tokens[0]!.raw.trim().includes('\n'))
  )
}

function listItem(item: Tokens.ListItem): ListItem {
  const texts: InlineText[] = []
  const children: ListItem[] = []
  const code: CodeBlock[] = []
  for (const token of item.tokens as MarkedToken[]) {
    switch (token.type) {
      case 'text':
        texts.push(inlineText(token.tokens ?? [token]))
        break
      case 'paragraph':
        texts.push(inlineText(token.tokens))
        break
      case 'list':
        children.push(...token.items.map(listItem))
        break
      case 'code':
        code.push(codeBlock(token))
        break
    }
  }
  const [head = { text: '', plain: '', codeSpans: [] }, ...more] = texts
  return { head, more, checked: item.task ? Boolean(item.checked) : undefined, children, code }
}

/** Flattens inline tokens to text; emphasis and links keep their words, HTML and images are dropped. */
export function inlineText(tokens: readonly Token[]): InlineText {
  const out: InlineText = { text: '', plain: '', codeSpans: [] }
  const walk = (list: readonly Token[]) => {
    for (const token of list as MarkedToken[]) {
      switch (token.type) {
        case 'codespan':
          out.codeSpans.push({ code: decodeEntities(token.text), before: out.plain })
          out.text += `\`${decodeEntities(token.text)}\``
          out.plain += decodeEntities(token.text)
          break
        case 'text':
          if (token.tokens) walk(token.tokens)
          else append(token.text)
          break
        case 'escape':
          append(token.text)
          break
        case 'br':
          append('\n')
          break
        case 'strong': case 'em': case 'del': case 'link':
          walk(token.tokens)
          break
      }
    }
  }
  const append = (s: string) => {
    const decoded = decodeEntities(s)
    out.text += decoded
    out.plain += decoded
  }
  walk(tokens)
  return out
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" }

function decodeEntities(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name]!)
}

/** Markdown nested deeper than the lexer can follow (thousands of `>` or list levels): no plan can come of it. */
export class MarkdownTooDeepError extends Error {
  constructor() {
    super('The text nests quotes or lists too deeply to be read (thousands of levels)')
    this.name = 'MarkdownTooDeepError'
  }
}

/** marked's lexer, which recurses once a nesting level: a stack overflow becomes {@link MarkdownTooDeepError}. */
export function lexMarkdown(markdown: string): Token[] {
  try {
    return Lexer.lex(markdown)
  } catch (error) {
    if (error instanceof RangeError) throw new MarkdownTooDeepError()
    throw error
  }
}
