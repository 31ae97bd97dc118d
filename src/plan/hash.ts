import { createHash } from 'node:crypto'
import type { Solution } from '../model/index.js'

/** `sha256:<hex>` of a UTF-8 string (plan hashes, issue body hashes). */
export function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`
}

/**
 * The content hash an approval is bound to. Leaves out what changes without changing the work:
 * the approval itself, the planner's score and the creation time.
 */
export function planHash(solution: Solution): string {
  const { approval: _approval, score: _score, created_at: _createdAt, ...content } = solution
  return sha256(canonicalJson(content))
}

/** JSON with object keys sorted at every level, so equal data always gives the same text. */
export function canonicalJson(value: unknown): string {
  // A copy with every object's keys inserted in sorted order, written by JSON.stringify: about twice as fast as
  // writing each member here (a board hashes every plan it shows).
  try {
    return JSON.stringify(sortedCopy(value)) ?? 'null'
  } catch (error) {
    if (error !== MEMBERWISE) throw error
    return memberwiseJson(value)
  }
}

/** Thrown by {@link sortedCopy} for a key a copy cannot keep in sorted order. */
const MEMBERWISE = Symbol('memberwise')
/** Keys an object lists before all others, whatever the order they were set in (array indexes), and `__proto__`. */
const UNORDERED_KEY = /^(?:0|[1-9]\d*)$|^__proto__$/

function sortedCopy(value: unknown): unknown {
  if (typeof value === 'function' || typeof value === 'symbol') return null
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortedCopy(item)))
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) {
    if (UNORDERED_KEY.test(key)) throw MEMBERWISE
    copy[key] = sortedCopy((value as Record<string, unknown>)[key])
  }
  return copy
}

function memberwiseJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => memberwiseJson(item ?? null)).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const members: string[] = []
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key]
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${memberwiseJson(member)}`)
    }
    return `{${members.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
