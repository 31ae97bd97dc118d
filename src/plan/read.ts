import { parse as parseTolerant, printParseErrorCode, type ParseError } from 'jsonc-parser'
import { issueId, SolutionInputSchema, SOLUTION_KEYS, TASK_KEYS, type Finding, type Solution } from '../model/index.js'
import { SOFT_FILE_ENUMS, SOFT_TASK_ENUMS, type SoftEnum } from '../model/task.js'
import { quoteInput } from '../model/enums.js'
import { toPlanErrors, type PlanError } from './schema-errors.js'

export type ParsedSolution =
  | { ok: true; solution: Solution; warnings: Finding[] }
  | { ok: false; errors: PlanError[]; warnings: Finding[] }

/** Plans larger than this are refused before parsing; real plans are a few kilobytes. */
export const MAX_PLAN_BYTES = 32 * 1024 * 1024

/** Nesting of arrays and objects allowed in a plan; real plans nest about six levels, and every reader downstream recurses. */
export const MAX_PLAN_DEPTH = 100

/** The offset where `text` (JSON) opens its `limit + 1`-th nested array or object, if it does; strings are skipped. */
function nestingBeyond(text: string, limit: number): number | undefined {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++ // backslash: the next character is escaped
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return undefined
}

/** Parses plan text as JSON, reporting a syntax error with its line and column. */
export function readPlanJson(text: string): { ok: true; value: unknown } | { ok: false; error: PlanError } {
  if (text.length > MAX_PLAN_BYTES)
    return { ok: false, error: { code: 'too_large', path: '(root)', message: `Plan is ${text.length} bytes; the limit is ${MAX_PLAN_BYTES}`, hint: 'Split the work into several issues' } }
  const tooDeep = nestingBeyond(text, MAX_PLAN_DEPTH)
  if (tooDeep !== undefined) {
    const { line, column } = lineAndColumn(text, tooDeep)
    return {
      ok: false,
      error: {
        code: 'too_deep',
        path: '(root)',
        message: `Plan is too deeply nested at line ${line}, column ${column}: more than ${MAX_PLAN_DEPTH} levels of arrays and objects`,
        hint: 'A plan is a solution object with a list of tasks; nothing in it nests this deep',
      },
    }
  }
  try {
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) }
  } catch {
    return { ok: false, error: jsonSyntaxError(text) }
  }
}

/**
 * V8 gives no position for some syntax errors on Node 20 (a prose line before the JSON, input cut
 * short), so the position comes from a second, error-collecting parse with JSON's own rules.
 */
function jsonSyntaxError(text: string): PlanError {
  const errors: ParseError[] = []
  parseTolerant(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false })
  const first = errors[0]
  const what = first ? words(printParseErrorCode(first.error)) : 'not valid JSON'
  const where = first ? lineAndColumn(text, first.offset) : undefined
  const near = first ? text.slice(first.offset, first.offset + 30).split('\n')[0] : ''
  return {
    code: 'invalid_json',
    path: '(root)',
    message: `Not valid JSON${where ? ` at line ${where.line}, column ${where.column}` : ''}: ${what}${near ? ` near "${near}"` : ''}`,
    hint: 'Check for a missing comma or quote, trailing commas and comments, which JSON does not allow',
  }
}

/** `CommaExpected` → `comma expected`. */
function words(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
}

/** What the reader knows about a plan from where it was found. */
export interface PlanContext {
  /**
   * The issue the plan is for: the issue whose block holds it, `--number`, or the plan file's name
   * (`GH-123.jsonl`). A plan without `issue_id` is read for it — CCW carries the issue outside the solution.
   */
  issueNumber?: number
}

/** Validates and normalises a solution; unknown fields are kept out and reported as warnings. */
export function parseSolution(raw: unknown, context: PlanContext = {}): ParsedSolution {
  const input = withContext(raw, context.issueNumber)
  const warnings = unknownFieldWarnings(input)
  const lostDependencies = unreadDependencyFields(input)
  const elsewhere = tasksElsewhere(input)
  if (elsewhere) return { ok: false, errors: [elsewhere], warnings }
  const result = SolutionInputSchema.safeParse(input, { reportInput: true })
  if (!result.success) return { ok: false, errors: [...lostDependencies, ...toPlanErrors(result.error.issues)], warnings }
  if (lostDependencies.length) return { ok: false, errors: lostDependencies, warnings }
  return { ok: true, solution: result.data, warnings: [...warnings, ...unknownEnumValues(input, result.data)] }
}

/**
 * The plan as CCW leaves it to its reader: the issue from where the plan was found when it names none, and
 * `summary` (lite and fix plans) as the description when there is none.
 */
function withContext(raw: unknown, issueNumber: number | undefined): unknown {
  if (!isObject(raw)) return raw
  const plan = { ...raw }
  if (issueNumber !== undefined && plan.issue_id === undefined) plan.issue_id = issueId(issueNumber)
  if (plan.description === undefined && typeof plan.summary === 'string') plan.description = plan.summary
  return plan
}

/** CCW's two-layer lite plan: `plan.json` lists `task_ids` and each task is a file of its own under `.task/`. */
function tasksElsewhere(raw: unknown): PlanError | undefined {
  if (!isObject(raw) || raw.tasks !== undefined || !Array.isArray(raw.task_ids)) return undefined
  return {
    code: 'tasks_elsewhere',
    path: 'tasks',
    message: `The plan lists task_ids (${raw.task_ids.slice(0, 5).join(', ')}) but holds no tasks: this is a plan overview whose tasks are separate files`,
    hint: 'Put the task objects (the .task/*.json files) in a "tasks" array of this plan, in order',
  }
}

/**
 * Values of optional enum fields that are not in the enum (CCW's `"action": "Notify"`, the docs' `"type": "new
 * file"`): read as if left out, inferred, and reported with what they were read as.
 */
function unknownEnumValues(raw: unknown, solution: Solution): Finding[] {
  const findings: Finding[] = []
  if (!isObject(raw) || !Array.isArray(raw.tasks)) return findings
  const report = (value: unknown, known: SoftEnum, path: string, field: string, readAs: string, taskId: string) => {
    if (typeof value !== 'string' || known.schema.safeParse(value).success) return
    findings.push({
      rule: 'unknown-enum-value',
      severity: 'low',
      task_id: taskId,
      path,
      message: `${field} ${quoteInput(value)} is not one of ${known.values.join(', ')}: read as "${readAs}"`,
      fix: `Use one of ${known.values.join(', ')}, or leave ${field} out to have it inferred`,
    })
  }
  raw.tasks.forEach((task, i) => {
    const read = solution.tasks[i]
    if (!isObject(task) || !read) return
    for (const [field, known] of Object.entries(SOFT_TASK_ENUMS))
      report(task[field], known, `tasks[${i}].${field}`, field, String(read[field as keyof typeof SOFT_TASK_ENUMS]), read.id)
    if (!Array.isArray(task.files)) return
    task.files.forEach((file, k) => {
      const readFile = isObject(file) ? read.files.find((f) => f.path === String(file.path).trim()) : undefined
      if (isObject(file) && readFile) report(file.action, SOFT_FILE_ENUMS.action, `tasks[${i}].files[${k}].action`, 'file action', readFile.action, read.id)
    })
  })
  return findings
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++
    lineStart = i + 1
  }
  return { line, column: offset - lineStart + 1 }
}

const NESTED_KEYS: Record<string, readonly string[]> = {
  convergence: ['criteria', 'verification', 'definition_of_done', 'criteria_commands'],
  acceptance: ['criteria', 'verification', 'manual_checks'],
  test: ['commands', 'unit', 'integration', 'manual_checks'],
  files: ['path', 'action', 'target', 'changes', 'change'],
  modification_points: ['file', 'target', 'change', 'changes'],
  verification: ['unit_tests', 'integration_tests', 'manual_checks', 'success_metrics'],
}

function unknownFieldWarnings(raw: unknown): Finding[] {
  const warnings: Finding[] = []
  if (!isObject(raw)) return warnings
  checkKeys(raw, SOLUTION_KEYS, '', warnings)
  if (!Array.isArray(raw.tasks)) return warnings
  raw.tasks.forEach((task, i) => {
    if (!isObject(task)) return
    const at = `tasks[${i}]`
    const taskId = typeof task.id === 'string' ? task.id : undefined
    checkKeys(task, TASK_KEYS, at, warnings, taskId)
    for (const [key, known] of Object.entries(NESTED_KEYS)) {
      const value = task[key]
      if (isObject(value)) checkKeys(value, known, `${at}.${key}`, warnings, taskId)
      else if (Array.isArray(value))
        value.forEach((item, k) => isObject(item) && checkKeys(item, known, `${at}.${key}[${k}]`, warnings, taskId))
    }
  })
  return warnings
}

/** Task fields that state dependencies and are read; see `TaskInputObject`. */
const DEPENDENCY_KEYS = ['depends_on', 'dependencies']
/** A field name that says "this task waits for others". */
const DEPENDENCY_NAME = /depend|prereq|requires|blocked|after|wait|predecessor|needs/i

/**
 * A dependency is never dropped in silence: an unknown task field that looks like one — by its name, or by
 * holding ids of the plan's tasks — is an error, where other unknown fields are only a remark.
 */
function unreadDependencyFields(raw: unknown): PlanError[] {
  if (!isObject(raw) || !Array.isArray(raw.tasks)) return []
  const ids = new Set(raw.tasks.flatMap((t) => (isObject(t) && (typeof t.id === 'string' || typeof t.id === 'number') ? [String(t.id)] : [])))
  const holdsTaskIds = (value: unknown) =>
    Array.isArray(value) && value.length > 0 && value.every((v) => (typeof v === 'string' || typeof v === 'number') && ids.has(String(v)))
  const errors: PlanError[] = []
  raw.tasks.forEach((task, i) => {
    if (!isObject(task)) return
    for (const [key, value] of Object.entries(task)) {
      if (TASK_KEYS.includes(key) || key === 'id') continue
      if (!DEPENDENCY_NAME.test(key) && !holdsTaskIds(value)) continue
      errors.push({
        code: 'unread_dependency',
        path: `tasks[${i}].${key}`,
        message: `Field "${key}" looks like a dependency list but is not read; the task's dependencies would be lost`,
        hint: `Did you mean "depends_on"? Dependencies are read from ${DEPENDENCY_KEYS.map((k) => `"${k}"`).join(', ')} and "context.depends_on"`,
      })
    }
  })
  return errors
}

function checkKeys(obj: Record<string, unknown>, known: readonly string[], at: string, out: Finding[], taskId?: string) {
  for (const key of Object.keys(obj)) {
    if (known.includes(key)) continue
    const suggestion = closest(key, known)
    out.push({
      rule: 'unknown-field',
      severity: 'low',
      ...(taskId ? { task_id: taskId } : {}),
      path: at ? `${at}.${key}` : key,
      message: `Unknown field "${key}" is ignored`,
      fix: suggestion ? `Did you mean "${suggestion}"?` : `Remove it, or use one of: ${known.join(', ')}`,
    })
  }
}

function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Math.max(2, Math.floor(key.length / 4))
  for (const candidate of known) {
    const d = editDistance(key.toLowerCase(), candidate)
    if (d <= bestDistance) { best = candidate; bestDistance = d }
  }
  return best
}

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = current
  }
  return previous[b.length]!
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
