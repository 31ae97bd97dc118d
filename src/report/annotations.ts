/**
 * Check-run annotations (file, line, message) read from the output of a failing command. Pure: text in,
 * annotations out. Recognised: tsc (plain and `--pretty`), ESLint (stylish, unix, compact), Vitest, Jest and
 * `node --test` failures (its spec and TAP reporters), pytest, `go test`, and the generic `path:line[:col]: message`
 * of compilers and linters.
 */
import type { ExecutionRecord } from '../model/index.js'
import { evidenceSentence } from './evidence-words.js'
import { at, levelOf, repoPathIn, type Format, type RepoPath } from './annotation-format.js'
import { stripAnsi } from './ansi.js'
import { goTest, nodeTap, pytest, testFailures } from './test-annotations.js'

export type AnnotationLevel = 'failure' | 'warning' | 'notice'

/** The fields of a GitHub check-run annotation. */
export interface Annotation {
  path: string
  start_line: number
  end_line: number
  start_column?: number
  end_column?: number
  annotation_level: AnnotationLevel
  message: string
  title?: string
  raw_details?: string
}

export interface ParseAnnotationsOptions {
  /** Absolute path of the repository: paths are made relative to it, paths outside it are dropped. */
  repoRoot: string
  /** Most annotations kept from one command's output (default 50), failures first. */
  maxPerCommand?: number
  /** The module path of `go.mod` at the root, to place `go test` annotations in their package directory. */
  goModule?: string
}

export const MAX_ANNOTATIONS_PER_COMMAND = 50

export function parseAnnotations(output: string, options: ParseAnnotationsOptions): Annotation[] {
  const repoPath = repoPathIn(options.repoRoot)
  const formats = [
    tsc(repoPath), eslintStylish(repoPath), eslintCompact(repoPath), testFailures(repoPath), nodeTap(repoPath), pytest(repoPath), goTest(repoPath, options.goModule),
  ]
  const found: Annotation[] = []
  for (const text of stripAnsi(output).split(/\r\n|\r|\n/)) {
    let claimed = false
    for (const format of formats) {
      const annotations = format.line(text)
      if (annotations === null) continue
      claimed = true
      found.push(...annotations)
    }
    if (!claimed) found.push(...generic(text, repoPath))
  }
  for (const format of formats) found.push(...(format.end?.() ?? []))
  return mostSevere(distinct(found), options.maxPerCommand ?? MAX_ANNOTATIONS_PER_COMMAND)
}

/** `src/a.ts(12,5): error TS2322: …` and, with `--pretty`, `src/a.ts:12:5 - error TS2322: …`. */
function tsc(repoPath: RepoPath): Format {
  const plain = /^(?<path>[^\s(][^(]*)\((?<line>\d+),(?<column>\d+)\): (?<level>error|warning) (?<code>TS\d+): (?<message>.+)$/
  const pretty = /^(?<path>(?:[A-Za-z]:)?[^\s:][^:]*):(?<line>\d+):(?<column>\d+) - (?<level>error|warning) (?<code>TS\d+): (?<message>.+)$/
  return {
    line(text) {
      const m = (plain.exec(text) ?? pretty.exec(text))?.groups
      if (!m) return null
      return at(repoPath, { path: m.path!, line: m.line!, column: m.column }, { annotation_level: levelOf(m.level), message: m.message!, title: m.code! })
    },
  }
}

/** ESLint's default output: a file path alone on a line, then `  12:5  error  message  rule-id` lines. */
function eslintStylish(repoPath: RepoPath): Format {
  const fileLine = /^(?:[A-Za-z]:)?[^\s:]*[/\\][^\s:]*\.\w+$/
  const problem = /^\s+(?<line>\d+):(?<column>\d+)\s+(?<level>error|warning)\s+(?<message>.+?)(?:\s{2,}(?<rule>[\w@/-]+))?\s*$/
  let file: string | undefined
  return {
    line(text) {
      if (text.trim() === '') file = undefined
      else if (fileLine.test(text)) file = text
      const m = file === undefined ? undefined : problem.exec(text)?.groups
      if (!m) return null
      return at(repoPath, { path: file!, line: m.line!, column: m.column }, {
        annotation_level: levelOf(m.level),
        message: m.message!,
        ...(m.rule ? { title: m.rule } : {}),
      })
    },
  }
}

/** ESLint's `compact` formatter: `/abs/a.ts: line 12, col 5, Error - message (rule-id)`. */
function eslintCompact(repoPath: RepoPath): Format {
  const compact = /^(?<path>\S.*?): line (?<line>\d+), col (?<column>\d+), (?<level>Error|Warning) - (?<message>.+?)(?: \((?<rule>[\w@/-]+)\))?$/
  return {
    line(text) {
      const m = compact.exec(text)?.groups
      if (!m) return null
      return at(repoPath, { path: m.path!, line: m.line!, column: m.column }, {
        annotation_level: levelOf(m.level),
        message: m.message!,
        ...(m.rule ? { title: m.rule } : {}),
      })
    },
  }
}

/**
 * `path:line:col: message` and `path:line: message`, with an optional level word (gcc, mypy, many linters), and
 * ESLint's `unix` formatter, which ends the message with `[Error/rule-id]`.
 */
const GENERIC_LOCATION = /^(?<path>(?:[A-Za-z]:)?[^\s:()]*[./\\][^\s:()]*):(?<line>\d+)(?::(?<column>\d+))?:\s+(?:(?<level>error|fatal error|warning|note|info)(?:\[[^\]]*\])?:\s*)?(?<message>\S.*)$/i
const ESLINT_UNIX_SUFFIX = / \[(?<level>Error|Warning)(?:\/(?<rule>[^\]]+))?\]$/

function generic(text: string, repoPath: RepoPath): Annotation[] {
  const m = GENERIC_LOCATION.exec(text)?.groups
  if (!m) return []
  const unix = ESLINT_UNIX_SUFFIX.exec(m.message!)
  return at(repoPath, { path: m.path!, line: m.line!, column: m.column }, {
    annotation_level: levelOf(unix?.groups!.level ?? m.level),
    message: unix ? m.message!.slice(0, unix.index) : m.message!,
    ...(unix?.groups!.rule ? { title: unix.groups.rule } : {}),
  })
}

/** One annotation per place and message: the first one printed. */
function distinct(annotations: Annotation[]): Annotation[] {
  const seen = new Set<string>()
  return annotations.filter((a) => {
    const key = JSON.stringify([a.path, a.start_line, a.start_column, a.message])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

const SEVERITY: Record<AnnotationLevel, number> = { failure: 0, warning: 1, notice: 2 }

/** At most `max` annotations, failures before warnings before notices, otherwise in the order printed. */
function mostSevere(annotations: Annotation[], max: number): Annotation[] {
  return [...annotations].sort((a, b) => SEVERITY[a.annotation_level] - SEVERITY[b.annotation_level]).slice(0, max)
}

/**
 * Annotations parsed from the output of every failing command of an execution record, and one on each check file
 * a task wrote itself (SPEC §7 "Evidence integrity"): what its proof rests on, for the reviewer to read.
 */
export function failureAnnotations(record: ExecutionRecord | undefined, repoRoot: string): Annotation[] {
  const tasks = Object.values(record?.tasks ?? {})
  const failures = tasks
    .flatMap((task) => task.convergence_verified)
    .filter((check) => check.kind === 'command' && check.verdict === 'fail' && check.output_tail)
    .flatMap((check) => parseAnnotations(check.output_tail!, { repoRoot }))
  const checkFiles = tasks.flatMap((task) => (task.evidence?.check_files ?? [])
    .filter((file) => file.change !== 'deleted' && !file.role.includes('ignored'))
    .map((file): Annotation => ({
      path: file.path, start_line: 1, end_line: 1,
      annotation_level: task.evidence!.kind === 'proven' ? 'notice' : 'warning',
      title: `${task.task_id} ${file.change} this check file itself`,
      message: `${task.task_id}'s proof rests on this file (${file.role}), which the task ${file.change}: ${evidenceSentence(task.task_id, task.evidence!)}`,
    })))
  return [...failures, ...checkFiles]
}
