import type { z } from 'zod'
import type { StateSnapshot } from './store.js'

/** A state file that exists but does not match its schema: reported, never overwritten blindly. */
export class CorruptStateError extends Error {
  constructor(readonly path: string, detail: string) {
    super(`State file ${path} is not valid: ${detail}. Fix or delete it on the state branch, then run again.`)
    this.name = 'CorruptStateError'
  }
}

/** Reads and validates a JSON state file; undefined when it does not exist. */
export async function readStateJson<S extends z.ZodType>(
  snapshot: StateSnapshot, path: string, schema: S,
): Promise<z.output<S> | undefined> {
  const text = await snapshot.read(path)
  if (text === undefined) return undefined
  const parsed = parseStateJson(text, schema)
  if (!parsed.ok) throw new CorruptStateError(path, parsed.detail)
  return parsed.value
}

/**
 * A state file's text parsed and validated against its schema, or what is wrong with it: not JSON (the parser's
 * message), or not of its schema (the first issue's path and message). `readStateJson` throws it; the board, which
 * reads tolerantly, shows it.
 */
export function parseStateJson<S extends z.ZodType>(
  text: string, schema: S,
): { ok: true; value: z.output<S> } | { ok: false; wrong: 'json' | 'schema'; detail: string } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, wrong: 'json', detail: (error as Error).message }
  }
  const result = schema.safeParse(value)
  if (result.success) return { ok: true, value: result.data }
  const issue = result.error.issues[0]!
  return { ok: false, wrong: 'schema', detail: `${issue.path.join('.') || '(root)'}: ${issue.message}` }
}
