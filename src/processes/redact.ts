/**
 * Masking of secret values in raw command output: every form {@link secretForms} gives (the value, reversed,
 * URL-encoded, base64); the callers mask the shapes of credentials nobody registered on top (`maskTokenShapes`).
 * Every byte covered by any appearance is masked, overlapping appearances included, and each
 * covered run becomes one `***`.
 */
import { MASK, secretForms } from '../model/secrets.js'

const MASK_BYTES = Buffer.from(MASK)

/** The byte sequences to mask for `secrets`, longest first. */
export function secretPatterns(secrets: readonly string[]): Buffer[] {
  const forms = new Set(secrets.flatMap(secretForms))
  return [...forms].map((form) => Buffer.from(form, 'utf8')).sort((a, b) => b.length - a.length)
}

/**
 * `bytes` from offset `from` on, with every appearance of every pattern masked. Appearances are looked for in the
 * whole of `bytes`, so one that starts before `from` and reaches past it is masked too (the result then starts
 * with `***`).
 */
export function redact(bytes: Buffer, patterns: readonly Buffer[], from = 0): Buffer {
  const pieces: Buffer[] = []
  let position = from
  for (const [start, end] of coveredRanges(bytes, patterns)) {
    if (end <= position) continue
    if (start > position) pieces.push(bytes.subarray(position, start))
    pieces.push(MASK_BYTES)
    position = end
  }
  pieces.push(bytes.subarray(position))
  return Buffer.concat(pieces)
}

/** The byte ranges `[start, end)` covered by pattern appearances, sorted, overlapping and touching ones merged. */
function coveredRanges(bytes: Buffer, patterns: readonly Buffer[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  for (const pattern of patterns)
    for (let at = bytes.indexOf(pattern); at !== -1; at = bytes.indexOf(pattern, at + 1))
      ranges.push([at, at + pattern.length])
  ranges.sort((a, b) => a[0] - b[0])
  const merged: Array<[number, number]> = []
  for (const range of ranges) {
    const last = merged.at(-1)
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1])
    else merged.push([...range])
  }
  return merged
}
