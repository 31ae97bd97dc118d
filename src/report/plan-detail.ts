/**
 * The plan as a person approves it, for a terminal: each task with its files, dependencies, criteria and commands,
 * and how each criterion is checked; then the content hash the approval binds. Pure: data in, lines out.
 */
import type { Finding, Solution, Task } from '../model/index.js'
import { linkedCommand, verificationEntries } from '../model/verification.js'
import { plural } from './markdown.js'

/** Every task, in plan order, with what it changes, what it waits for and how it is proven. */
export function renderTaskDetails(solution: Solution): string[] {
  const lines = ['Tasks']
  for (const task of solution.tasks) lines.push('', ...taskDetail(task))
  return lines
}

function taskDetail(task: Task): string[] {
  const lines = [`  ${task.id}  ${task.title}`]
  lines.push(`      depends on: ${task.depends_on.length ? task.depends_on.join(', ') : 'nothing'}`)
  if (task.files.length) {
    lines.push('      files:')
    for (const file of task.files) {
      const changes = file.changes.length ? `: ${file.changes.join('; ')}` : ''
      lines.push(`        ${file.action.padEnd(6)} ${file.path}${file.target ? ` → ${file.target}` : ''}${changes}`)
    }
  } else {
    lines.push('      files: none named')
  }
  const entries = verificationEntries(task)
  const commands = entries.filter((e) => e.kind === 'command')
  const manual = entries.filter((e) => e.kind === 'manual')
  if (task.convergence.criteria.length) {
    lines.push('      criteria:')
    // A criterion the plan links to a command it runs (`convergence.criteria_commands`) is checked by that command,
    // as the run records it; any other criterion is never run: the executor's report may mark it met, else a person.
    for (const criterion of task.convergence.criteria) {
      const command = linkedCommand(task, criterion)
      lines.push(`        - ${criterion}  [checked by: ${command ? `\`${command}\`` : "the agent's report, else a person"}]`)
    }
  }
  lines.push(commands.length ? '      commands (Converge runs each; exit code 0 passes):' : '      commands: none: no command proves this task')
  for (const entry of commands) lines.push(`        $ ${entry.command}`)
  if (manual.length) {
    lines.push('      manual checks (listed for a person, never run):')
    for (const entry of manual) lines.push(`        - ${entry.text}`)
  }
  return lines
}

/** A finding that recurs (the same rule and severity at many places) is one group: its message, its places. */
export interface FindingGroup {
  rule: string
  severity: Finding['severity']
  /** The first finding's path and message. */
  path: string
  message: string
  fix: string
  /** Where it was found: task ids where the finding names one, else JSON paths. */
  places: string[]
}

/** Findings grouped by rule and severity, in the order their first finding came. */
export function groupFindings(findings: readonly Finding[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>()
  for (const f of findings) {
    const key = `${f.severity}\u0000${f.rule}`
    const group = groups.get(key) ?? { rule: f.rule, severity: f.severity, path: f.path, message: f.message, fix: f.fix, places: [] }
    const place = f.task_id ?? f.path
    if (!group.places.includes(place)) group.places.push(place)
    groups.set(key, group)
  }
  return [...groups.values()]
}

/** The grouped findings as text: the first finding of each group, then where else the same rule found something. */
export function renderFindingGroups(findings: readonly Finding[]): string[] {
  if (!findings.length) return []
  const groups = groupFindings(findings)
  const lines = ['', `Findings (${plural(findings.length, 'finding')}${groups.length < findings.length ? `, ${plural(groups.length, 'kind')}` : ''})`]
  for (const g of groups) {
    lines.push(`  ${g.severity.padEnd(8)} ${g.path}: ${g.message}`)
    if (g.places.length > 1) lines.push(`      the same in ${shortList(g.places.slice(1), 8)} (${plural(g.places.length, 'place')} in all)`)
    lines.push(`      fix: ${g.fix}`)
  }
  return lines
}

/** The approval line: the hash `approve` binds, and whether an approval of it is recorded. */
export function renderApprovalLine(solution: Solution, hash: string, issue: number): string {
  const approval = solution.approval
  const state = !approval ? `not approved: converge approve --number ${issue} binds this hash`
    : approval.plan_hash === hash ? `approved by ${approval.approved_by}`
    : `changed after ${approval.approved_by} approved ${approval.plan_hash.slice(0, 19)}…: converge approve --number ${issue} binds this hash`
  return `Plan hash ${hash} (${state})`
}

const shortList = (items: string[], max: number) => (items.length > max ? `${items.slice(0, max).join(', ')}, … ${items.length - max} more` : items.join(', '))
