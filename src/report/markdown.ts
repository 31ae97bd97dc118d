/** Small markdown helpers; every piece of user text that goes into a report passes through them. */

/** CommonMark ends a line at `\n`, `\r` or `\r\n`: user text must not contain any of them where one line is expected. */
const LINE_BREAKS = /\s*[\r\n]+\s*/g
const MENTION = /@(?=[\w-])/g

/**
 * User text inside a table cell: one line, pipes escaped, HTML, entities and @-mentions defused (a bot
 * comment must not ping people named in an issue, nor carry markup someone slipped into a task title).
 */
export function cell(text: string): string {
  return escapePipes(defused(text))
}

/**
 * User text in running markdown: `cell`'s defusing, and a line that cannot open a block (a heading, a
 * quote, a list, a code fence, a rule) even where it starts a line or a list item.
 */
export function inline(text: string): string {
  const line = defused(text)
  const ordered = ORDERED_ITEM.exec(line)
  if (ordered) return `${ordered[0]}\\${line.slice(ordered[0].length)}`
  return BLOCK_START.test(line) ? `\\${line}` : line
}

/** What opens a block at the start of a line: a heading, a bullet, a code fence, a thematic break (`>` and `<` are escaped already). */
const BLOCK_START = /^(?:#{1,6}(?=\s|$)|[-+*](?=\s|$)|`{3,}|~{3,}|([-*_])(?:\s*\1){2,}\s*$)/
/** The number of an ordered list item (`1.` or `1)`), before its delimiter. */
const ORDERED_ITEM = /^\d{1,9}(?=[.)](?:\s|$))/

/** One line, trimmed (leading spaces would make indented code), with `&`, `<`, `>` and mentions made inert. */
function defused(text: string): string {
  return text
    .replace(LINE_BREAKS, ' ')
    .trim()
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(MENTION, '@\u200b')
}

/** User text inside raw HTML (a `<summary>`), where markdown is not read: `cell`'s defusing, and quotes as entities. */
export function htmlText(text: string): string {
  return defused(text).replace(/"/g, '&quot;')
}

/** A code span that survives backticks inside. */
export function code(text: string): string {
  const flat = text.replace(LINE_BREAKS, ' ')
  const longest = longestRun(flat, '`')
  const fence = '`'.repeat(longest + 1)
  return `${fence}${longest ? ' ' : ''}${flat}${longest ? ' ' : ''}${fence}`
}

/** A code span inside a table cell: GFM splits cells on a pipe even inside a code span unless it is escaped. */
export function codeCell(text: string): string {
  return escapePipes(code(text))
}

/**
 * Every pipe escaped for GFM's table splitter, which reads `\\` as an escaped backslash: a pipe needs an
 * odd number of backslashes before it, so a `\|` the text already holds stays as it is.
 */
function escapePipes(text: string): string {
  return text.replace(/(\\*)\|/g, (run: string, backslashes: string) => (backslashes.length % 2 ? run : `${backslashes}\\|`))
}

/** A fenced code block whose fence is longer than any backtick run inside, so the text cannot close it. */
export function codeBlock(text: string, language = 'text'): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1))
  return `${fence}${language}\n${text.replace(/\r\n?/g, '\n')}\n${fence}`
}

export function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n')
}

/** A collapsed section; `summary` is HTML (escape user text with `htmlText`), `body` is markdown. */
export function details(summary: string, body: string, open = false): string {
  return `<details${open ? ' open' : ''}><summary>${summary}</summary>\n\n${body}\n\n</details>`
}

/** `1 task`, `3 tasks`; `plural(2, 'child', 'children')` for a word whose plural is not `-s`. */
export const plural = (n: number, word: string, many = `${word}s`) => `${n} ${pluralWord(n, word, many)}`

/** The word alone, for a count written another way (the board's `1,204 issues`). */
export const pluralWord = (n: number, word: string, many = `${word}s`) => (n === 1 ? word : many)

/** At most `max` characters (UTF-16 units), ending in `…` when cut; never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text
  let end = Math.max(0, max - 1)
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--
  return `${text.slice(0, end)}…`
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff
}

function longestRun(text: string, char: string): number {
  let longest = 0
  let run = 0
  for (const c of text) {
    run = c === char ? run + 1 : 0
    if (run > longest) longest = run
  }
  return longest
}
