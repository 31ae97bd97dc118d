/** Small markdown helpers; every piece of user text that goes into a report passes through them. */

/**
 * User text inside a table cell: one line, pipes escaped, HTML and @-mentions defused (a bot comment
 * must not ping people named in an issue, nor carry markup someone slipped into a task title).
 */
export function cell(text: string): string {
  return inline(text).replace(/\|/g, '\\|')
}

/** User text in running markdown: one line, no raw HTML, no mentions. */
export function inline(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(?=[\w-])/g, '@\u200b')
}

/** A code span that survives backticks inside. */
export function code(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ')
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${longest ? ' ' : ''}${flat}${longest ? ' ' : ''}${fence}`
}

export function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n')
}

export function details(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
