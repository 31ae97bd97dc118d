/** Small text helpers. Loops rather than `[…]+$` regexes, which are quadratic on long runs. */

/** Collapses whitespace and trims. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** `text` without the characters of `chars` at its end. */
export function trimEndOf(text: string, chars: string): string {
  let end = text.length
  while (end > 0 && chars.includes(text[end - 1]!)) end--
  return text.slice(0, end)
}

const TITLE_MAX_LENGTH = 120

/** The first sentence, without trailing punctuation, cut at a word when very long. */
export function shortTitle(text: string): string {
  const sentenceEnd = /[.!?](?:\s|$)|[。！？]/.exec(text)
  let title = trimEndOf(sentenceEnd ? text.slice(0, sentenceEnd.index) : text, ' .,;:，。；：!?！？')
  if (title.length > TITLE_MAX_LENGTH) {
    const cut = title.lastIndexOf(' ', TITLE_MAX_LENGTH)
    title = `${title.slice(0, cut > TITLE_MAX_LENGTH / 2 ? cut : TITLE_MAX_LENGTH)}…`
  }
  return title
}

export function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1)
}

/** The text from its first letter: without the emoji, bullets and marks a template puts before its words ("🙋 Claim …"). */
export function leadingWords(text: string): string {
  return text.trim().replace(/^[^\p{L}\p{N}@]+/u, '')
}
