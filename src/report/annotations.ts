/**
 * Check-run annotations (file, line, message) read from the output of a failing command. Pure: text in,
 * annotations out. Recognised: tsc (plain and `--pretty`), ESLint (stylish, unix, compact), Vitest, Jest and
 * `node --test` failures (its spec and TAP reporters), pytest, `go test`, and the generic `path:line[:col]: message`
 * of compilers and linters.
 */
import { posix } from 'node:path'
import type { ExecutionRecord } from '../model/index.js'

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

/** GitHub's limit on a title; messages and details are kept short well before GitHub's 64 KB. */
const TITLE_LIMIT = 255
const TEXT_LIMIT = 4_000
/** Lines of a test failure kept as its details. */
const DETAIL_LINES = 20

/**
 * A recogniser of one tool's output, fed every line in order. `line` answers the annotations a line
 * completes, or null when the line is not the tool's (then the generic pattern may claim it).
 */
interface Format {
  line(text: string): Annotation[] | null
  end?(): Annotation[]
}

/** A path as the repository knows it, or undefined for paths outside it (or in node_modules). */
type RepoPath = (path: string) => string | undefined

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

/** Removes ANSI escape sequences (colours, cursor moves, OSC hyperlinks). */
export function stripAnsi(text: string): string {
  return text.replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g, '')
}

function repoPathIn(repoRoot: string): RepoPath {
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

function levelOf(word: string | undefined): AnnotationLevel {
  return LEVELS[(word ?? 'error').toLowerCase()] ?? 'failure'
}

interface Location {
  path: string
  line: string | number
  column?: string | number | undefined
}

/** An annotation at a place the tool printed, or none when the place is not in the repository. */
function at(repoPath: RepoPath, where: Location, fields: Pick<Annotation, 'annotation_level' | 'message' | 'title' | 'raw_details'>): Annotation[] {
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
 * Vitest and Jest (and a bare uncaught error): a failure opens with a header naming the test (`FAIL  file > suite
 * > test`, `● suite › test`) or with an `…Error: message` line, and is placed at its first stack location inside
 * the repository (`❯ file:line:col`, `at fn (file:line:col)`). The lines between become the details.
 */
function testFailures(repoPath: RepoPath): Format {
  const vitestHeader = /^\s*FAIL\s+\S+\s+>\s+(?<title>.+?)\s*$/
  const jestHeader = /^\s*● (?<title>.+?)\s*$/
  // `node --test`'s spec reporter: `✖ adds two numbers (1.2ms)`, then the error and its stack.
  const nodeSpecHeader = /^\s*✖ (?<title>.+?) \(\d+(?:\.\d+)?m?s\)\s*$/
  const errorLine = /^\s*(?:[\w$]+\.)*[\w$]*(?:Error|Exception)(?: \[\w+\])?: \S/
  const vitestFrame = /^\s*❯ (?:.+ )?(?<path>\S+?):(?<line>\d+):(?<column>\d+)\s*$/
  const stackFrame = /^\s*at (?:.+? \()?(?<path>[^\s()]+?):(?<line>\d+):(?<column>\d+)\)?\s*$/
  const separator = /^[\s⎯─-]*(?:\[\d+\/\d+\])?[\s⎯─-]*$/
  let failure: { title?: string; lines: string[] } | undefined
  return {
    line(text) {
      const header = (vitestHeader.exec(text) ?? jestHeader.exec(text) ?? nodeSpecHeader.exec(text))?.groups
      if (header) {
        failure = header.title === 'Console' ? undefined : { title: header.title!, lines: [] }
        return []
      }
      const frame = (vitestFrame.exec(text) ?? stackFrame.exec(text))?.groups
      if (frame) {
        if (failure === undefined || repoPath(frame.path!) === undefined) return []
        const [message = '', ...details] = failure.lines
        const annotations = at(repoPath, { path: frame.path!, line: frame.line!, column: frame.column }, {
          annotation_level: 'failure',
          message,
          ...(failure.title ? { title: failure.title } : {}),
          ...(details.length ? { raw_details: details.join('\n') } : {}),
        })
        failure = undefined
        return annotations
      }
      if (failure === undefined && errorLine.test(text)) failure = { lines: [] }
      if (failure !== undefined && !separator.test(text) && failure.lines.length < DETAIL_LINES) failure.lines.push(text.trim())
      return null
    },
  }
}

/**
 * `node --test`'s TAP reporter: `not ok 1 - adds`, then a YAML block with `location: '/repo/test/a.test.js:3:1'`,
 * `error: |-` (the message) and `stack: |-` (frames without `at`). The annotation goes where the stack first meets the
 * repository (the failing assertion), else on the test's location.
 */
function nodeTap(repoPath: RepoPath): Format {
  const notOk = /^\s*not ok \d+ - (?<title>.+?)\s*$/
  const key = /^(?<indent>\s*)(?<name>[\w]+):\s?(?<value>.*)$/
  const frame = /\(?(?<path>[^\s()]+?):(?<line>\d+):(?<column>\d+)\)?\s*$/
  let test: { title: string; indent?: number; location?: Location; frame?: Location; block?: string; message: string[] } | undefined
  const finish = (): Annotation[] => {
    const done = test
    test = undefined
    const where = done?.frame ?? done?.location
    if (!done || !where) return []
    const [message = '', ...details] = done.message.map((l) => l.trim()).filter(Boolean)
    return at(repoPath, where, { annotation_level: 'failure', message, title: done.title, ...(details.length ? { raw_details: details.join('\n') } : {}) })
  }
  return {
    line(text) {
      const failed = notOk.exec(text)?.groups
      if (failed) {
        const previous = finish()
        test = { title: failed.title!, message: [] }
        return previous
      }
      if (!test) return null
      if (/^\s*\.\.\.\s*$/.test(text)) return finish()
      const field = key.exec(text)?.groups
      if (field && (test.indent === undefined || field.indent!.length <= test.indent)) {
        test.indent ??= field.indent!.length
        test.block = field.value === '|-' || field.value === '|' ? field.name : undefined
        const location = field.name === 'location' ? /^'?(?<path>.+):(?<line>\d+):(?<column>\d+)'?$/.exec(field.value!)?.groups : undefined
        if (location) test.location = { path: location.path!, line: location.line!, column: location.column }
        return []
      }
      if (test.block === 'error' && test.message.length < DETAIL_LINES) test.message.push(text)
      if (test.block === 'stack' && !test.frame) {
        const place = frame.exec(text)?.groups
        if (place && repoPath(place.path!) !== undefined) test.frame = { path: place.path!, line: place.line!, column: place.column }
      }
      return []
    },
    end: () => finish(),
  }
}

/**
 * pytest: a traceback section (`___ test_x ___` … `E   assert …` … `tests/test_a.py:12: AssertionError`) and the
 * short summary (`FAILED tests/test_a.py::test_x - assert …`), which is placed on line 1 of the file when no
 * traceback of that test was printed.
 */
function pytest(repoPath: RepoPath): Format {
  const section = /^_{3,} (?<test>.+?) _{3,}$/
  const explanation = /^E\s+(?<text>.*)$/
  const raisedAt = /^(?<path>\S+\.py):(?<line>\d+): (?<exception>[\w.]+)$/
  const calledFrom = /^\S+\.py:\d+:(?: in \S+)?\s*$/
  const summary = /^(?<outcome>FAILED|ERROR) (?<path>\S+?\.py)(?:::(?<test>\S+))?(?: - (?<message>.+))?$/
  let test: string | undefined
  let explained: string[] = []
  const annotatedTests = new Set<string>()
  return {
    line(text) {
      const opened = section.exec(text)?.groups
      if (opened) {
        test = opened.test!
        explained = []
        return []
      }
      const explains = test === undefined ? undefined : explanation.exec(text)?.groups
      if (explains) {
        explained.push(explains.text!)
        return []
      }
      const raised = raisedAt.exec(text)?.groups
      if (raised) {
        const annotations = at(repoPath, { path: raised.path!, line: raised.line! }, {
          annotation_level: 'failure',
          message: explained.length ? explained.join('\n') : raised.exception!,
          ...(test ? { title: test } : {}),
        })
        if (test) annotatedTests.add(test)
        explained = []
        return annotations
      }
      const failed = summary.exec(text)?.groups
      if (failed) {
        const title = failed.test?.replace(/::/g, '.')
        if (title !== undefined && annotatedTests.has(title)) return []
        return at(repoPath, { path: failed.path!, line: 1 }, {
          annotation_level: 'failure',
          message: failed.message ?? (failed.outcome === 'ERROR' ? 'error' : 'failed'),
          ...(title ? { title } : {}),
        })
      }
      return calledFrom.test(text) ? [] : null
    },
  }
}

/**
 * `go test`: `    calc_test.go:12: message` under `=== RUN   TestX` / `--- FAIL: TestX`. The file is named
 * relative to its package; the package line that ends its output (`FAIL\texample.com/m/pkg\t0.01s`) gives the
 * directory when the module path is known.
 */
function goTest(repoPath: RepoPath, goModule: string | undefined): Format {
  const testLine = /^\s*(?:=== RUN|--- FAIL:)\s+(?<test>\S+)/
  const logLine = /^\s+(?<file>[\w.-]+\.go):(?<line>\d+): (?<message>.+)$/
  const packageLine = /^(?:FAIL|ok)\s*\t(?<package>\S+)/
  let test: string | undefined
  let pending: Array<{ file: string; line: string; message: string; test: string | undefined }> = []
  const flush = (packagePath: string | undefined) => {
    const dir = packageDir(packagePath, goModule)
    const annotations = pending.flatMap((p) =>
      at(repoPath, { path: dir ? `${dir}/${p.file}` : p.file, line: p.line }, { annotation_level: 'failure', message: p.message, ...(p.test ? { title: p.test } : {}) }),
    )
    pending = []
    return annotations
  }
  return {
    line(text) {
      const running = testLine.exec(text)?.groups
      if (running) {
        test = running.test!
        return []
      }
      const logged = logLine.exec(text)?.groups
      if (logged) {
        pending.push({ file: logged.file!, line: logged.line!, message: logged.message!, test })
        return []
      }
      const ended = packageLine.exec(text)?.groups
      return ended ? flush(ended.package!) : null
    },
    end: () => flush(undefined),
  }
}

function packageDir(packagePath: string | undefined, goModule: string | undefined): string | undefined {
  if (packagePath === undefined || goModule === undefined) return undefined
  if (packagePath === goModule) return ''
  return packagePath.startsWith(`${goModule}/`) ? packagePath.slice(goModule.length + 1) : undefined
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

/** Annotations parsed from the output of every failing command of an execution record. */
export function failureAnnotations(record: ExecutionRecord | undefined, repoRoot: string): Annotation[] {
  return Object.values(record?.tasks ?? {})
    .flatMap((task) => task.convergence_verified)
    .filter((check) => check.kind === 'command' && check.verdict === 'fail' && check.output_tail)
    .flatMap((check) => parseAnnotations(check.output_tail!, { repoRoot }))
}
