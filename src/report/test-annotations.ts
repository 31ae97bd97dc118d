/**
 * Test runners' failures as annotations: Vitest and Jest, `node --test` (spec and TAP reporters), pytest and
 * `go test`. Each recogniser is fed every line of a failing command's output by `parseAnnotations`.
 */
import type { Annotation } from './annotations.js'
import { at, DETAIL_LINES, type Format, type Location, type RepoPath } from './annotation-format.js'

/**
 * Vitest and Jest (and a bare uncaught error): a failure opens with a header naming the test (`FAIL  file > suite
 * > test`, `● suite › test`) or with an `…Error: message` line, and is placed at its first stack location inside
 * the repository (`❯ file:line:col`, `at fn (file:line:col)`). The lines between become the details.
 */
export function testFailures(repoPath: RepoPath): Format {
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
export function nodeTap(repoPath: RepoPath): Format {
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
export function pytest(repoPath: RepoPath): Format {
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
export function goTest(repoPath: RepoPath, goModule: string | undefined): Format {
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
