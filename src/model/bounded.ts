/**
 * Bounds on what an executor's report or output can write into the state branch. An executor (or anything it runs)
 * decides how long its report's `evidence`, its summary and its output are; recorded whole, a 40 MB `evidence`
 * string made a 39 MB `execution.json` that every later read of the state tripped over. Every string of a task's
 * result is kept to {@link MAX_RECORDED_CHARACTERS}: its start and its end, with a line in the middle saying how much
 * was cut.
 */
import type { TaskResult } from './execution.js'

/** The most characters one text of a task's result keeps on the state branch (a comment holds 65,536). */
export const MAX_RECORDED_CHARACTERS = 16_000

/** `text`, or its start and end around a marker naming how many characters were cut. */
export function capText(text: string, max = MAX_RECORDED_CHARACTERS): string {
  if (text.length <= max) return text
  const keep = Math.floor((max - 80) / 2)
  return `${text.slice(0, keep)}\n… [Converge cut ${(text.length - 2 * keep).toLocaleString('en-US')} characters here: the text was ${text.length.toLocaleString('en-US')} long] …\n${text.slice(text.length - keep)}`
}

/** Every string in `value`, however deep, capped by {@link capText}; everything else as it is. */
function capStrings<T>(value: T): T {
  if (typeof value === 'string') return capText(value) as T
  if (Array.isArray(value)) return value.map((item) => capStrings(item)) as T
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, capStrings(v)])) as T
  return value
}

/** A task's result as the state branch keeps it: every text in it bounded. */
export function boundTaskResult(result: TaskResult): TaskResult {
  return capStrings(result)
}
