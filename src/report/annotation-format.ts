/**
 * What every recogniser of a tool's output in `annotations.ts` and `test-annotations.ts` shares: the place of an
 * annotation made relative to the repository, its level, and GitHub's size limits.
 */
import { posix } from 'node:path'
import type { Annotation, AnnotationLevel } from './annotations.js'

/** GitHub's limit on a title; messages and details are kept short well before GitHub's 64 KB. */
const TITLE_LIMIT = 255
const TEXT_LIMIT = 4_000
/** Lines of a test failure kept as its details. */
export const DETAIL_LINES = 20

/**
 * A recogniser of one tool's output, fed every line in order. `line` answers the annotations a line
 * completes, or null when the line is not the tool's (then the generic pattern may claim it).
 */
export interface Format {
  line(text: string): Annotation[] | null
  end?(): Annotation[]
}

/** A path as the repository knows it, or undefined for paths outside it (or in node_modules). */
export type RepoPath = (path: string) => string | undefined

export function repoPathIn(repoRoot: string): RepoPath {
  const root = posix.normalize(repoRoot.replace(/\\/g, '/')).replace(/\/$/, '')
  return (path) => {
    const slashed = path.replace(/^file:\/\//, '').replace(/\\/g, '/')
    if (/^[a-z][\w+.-]+:/i.test(slashed)) return undefined // node:internal/…, https://…
    const absolute = slashed.startsWith('/') || /^[a-z]:\//i.test(slashed)
    const relative = posix.normalize(absolute ? posix.relative(root, slashed) : slashed)
    if (relative === '' || relative === '.' || relative.startsWith('../') || relative === '..' || posix.isAbsolute(relative)) return undefined
    if (relative.split('/').includes('node_modules')) return undefined
    return relative
  }
}

const LEVELS: Record<string, AnnotationLevel> = {
  error: 'failure',
  'fatal error': 'failure',
  warning: 'warning',
  note: 'notice',
  info: 'notice',
}

export function levelOf(word: string | undefined): AnnotationLevel {
  return LEVELS[(word ?? 'error').toLowerCase()] ?? 'failure'
}

export interface Location {
  path: string
  line: string | number
  column?: string | number | undefined
}

/** An annotation at a place the tool printed, or none when the place is not in the repository. */
export function at(repoPath: RepoPath, where: Location, fields: Pick<Annotation, 'annotation_level' | 'message' | 'title' | 'raw_details'>): Annotation[] {
  const path = repoPath(where.path)
  if (path === undefined) return []
  const line = Math.max(1, Number(where.line))
  const column = where.column === undefined ? undefined : Math.max(1, Number(where.column))
  return [{
    path,
    start_line: line,
    end_line: line,
    ...(column === undefined ? {} : { start_column: column, end_column: column }),
    annotation_level: fields.annotation_level,
    message: clip(fields.message.trim(), TEXT_LIMIT) || 'failed',
    ...(fields.title ? { title: clip(fields.title, TITLE_LIMIT) } : {}),
    ...(fields.raw_details ? { raw_details: clip(fields.raw_details, TEXT_LIMIT) } : {}),
  }]
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`
}
