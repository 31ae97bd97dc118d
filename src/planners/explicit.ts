import type { MarkedToken } from 'marked'
import { ISSUE_ID, issueId, solutionId, solutionIdIssue } from '../model/index.js'
import { readPlanJson } from '../plan/read.js'
import { fromTaskmaster } from '../plan/taskmaster.js'
import type { PlanError } from '../plan/schema-errors.js'
import { codeBlock, lexMarkdown } from './markdown.js'
import type { IssueDocument, PlannerOutput } from './types.js'

export type ExplicitPlanBlock =
  | { found: false }
  | {
      found: true
      /** The JSON text inside the fence. */
      text: string
      /** 1-based line, in the markdown, of the block's first JSON line. */
      line: number
      /** How many blocks qualified; the last one is used. */
      candidates: number
    }

/**
 * Finds the plan in markdown: a fenced block (```` ``` ```` or `~~~`) whose language is `json`, at
 * the top level of the document (not inside a list or a quote), holding an object with a `tasks`
 * key. A block that is not valid JSON but mentions `"tasks"` also counts, so that a plan with a typo
 * is reported rather than silently replaced by another planner. When several blocks qualify the
 * last one wins: a later block is usually a corrected version of an earlier one.
 */
export function findExplicitPlan(markdown: string): ExplicitPlanBlock {
  const source = markdown.replace(/\r\n?/g, '\n')
  let cursor = 0
  let last: { text: string; line: number } | undefined
  let candidates = 0
  for (const token of lexMarkdown(source) as MarkedToken[]) {
    if (token.type !== 'code') continue
    // The lexer keeps a code token's raw text verbatim, so it can be found again to count lines.
    const offset = source.indexOf(token.raw, cursor)
    if (offset >= 0) cursor = offset + token.raw.length
    const block = codeBlock(token)
    if (block.lang !== 'json' || !holdsPlan(block.text)) continue
    candidates++
    last = { text: block.text, line: lineAt(source, Math.max(offset, 0)) + 1 }
  }
  return last ? { found: true, ...last, candidates } : { found: false }
}

function holdsPlan(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text)
    // Taskmaster's tagged tasks.json keeps its tasks a level down ({ "master": { "tasks": […] } }).
    return typeof value === 'object' && value !== null && !Array.isArray(value) && ('tasks' in value || fromTaskmaster(value, 0) !== undefined)
  } catch {
    return text.includes('"tasks"')
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++
  return line
}

/**
 * The explicit planner: the plan block of a `/converge plan` comment (`source`) or of the issue
 * body. Fills `id` (`SOL-ISS-<n>-<seq>`) and `issue_id` (`ISS-<n>`) when missing and leaves the rest
 * exactly as written. A plan that names another issue is kept as written and noted: the caller
 * decides. Invalid JSON comes back as `error`, located in the issue or comment.
 */
export function explicitPlan(issue: IssueDocument, source?: string, seq = 1, sourceName = 'the comment'): PlannerOutput {
  const where = source === undefined ? 'the issue body' : sourceName
  const block = findExplicitPlan(source ?? issue.body)
  if (!block.found) return noPlanBlock(where)
  const notes = [
    block.candidates > 1
      ? `found ${block.candidates} \`\`\`json plan blocks in ${where}: used the last one (line ${block.line})`
      : `read the \`\`\`json plan block on line ${block.line} of ${where}`,
  ]
  const json = readPlanJson(block.text)
  if (!json.ok) return { planner: 'explicit', raw: undefined, notes, error: locate(json.error, block.line, where) }
  const taskmaster = fromTaskmaster(json.value, issue.number)
  if (taskmaster) notes.push('read as a Taskmaster tasks.json')
  return { planner: 'explicit', raw: taskmaster ?? withIds(json.value, issue.number, seq, notes), notes }
}

/** The explicit planner's answer when there is no plan block to read. */
export function noPlanBlock(where: string): PlannerOutput {
  return {
    planner: 'explicit',
    raw: undefined,
    notes: [`no \`\`\`json plan block in ${where}`],
    error: {
      code: 'no_plan_block',
      path: '(root)',
      message: `No \`\`\`json block holding a plan (an object with "tasks") in ${where}`,
      hint: 'Add a fenced ```json block with the solution, or use the built-in planner (planner: builtin)',
    },
  }
}

/** Fills missing ids; anything that is not an object is returned as is, for validation to report. */
function withIds(value: unknown, issueNumber: number, seq: number, notes: string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  const plan = value as Record<string, unknown>
  const missing = (key: string) => plan[key] === undefined || plan[key] === null || plan[key] === ''
  const filled: Record<string, unknown> = {}
  if (missing('id')) {
    filled.id = solutionId(issueNumber, seq)
    notes.push(`filled in id ${filled.id}`)
  }
  if (missing('issue_id')) {
    filled.issue_id = issueId(issueNumber)
    notes.push(`filled in issue_id ${filled.issue_id}`)
  }
  const own = issueId(issueNumber)
  if (typeof plan.issue_id === 'string' && ISSUE_ID.test(plan.issue_id) && plan.issue_id !== own)
    notes.push(`the plan's issue_id is ${plan.issue_id}, not ${own} (this issue): kept as written`)
  // CCW's ids name the issue too (`SOL-GH-124-a7x9`).
  const solutionIssue = typeof plan.id === 'string' ? solutionIdIssue(plan.id) : undefined
  if (solutionIssue !== undefined && solutionIssue !== issueNumber)
    notes.push(`the plan's id ${String(plan.id)} belongs to ISS-${solutionIssue}, not ${own}: kept as written`)
  const rest = Object.fromEntries(Object.entries(plan).filter(([key]) => !(key in filled)))
  return { ...filled, ...rest }
}

/** Moves a JSON syntax error's line from the block to the document, where the user can find it. */
function locate(error: PlanError, firstLine: number, where: string): PlanError {
  const at = /at line (\d+), column (\d+)/.exec(error.message)
  if (!at) return { ...error, message: `${error.message} (in the \`\`\`json block starting on line ${firstLine} of ${where})` }
  const line = firstLine + Number(at[1]) - 1
  return { ...error, message: error.message.replace(at[0], `at line ${line}, column ${at[2]} of ${where} (line ${at[1]} of the \`\`\`json block)`) }
}
