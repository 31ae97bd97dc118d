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
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const members: string[] = []
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key]
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`)
    }
    return `{${members.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
