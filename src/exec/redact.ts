/**
 * Masking of secret values in raw command output.
 *
 * What counts as a secret's appearance:
 * - the value itself, exactly, for every non-empty secret;
 * - for values of at least {@link BASE64_MIN_SECRET_BYTES} bytes, also their base64 encoding: the whole padded
 *   encoding, and, for each of the three byte offsets the value can sit at inside a longer encoded text (a
 *   `user:token` Basic credential, a docker `auth` entry), the run of base64 characters that depends on the value
 *   alone. Shorter values get no base64 forms: their few characters would mask unrelated text everywhere.
 * Other encodings (URL or JSON escaping, hex) are not recognised.
 *
 * Every byte covered by any appearance is masked, overlapping appearances included, and each covered run becomes
 * one `***`.
 */
import { MASK } from '../report/secrets.js'

const BASE64_MIN_SECRET_BYTES = 8

const MASK_BYTES = Buffer.from(MASK)

/** The byte sequences to mask for `secrets`, longest first. */
export function secretPatterns(secrets: readonly string[]): Buffer[] {
  const forms = new Set<string>()
  for (const secret of secrets) {
    if (secret === '') continue
    forms.add(secret)
    const bytes = Buffer.from(secret, 'utf8')
    if (bytes.length < BASE64_MIN_SECRET_BYTES) continue
    forms.add(bytes.toString('base64'))
    for (const offset of [0, 1, 2]) forms.add(base64AtOffset(bytes, offset))
  }
  return [...forms].map((form) => Buffer.from(form, 'utf8')).sort((a, b) => b.length - a.length)
}

/**
 * The base64 characters that encode `bytes` and nothing else when `bytes` starts `offset` bytes into a 3-byte
 * group: each character carries 6 bits, so the first ones may mix in the bytes before and the last one the bytes
 * after.
 */
function base64AtOffset(bytes: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
  return encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6))
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
