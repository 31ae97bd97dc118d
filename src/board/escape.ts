/** Text from issues, plans and command output, made safe to put in the page's HTML. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/**
 * Bidirectional controls (embeddings, overrides, isolates, marks): a file name holding U+202E would draw the text
 * after it reversed. The page shows each as its code point instead, in the text and in attribute values alike.
 */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g

/** `‹U+202E›`: a bidi control as a reader can see it. */
export const showBidi = (text: string): string => text.replace(BIDI_CONTROLS, (c) => `‹U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}›`)

/** One character class (not an alternation of two): the scan of text that needs nothing is the common case. */
const NEEDS_ESCAPE = new RegExp(`[&<>"'${BIDI_CONTROLS.source.slice(1, -1)}]`)

/** For element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  // Most text needs nothing: a test is cheaper than two replaces, and a board escapes hundreds of thousands of texts.
  if (!NEEDS_ESCAPE.test(text)) return text
  return showBidi(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!)
}
