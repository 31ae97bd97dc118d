import { marked } from 'marked'

/** The markdown as GitHub-flavoured HTML (marked with GFM), the way a reader will see it. */
export function toHtml(markdown: string): string {
  return marked.parse(markdown, { gfm: true, async: false })
}

export function countTags(html: string, tag: string): { open: number; close: number } {
  return {
    open: (html.match(new RegExp(`<${tag}[\\s>]`, 'g')) ?? []).length,
    close: (html.match(new RegExp(`</${tag}>`, 'g')) ?? []).length,
  }
}

/**
 * The HTML with code (spans and blocks) removed and `@` entities decoded: what GitHub reads for mentions
 * and markup.
 */
export function outsideCode(html: string): string {
  return html
    .replace(/<pre[\s>][\s\S]*?<\/pre>/g, '')
    .replace(/<code[\s>][\s\S]*?<\/code>/g, '')
    .replace(/&#0*64;|&#x0*40;|&commat;/gi, '@')
}

/** An `@name` that GitHub would turn into a mention (not preceded by a word character or the zero-width space). */
export const LIVE_MENTION = /(?<![\w\u200b])@[A-Za-z0-9][\w-]*/
