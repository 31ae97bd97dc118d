/**
 * Test counts read from the summary a test runner prints at the end, for the validate step (`pass_rate`).
 *
 * Each format below finds the last summary it recognises; of those, the one printed last wins, and on the same
 * line the more specific format (listed first) wins over the plain `N passed, N failed`. Formats whose runner
 * prints one summary per test binary or package (cargo, go) add those up, as one run of the tool prints them.
 */
import { stripAnsi } from '../report/ansi.js'

export interface TestCounts {
  passed: number
  failed: number
  /** Present when the summary reports skipped (or pending, todo, ignored) tests. */
  skipped?: number
  framework: string
}

interface Summary {
  /** Index of the summary's last line. */
  line: number
  counts: TestCounts
}

type Format = (lines: readonly string[]) => Summary | undefined

export function parseTestCounts(output: string): TestCounts | undefined {
  const lines = stripAnsi(output).split(/\r\n|\r|\n/)
  let last: Summary | undefined
  for (const format of FORMATS) {
    const summary = format(lines)
    if (summary && (!last || summary.line > last.line)) last = summary
  }
  return last?.counts
}

/** Passed tests as a percentage of passed and failed ones (skipped ones left out); 0 when none ran. */
export function passRate(counts: TestCounts): number {
  const ran = counts.passed + counts.failed
  return ran === 0 ? 0 : Math.round((counts.passed / ran) * 1000) / 10
}

/** vitest: ` Tests  3 failed | 12 passed | 1 skipped (16)`. */
const vitest: Format = (lines) =>
  lastLine(lines, /^\s*Tests\s{2,}(\d+ .*)\(\d+\)\s*$/, (match) => tally('vitest', match[1]))

/** jest: `Tests:       1 failed, 1 skipped, 4 passed, 6 total`. */
const jest: Format = (lines) => lastLine(lines, /^\s*Tests:\s+(.*\d+ total)\s*$/, (match) => tally('jest', match[1]))

/** pytest: `==== 1 failed, 2 passed, 1 skipped in 0.83s ====`, or the same without the rules (`-q`). */
const pytest: Format = (lines) =>
  lastLine(lines, /^(?:=+ )?(\d+ \w+(?:, \d+ \w+)*) in [\d.]+(?:s| seconds)\b/, (match) => tally('pytest', match[1]))

/** cargo: `test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s`. */
const cargo: Format = (lines) => {
  let [passed, failed, ignored, line] = [0, 0, 0, -1]
  lines.forEach((text, index) => {
    const match = /^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored;/.exec(text)
    if (!match) return
    passed += Number(match[1])
    failed += Number(match[2])
    ignored += Number(match[3])
    line = index
  })
  return line === -1 ? undefined : { line, counts: { passed, failed, skipped: ignored, framework: 'cargo' } }
}

/**
 * node's test runner and TAP producers (tape): a block of `# name N` lines (`ℹ name N` from node's spec
 * reporter) with at least `# pass N`. node's block also has `duration_ms`; its cancelled tests count as failed.
 */
const tapBlock: Format = (lines) => {
  const passLine = lines.findLastIndex((text) => /^[#ℹ]\s+pass\s+\d+\s*$/.test(text))
  if (passLine === -1) return undefined
  const isBlockLine = (text: string | undefined) => text !== undefined && /^[#ℹ]\s+\w+\s+\d+(?:\.\d+)?\s*$/.test(text)
  let first = passLine
  let last = passLine
  while (isBlockLine(lines[first - 1])) first--
  while (isBlockLine(lines[last + 1])) last++
  const values = new Map<string, number>()
  for (const text of lines.slice(first, last + 1)) {
    const [, name, value] = /^[#ℹ]\s+(\w+)\s+([\d.]+)/.exec(text)!
    values.set(name, Number(value))
  }
  const count = (name: string) => values.get(name) ?? 0
  const skipped = values.has('skipped') || values.has('todo') ? count('skipped') + count('todo') : undefined
  return {
    line: last,
    counts: {
      passed: count('pass'),
      failed: count('fail') + count('cancelled'),
      ...(skipped === undefined ? {} : { skipped }),
      framework: values.has('duration_ms') ? 'node' : 'tap',
    },
  }
}

/** mocha: `  5 passing (12ms)`, then `  1 pending` and `  1 failing` when there are any. */
const mocha: Format = (lines) => {
  const passingLine = lines.findLastIndex((text) => /^\s*\d+ passing\b/.test(text))
  if (passingLine === -1) return undefined
  const counts: TestCounts = { passed: Number(/\d+/.exec(lines[passingLine])![0]), failed: 0, framework: 'mocha' }
  let line = passingLine
  for (;;) {
    const match = /^\s*(\d+) (pending|failing)\s*$/.exec(lines[line + 1] ?? '')
    if (!match) return { line, counts }
    line++
    if (match[2] === 'failing') counts.failed = Number(match[1])
    else counts.skipped = Number(match[1])
  }
}

/**
 * go test: with `-v` (`=== RUN` lines) the top-level tests are counted from their `--- PASS/FAIL/SKIP:` lines
 * (subtests are not: a failing subtest fails its parent too); without it only failing tests are listed, so the
 * packages are counted instead, from their `ok  ` and `FAIL` lines.
 */
const go: Format = (lines) => {
  const verbose = lines.some((text) => text.startsWith('=== RUN'))
  const result = verbose ? /^--- (PASS|FAIL|SKIP): / : /^(ok  |FAIL)\t\S/
  let [passed, failed, skipped, line] = [0, 0, 0, -1]
  lines.forEach((text, index) => {
    const match = result.exec(text)
    if (!match) return
    line = index
    if (match[1] === 'FAIL') failed++
    else if (match[1] === 'SKIP') skipped++
    else passed++
  })
  if (line === -1) return undefined
  return { line, counts: { passed, failed, ...(verbose ? { skipped } : {}), framework: 'go' } }
}

/** Any tool: `12 passed, 3 failed` or `3 failed; 12 passed` on one line. */
const plain: Format = (lines) =>
  lastLine(lines, /\b(\d+ (?:passed|failed)[,;]\s*\d+ (?:passed|failed))\b/, (match) => tally('plain', match[1]))

/** In order of precedence when two formats end on the same line. */
const FORMATS: Format[] = [vitest, jest, pytest, cargo, tapBlock, mocha, go, plain]

function lastLine(
  lines: readonly string[],
  pattern: RegExp,
  read: (match: RegExpExecArray) => TestCounts | undefined,
): Summary | undefined {
  for (let line = lines.length - 1; line >= 0; line--) {
    const match = pattern.exec(lines[line])
    const counts = match && read(match)
    if (counts) return { line, counts }
  }
  return undefined
}

const PASSED_WORDS = new Set(['passed', 'xpassed'])
const FAILED_WORDS = new Set(['failed', 'error', 'errors'])
/** `xfailed`: pytest's expected failures, which do not fail the run. */
const SKIPPED_WORDS = new Set(['skipped', 'todo', 'pending', 'xfailed'])

/**
 * Counts from `N word` pairs (`3 failed | 12 passed`, `1 failed, 2 passed`); other words (`total`, `warnings`)
 * are ignored. undefined when no pair is about tests.
 */
function tally(framework: string, text: string): TestCounts | undefined {
  const counts: TestCounts = { passed: 0, failed: 0, framework }
  let recognised = false
  for (const [, number, word] of text.matchAll(/(\d+) (\w+)/g)) {
    const n = Number(number)
    if (PASSED_WORDS.has(word)) counts.passed += n
    else if (FAILED_WORDS.has(word)) counts.failed += n
    else if (SKIPPED_WORDS.has(word)) counts.skipped = (counts.skipped ?? 0) + n
    else continue
    recognised = true
  }
  return recognised ? counts : undefined
}
