/** How the board writes numbers, states and links; every text it is given is escaped here. */
import { formatDuration } from '../report/format.js'
import { pluralWord } from '../report/markdown.js'
import { escapeHtml } from './escape.js'

export const text = escapeHtml

export function cost(usd: number | null): string {
  if (usd === null) return '<span class="muted">–</span>'
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`
}

export function count(n: number | null): string {
  return n === null ? '<span class="muted">–</span>' : n.toLocaleString('en-US')
}

/** Cost and tokens together; "not reported" when the agent reported neither (or no agent ran). */
export function usage(usd: number | null, tokens: number | null): string {
  if (usd === null && tokens === null) return '<span class="muted">not reported</span>'
  return `${cost(usd)} · ${count(tokens)} tokens`
}

export function duration(ms: number | null): string {
  return ms === null ? '<span class="muted">–</span>' : formatDuration(ms)
}

/** A state word as a coloured badge; `prefix` names its colour family (s: status, e: evidence). */
export function badge(word: string, prefix: 's' | 'e' = 's'): string {
  return `<span class="badge ${prefix}-${escapeHtml(word)}">${escapeHtml(word)}</span>`
}

/** A word as a badge of a given colour class (`e-no-change`), for labels that are not themselves a class name. */
export function labelBadge(label: string, colour: string): string {
  return `<span class="badge ${escapeHtml(colour)}">${escapeHtml(label)}</span>`
}

/** Text with its `inline code` as code: every part escaped, so nothing of the text becomes markup but <code>. */
export function inlineCode(source: string): string {
  return source.split(/`([^`\n]+)`/).map((part, i) => (i % 2 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part))).join('')
}

/** A link when `href` is one (http(s) only: URLs come from state files), else the label as text. */
export function link(label: string, href: string | null): string {
  if (!href || !/^https?:\/\//.test(href)) return escapeHtml(label)
  return `<a href="${escapeHtml(href)}" rel="noopener noreferrer">${escapeHtml(label)}</a>`
}

export function shortHash(hash: string): string {
  return escapeHtml(hash.replace(/^sha256:/, '').slice(0, 12))
}

/** `1 issue`, `1,204 issues`: the count as the board writes numbers. */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${pluralWord(n, word)}`
}
