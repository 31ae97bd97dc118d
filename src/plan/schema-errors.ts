import type { z } from 'zod'
import { FILE_ACTIONS, PRIORITIES, TASK_ACTIONS, TASK_TYPES } from '../model/index.js'

/** A plan that cannot be read: where (JSON path), what, and how to fix it. */
export interface PlanError {
  code: string
  path: string
  message: string
  hint: string
}

/** `['tasks', 2, 'convergence', 'criteria']` → `tasks[2].convergence.criteria`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else out += out ? `.${String(key)}` : String(key)
  }
  return out || '(root)'
}

/** The same path with indexes removed (`tasks[].convergence.criteria`), to look up a hint. */
function pathShape(path: readonly PropertyKey[]): string {
  return path.map((k) => (typeof k === 'number' ? '[]' : String(k))).join('.').replace(/\.\[\]/g, '[]')
}

const HINTS: Record<string, string> = {
  id: 'Use SOL-ISS-<issue number>-<sequence>, e.g. "SOL-ISS-42-1"',
  issue_id: 'Use ISS-<issue number>, e.g. "ISS-42"',
  description: 'Describe the solution in one or two sentences',
  tasks: 'Add at least one task: { "id": "T1", "title": …, "action": "Modify", … }',
  'tasks[]': 'Each task is an object with at least id, title and action',
  'tasks[].id': 'Use T1, T2, … (TASK-001 is read as T1)',
  'tasks[].title': 'Give the task a short imperative title, e.g. "Add token refresh"',
  'tasks[].action': `Use one of ${TASK_ACTIONS.join(', ')}`,
  'tasks[].type': `Use one of ${TASK_TYPES.join(', ')}, or leave it out to have it inferred`,
  'tasks[].priority': `Use one of ${PRIORITIES.join(', ')} or a number from 1 (most urgent) to 5`,
  'tasks[].effort': 'Use small, medium or large, or leave it out to have it inferred',
  'tasks[].files[].path': 'Give the file path relative to the repository root',
  'tasks[].files[].action': `Use one of ${FILE_ACTIONS.join(', ')}`,
  'tasks[].implementation[]': 'Write each step as a string or as { "step": "1", "description": …, "actions": [] }',
  'tasks[].depends_on': 'List the ids of tasks that must finish first, e.g. ["T1"]',
  'tasks[].depends_on[]': 'Each dependency is a task id string such as "T1"',
  'tasks[].convergence.criteria': 'List observable conditions, e.g. ["GET /health returns 200"]',
  'tasks[].convergence.verification': 'Give one command per line (e.g. "npm test") or "Manual: <step>"',
  'tasks[].test.commands': 'List shell commands that verify the task, e.g. ["npm test -- auth"]',
  'tasks[].estimated_minutes': 'Use a positive number of minutes',
  'analysis.risk': 'Use low, medium or high',
  'analysis.impact': 'Use low, medium or high',
  'analysis.complexity': 'Use low, medium or high',
  score: 'Use a number between 0 and 1, or leave it out',
  is_bound: 'Use true or false',
}

/** Turns zod issues into path-precise errors with a fix hint. */
export function toPlanErrors(issues: readonly z.core.$ZodIssue[]): PlanError[] {
  return issues.map((issue) => {
    const path = formatPath(issue.path)
    const shape = pathShape(issue.path)
    const key = issue.path[issue.path.length - 1]
    const hint = HINTS[shape] ?? HINTS[shape.replace(/\[\]$/, '')] ?? genericHint(issue)
    return { code: issue.code, path, message: describe(issue, key), hint }
  })
}

function describe(issue: z.core.$ZodIssue, key: PropertyKey | undefined): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `Missing required field${key !== undefined ? ` "${String(key)}"` : ''}`
      return `Expected ${issue.expected}, got ${kindOf(issue.input)}`
    case 'invalid_union':
      return 'Value does not match any accepted form'
    case 'too_small':
      return issue.origin === 'array'
        ? `Needs at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}`
        : issue.origin === 'string' ? 'Must not be empty' : `Must be at least ${issue.minimum}`
    case 'too_big':
      return `Must be at most ${issue.maximum}`
    default:
      return issue.message
  }
}

function genericHint(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    if (issue.path.length === 0 && issue.expected === 'object')
      return 'A plan is one JSON object (a solution with its tasks), not a list: pass one solution, or a .jsonl of solutions with --all'
    return `Provide ${/^[aeiou]/.test(String(issue.expected)) ? 'an' : 'a'} ${issue.expected}`
  }
  return 'See schemas/solution.schema.json for the accepted shape'
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`
}
