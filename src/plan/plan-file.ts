/**
 * The plans in a plan file's text, by its form: one JSON document; a `.jsonl` of solutions, one per line
 * (what CCW's `ccw issue` stores); or Markdown holding a ```json block. Pure: the CLI reads the file.
 */
export type PlanFileText =
  | { form: 'json'; text: string }
  | { form: 'jsonl'; lines: Array<{ line: number; text: string }> }
  | { form: 'markdown'; text: string }
  | { form: 'markdown-without-plan' }

/** `name`: the file's name, when there is one; a `.md` file is Markdown whatever it holds. */
export function planFileText(text: string, name?: string): PlanFileText {
  const body = text.replace(/^\uFEFF/, '')
  if (isJson(body)) return { form: 'json', text: body }
  const lines = body.split('\n').map((t, i) => ({ line: i + 1, text: t.trim() })).filter((l) => l.text)
  if (lines.length > 1 && lines.every((l) => l.text.startsWith('{') && isJson(l.text))) return { form: 'jsonl', lines }
  if (/\.(?:md|markdown)$/i.test(name ?? '') || /^\s*(?:#{1,6}\s|---\s*$|[-*]\s)/m.test(body) || /^```/m.test(body)) {
    const block = /^```json[^\n]*\n([\s\S]*?)^```/im.exec(body)
    return block ? { form: 'markdown', text: block[1]! } : { form: 'markdown-without-plan' }
  }
  return { form: 'json', text: body }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
