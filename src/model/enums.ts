import { z } from 'zod'

export const TASK_ACTIONS = [
  'Create', 'Modify', 'Fix', 'Refactor', 'Add', 'Remove', 'Update', 'Implement', 'Delete', 'Configure', 'Test',
] as const
export const TASK_TYPES = ['fix', 'refactor', 'feature', 'enhancement', 'testing'] as const
export const PRIORITIES = ['critical', 'high', 'medium', 'low'] as const
export const EFFORTS = ['small', 'medium', 'large'] as const
export const FILE_ACTIONS = ['create', 'modify', 'delete'] as const
export const LEVELS = ['low', 'medium', 'high'] as const
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const

export type TaskAction = (typeof TASK_ACTIONS)[number]
export type TaskType = (typeof TASK_TYPES)[number]
export type Priority = (typeof PRIORITIES)[number]
export type Effort = (typeof EFFORTS)[number]
export type FileAction = (typeof FILE_ACTIONS)[number]
export type Level = (typeof LEVELS)[number]
export type Severity = (typeof SEVERITIES)[number]

/**
 * A string enum read case-insensitively (and through aliases), written in its canonical spelling.
 * Plans are written by people and agents; "modify", "Modify" and "MODIFY" mean the same thing.
 */
export function lenientEnum<const T extends readonly string[]>(
  values: T,
  aliases: Record<string, T[number]> = {},
) {
  const lookup = new Map<string, T[number]>(values.map((v) => [v.toLowerCase(), v]))
  for (const [alias, value] of Object.entries(aliases)) lookup.set(alias, value)
  return z
    .string()
    .meta({ description: `One of: ${values.join(', ')} (case-insensitive)`, examples: [...values] })
    .transform((raw, ctx): T[number] => {
      const value = lookup.get(raw.trim().toLowerCase())
      if (value === undefined) {
        ctx.addIssue({ code: 'custom', message: `${quoteInput(raw)} is not one of ${values.join(', ')}`, input: raw })
        return z.NEVER
      }
      return value
    })
}

/** A list that may also be written as a single string. */
export function stringList() {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (typeof v === 'string' ? (v.trim() ? [v] : []) : v))
}

/** A value from the input, quoted in an error message: at most 40 characters of it (inputs can be huge). */
export function quoteInput(raw: string): string {
  return raw.length > 40 ? `"${raw.slice(0, 40)}…" (${raw.length} characters)` : `"${raw}"`
}
