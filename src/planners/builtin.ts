import { inferEffort, inferTaskType, issueId, solutionId, type Priority, type TaskInput, type TaskType } from '../model/index.js'
import { assignOutcomes, finalTasks } from './assign.js'
import { readMarkdown, type ListItem, type Section } from './markdown.js'
import { missingNotes, taskSourceNotes } from './notes.js'
import { readOutcomes } from './outcomes.js'
import { issueDescription, planTasks, type PlannedTask } from './planned-tasks.js'
import { inferAnalysis, issuePriority, labelStrategy, statedLevels } from './signals.js'
import { findTaskItems } from './task-items.js'
import type { IssueDocument, PlannerOutput } from './types.js'

export interface BuiltinOptions {
  /** Solution sequence number: `SOL-ISS-<n>-<seq>`. Default 1. */
  seq?: number
  /** `created_at`; left out when not given, so the same issue always gives the same plan. */
  now?: string
}

/**
 * The built-in planner: offline and deterministic (the same issue gives byte-identical output).
 * Reads the issue's markdown — task items, dependencies, file paths, acceptance criteria,
 * verification commands, definition of done — into a solution, and says in `notes` what it
 * inferred and what it could not find. The steps: markdown → sections (`markdown.ts`) → task items
 * (`task-items.ts`, `task-draft.ts`) and outcomes (`outcomes.ts`) → tasks with ids and dependencies
 * (`planned-tasks.ts`) → outcomes given to tasks (`assign.ts`) → priority and analysis (`signals.ts`).
 */
export function builtinPlan(issue: IssueDocument, options: BuiltinOptions = {}): PlannerOutput {
  const sections = readMarkdown(issue.body)
  const found = findTaskItems(sections)
  const { tasks, resolve, notes: labelNotes } = planTasks(issue, sections, found)
  const outcomes = readOutcomes(sections)
  const assignNotes = assignOutcomes(tasks, outcomes, resolve)
  const notes = [...taskSourceNotes(found, tasks), ...labelNotes, ...assignNotes, ...missingNotes(tasks, outcomes, finalTasks(tasks))]

  const stated = statedLevels(textLines(sections))
  const { priority, source: prioritySource } = issuePriority(issue.labels, stated.priority)
  notes.push(`priority ${priority} (${prioritySource})`)
  const files = tasks.flatMap((t) => t.files)
  const analysis = inferAnalysis({ taskCount: tasks.length, files, labels: issue.labels, stated })
  notes.push(`analysis: ${analysis.reasons.join('; ')}`)
  const description = issueDescription(sections, issue)
  if (description.fromTitle) notes.push('no description paragraph: the issue title describes the solution')

  const strategy = labelStrategy(issue.labels)
  const relevantFiles = unique(files.map((f) => f.path))
  const raw = {
    id: solutionId(issue.number, options.seq ?? 1),
    issue_id: issueId(issue.number),
    description: description.text,
    ...(strategy ? { strategy_type: strategy } : {}),
    ...(options.now !== undefined ? { created_at: options.now } : {}),
    tasks: tasks.map((t) => writeTask(t, priority, issue)),
    ...(relevantFiles.length || outcomes.constraints.length
      ? { exploration_context: { relevant_files: relevantFiles, patterns: [], integration_points: [], constraints: outcomes.constraints } }
      : {}),
    analysis: { risk: analysis.risk, impact: analysis.impact, complexity: analysis.complexity },
    is_bound: false,
  }
  return { planner: 'builtin', raw, notes }
}

/** The task in the canonical form; commands are also written `Run: <command>` in the verification. */
function writeTask(task: PlannedTask, priority: Priority, issue: IssueDocument): TaskInput {
  const commands = unique(task.commands)
  return {
    id: task.id,
    title: task.title,
    action: task.action,
    type: taskType(task),
    priority,
    effort: inferEffort(priority, task.files.length),
    description: task.description,
    files: task.files,
    implementation: task.implementation,
    test: { commands, unit: [], integration: [] },
    convergence: {
      criteria: unique(task.criteria),
      verification: [...commands.map((c) => `Run: ${c}`), ...unique(task.manualChecks)].join('\n'),
      definition_of_done: unique(task.definitionOfDone).join(' '),
    },
    depends_on: task.dependencies,
    evidence: unique(task.evidence),
    source: { tool: 'converge/builtin', session_id: issueId(issue.number), original_id: task.labels[0] ?? task.id },
  }
}

/** From the action when it says it (Fix, Refactor, Test, "Add tests …"), else the seed's keyword inference on the title. */
function taskType(task: PlannedTask): TaskType {
  if (task.action === 'Fix') return 'fix'
  if (task.action === 'Refactor') return 'refactor'
  if (task.action === 'Test' || /^\S+\s+(?:(?:unit|integration|e2e|end-to-end|regression|snapshot)\s+)?tests?\b/i.test(task.title))
    return 'testing'
  return inferTaskType(task.title)
}

/** Lines of paragraphs and list items, for `Risk: high`-style statements. */
function textLines(sections: readonly Section[]): string[] {
  const itemLines = (items: readonly ListItem[]): string[] => items.flatMap((i) => [i.head.plain, ...itemLines(i.children)])
  return sections.flatMap((s) =>
    s.blocks.flatMap((b) => (b.kind === 'paragraph' ? b.plain.split('\n') : b.kind === 'list' ? itemLines(b.items) : [])),
  )
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items.map((s) => s.trim()).filter(Boolean))]
}
