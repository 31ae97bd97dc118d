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
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new CorruptStateError(path, (error as Error).message)
  }
  const result = schema.safeParse(value)
  if (!result.success) {
    const issue = result.error.issues[0]!
    throw new CorruptStateError(path, `${issue.path.join('.') || '(root)'}: ${issue.message}`)
  }
  return result.data
}
