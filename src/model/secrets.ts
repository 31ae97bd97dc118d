/**
 * Secret masking, for everything Converge records or prints: registered values in every form they can be printed
 * in, and the shapes of credentials nobody registered. Here, with what Converge records, below every layer that
 * masks — the reports (`report/`, the lowest of them), the processes' output, the executor's and the planner's
 * reports, the state branch's files — rather than in `report/`, which only renders.
 */
export const MASK = '***'

/**
 * Shapes of credentials that a command may print even though nobody registered them as secrets:
 * GitHub tokens (classic, fine-grained, app, OAuth, refresh), AWS access key ids, npm tokens, Slack
 * tokens, and whatever follows `Bearer` or `token` in an Authorization header.
 */
const TOKEN_SHAPES: RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bnpm_[A-Za-z0-9]{30,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
]
/** `Bearer <credential>` anywhere, `Authorization: token|Basic <credential>` in a header. */
const AUTHORIZATION = /\b(Bearer\s+|Authorization:\s*(?:token|Basic)\s+)[A-Za-z0-9._~+/=-]{16,}/gi
/**
 * What the shapes above begin with: text holding none of these has none of them, and two scans of it are cheaper
 * than six (a board masks a hundred megabytes of command output).
 */
const TOKEN_STARTS = /gh[pousr]_|github_pat_|A[KS]IA|npm_|xox[abposr]-/
const AUTHORIZATION_STARTS = /bearer|authorization/i

/** Every occurrence of every secret replaced by `***`, longest first so that a secret containing another is masked whole. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  return replaceSecrets(text, usableSecrets(secrets))
}

/** Credentials recognised by their shape (for command output, where anything can turn up). */
export function maskTokenShapes(text: string): string {
  if (!TOKEN_STARTS.test(text) && !AUTHORIZATION_STARTS.test(text)) return text
  let out = text
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, MASK)
  return out.replace(AUTHORIZATION, (_, scheme: string) => `${scheme}${MASK}`)
}

function replaceSecrets(text: string, longestFirst: readonly string[]): string {
  let out = text
  for (const secret of longestFirst) if (out.includes(secret)) out = out.split(secret).join(MASK)
  return out
}

function usableSecrets(secrets: readonly string[]): string[] {
  return [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length)
}

/** Secrets shorter than this get no base64 forms: their few characters would mask unrelated text everywhere. */
const BASE64_MIN_SECRET_BYTES = 8

/**
 * Every form a secret is masked in: the value, reversed, URL-encoded, and — from 8 bytes on — base64-encoded, whole
 * and at each of the three byte offsets it can sit at inside a longer encoded text (a `user:token` Basic
 * credential, a docker `auth` entry): the run of base64 characters that depends on the value alone.
 */
export function secretForms(secret: string): string[] {
  if (secret === '') return []
  const forms = new Set([secret, [...secret].reverse().join(''), encodeURIComponent(secret)])
  const bytes = Buffer.from(secret, 'utf8')
  if (bytes.length >= BASE64_MIN_SECRET_BYTES) {
    forms.add(bytes.toString('base64'))
    for (const offset of [0, 1, 2]) forms.add(base64AtOffset(bytes, offset))
  }
  return [...forms]
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

/** A copy of plain data (what JSON can hold) with every secret masked in every string, keys included. */
export function maskStrings<T>(value: T, secrets: readonly string[]): T {
  return maskDeep(value, usableSecrets(secrets)) as T
}

function maskDeep(value: unknown, longestFirst: readonly string[]): unknown {
  if (typeof value === 'string') return replaceSecrets(value, longestFirst)
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, longestFirst))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [replaceSecrets(k, longestFirst), maskDeep(v, longestFirst)]),
    )
  return value
}
