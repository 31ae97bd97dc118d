import type { InlineText } from './markdown.js'
import { filePath } from './phrases.js'
import { squash } from './text.js'

/**
 * Sentences that say how the work is checked rather than what the work is: "Run `npm test`" (a verification
 * command, not a task), "… with `npm test -- totals` as the check", and numeric targets ("p95 under 250 ms,
 * at most 3 queries"), which are criteria wherever they are written.
 */

/** "Run `cmd` …", in the languages issues are written in. */
const RUN_LEAD = /^\s*(?:please\s+|then\s+|and\s+)?(?:run|re-?run|execute|launch|运行|执行|実行して|実行|rode|roda|ejecuta|ejecutar|führe|lance[rz]?|запусти(?:те)?|выполни(?:те)?)\b[^`]{0,20}$/i
/** What may follow the command: "and check that every test passes", "before opening the pull request". */
const CHECK_TAIL = /^\s*(?:and\s+)?(?:check|verify|make sure|ensure|confirm|see)\s+(?:that\s+)?(.+?)[.!]?$/i

/** A command that runs a project's tests or benchmarks (not a file path, not a git or package-manager chore). */
const TEST_COMMAND =
  /^(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:test|bench|check|e2e)\b|npx\s+(?:vitest|jest|mocha|playwright|tsc)\b|(?:python\s+-m\s+)?pytest\b|go\s+test\b|cargo\s+(?:test|bench)\b|mvn\s+(?:test|verify)\b|gradle\w*\s+test\b|make\s+(?:test|check)\b|tox\b|rspec\b|phpunit\b|dotnet\s+test\b|deno\s+test\b)/i

export interface RunStatement {
  command: string
  /** What the reporter says to check after running it, when the line says it ("… and check that every test passes"). */
  check?: string
}

/**
 * A line that tells the reader to run one command: `` Run `npm test` ``, `` Run `npm test` and check that every
 * test passes ``. A lone path is not a command.
 */
export function runStatement(line: InlineText): RunStatement | undefined {
  const [span] = line.codeSpans
  if (!span || line.codeSpans.length !== 1 || !RUN_LEAD.test(span.before)) return undefined
  const command = span.code.replace(/^\s*\$\s+/, '').trim()
  if (!command || filePath(command)) return undefined
  const after = squash(line.plain.slice(line.plain.indexOf(span.code) + span.code.length))
  const check = CHECK_TAIL.exec(after)?.[1]
  return check ? { command, check } : { command }
}

/** Code spans of prose that are test or benchmark commands ("I bisected with `npm test -- totals` as the check"). */
export function testCommands(line: InlineText): string[] {
  return line.codeSpans.map((s) => s.code.replace(/^\s*\$\s+/, '').trim()).filter((code) => TEST_COMMAND.test(code))
}

/** A target with a number and a unit or a percentile: "p95 under 250 ms", "at most 3 queries", "below 2%". */
const NUMERIC_TARGET =
  /(?<![\p{L}\d])(?:under|below|at most|at least|less than|more than|fewer than|no more than|within|up to|p(?:50|75|90|95|99)|menos de|m[áa]s de|como m[áa]ximo|no m[áa]s de|abaixo de|no m[áa]ximo|moins de|en dessous de|au plus|au maximum|inf[ée]rieur [àa]|unter|weniger als|h[öo]chstens|maximal|не более|менее|меньше|до)\s*~?\d[\d.,]*\s*(?:ms|s|secs?|seconds?|segundos?|secondes?|sekunden|мс|минут\S*|секунд\S*|minutes?|minutos?|%|kb|mb|gb|queries|requests|calls|rows|items|fps|x|consultas|requisi[çc][õo]es|requ[êe]tes|anfragen|запрос\S*)(?![\p{L}\d])|[≤≥]\s*\d|\d[\d.,]*\s*(?:ms|秒|ミリ秒|毫秒|分|초|밀리초|%|件|回|次)\s*(?:以内|以下|未満|内|이내|이하|미만)/iu

export function isNumericTarget(sentence: string): boolean {
  return NUMERIC_TARGET.test(sentence)
}
