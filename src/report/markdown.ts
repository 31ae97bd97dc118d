/** Small markdown helpers; every piece of user text that goes into a report passes through them. */

/** CommonMark ends a line at `\n`, `\r` or `\r\n`: user text must not contain any of them where one line is expected. */
const LINE_BREAKS = /\s*[\r\n]+\s*/g
const MENTION = /@(?=[\w-])/g

/**
 * User text inside a table cell: one line, pipes escaped, HTML and @-mentions defused (a bot comment
 * must not ping people named in an issue, nor carry markup someone slipped into a task title).
 */
export function cell(text: string): string {
  return inline(text).replace(/\|/g, '\\|')
}

/** User text in running markdown: one line, no raw HTML, no mentions. */
export function inline(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(MENTION, '@\u200b')
}

/** User text inside raw HTML (a `<summary>`), where markdown is not read: one line, entities escaped, no mentions. */
export function htmlText(text: string): string {
  return text
    .replace(LINE_BREAKS, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(MENTION, '@\u200b')
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
  return code(text).replace(/\|/g, '\\|')
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

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

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
