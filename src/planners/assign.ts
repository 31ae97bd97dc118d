import type { Outcome, Outcomes } from './outcomes.js'
import type { PlannedTask } from './planned-tasks.js'

/**
 * Gives the issue-wide criteria, commands, manual checks and definition of done to tasks; returns
 * notes about references to tasks that do not exist.
 *
 * Something that names tasks (`T2: …`, `# T2` above a command, a `### T2` heading) goes to them.
 * Otherwise an outcome (criterion, manual check, definition of done) is checked once the work it
 * describes is finished: by the last task (in document order) that touches a file it names, else
 * by the final tasks (those no other task depends on). A command must pass after every task that
 * touches a file it names, else after every task (`npm test` stays green throughout).
 */
export function assignOutcomes(tasks: readonly PlannedTask[], outcomes: Outcomes, resolve: (ref: string) => string): string[] {
  const notes: string[] = []
  const finals = finalTasks(tasks)
  const byId = new Map(tasks.map((t) => [t.id, t]))
  const position = new Map(tasks.map((t, i) => [t, i]))
  const tasksByPath = new Map<string, PlannedTask[]>()
  for (const t of tasks)
    for (const f of t.files) {
      const touching = tasksByPath.get(f.path)
      if (touching) touching.push(t)
      else tasksByPath.set(f.path, [t])
    }
  const inDocumentOrder = (found: Iterable<PlannedTask>) => [...new Set(found)].sort((a, b) => position.get(a)! - position.get(b)!)

  const targetsOf = (outcome: Outcome, kind: 'outcome' | 'command'): readonly PlannedTask[] => {
    const named = outcome.refs.map(resolve)
    const known = inDocumentOrder(named.flatMap((id) => byId.get(id) ?? []))
    const unknown = named.filter((id) => !byId.has(id))
    const touching = inDocumentOrder(outcome.paths.flatMap((p) => tasksByPath.get(p) ?? []))
    const byFile = kind === 'command' ? touching : touching.slice(-1)
    // An outcome that names no task or file goes to the final tasks and to every task whose words it concerns.
    const concerned = kind === 'outcome' ? tasks.filter((t) => concerns(outcome.text, t)) : []
    const targets = known.length ? known : byFile.length ? byFile : kind === 'command' ? tasks : inDocumentOrder([...concerned, ...finals])
    if (unknown.length)
      notes.push(`"${outcome.text}" names ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not a task: given to ${targets.map((t) => t.id).join(', ')}`)
    return targets
  }
  for (const c of outcomes.criteria) for (const t of targetsOf(c, 'outcome')) t.criteria.push(c.text)
  for (const c of outcomes.commands) for (const t of targetsOf(c, 'command')) t.commands.push(c.text)
  for (const c of outcomes.manualChecks) for (const t of targetsOf(c, 'outcome')) t.manualChecks.push(c.text)
  for (const d of outcomes.definitionOfDone) for (const t of targetsOf(d, 'outcome')) t.definitionOfDone.push(d.text)
  return notes
}

const STOPWORDS = new Set('that this with from when then than into only must should have been will does each every which what there their they about after before while would could also more most other some such your'.split(' '))
/** The words of a text that say what it is about: four letters or more, not the common ones; code spans also whole. */
function topicWords(text: string): Set<string> {
  const spans = [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.toLowerCase())
  const words = text.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length >= 4 && !STOPWORDS.has(w))
  return new Set([...spans, ...words])
}

/** Whether an outcome concerns a task: they share a code span, or two words of their topics. */
function concerns(outcome: string, task: PlannedTask): boolean {
  const theirs = topicWords(`${task.title} ${task.description}`)
  const shared = [...topicWords(outcome)].filter((w) => theirs.has(w))
  return shared.some((w) => /[^\p{L}]/u.test(w) && w.length > 2) || shared.length >= 2
}

/** Tasks no other task depends on: where the work ends. */
export function finalTasks(tasks: readonly PlannedTask[]): PlannedTask[] {
  const dependedOn = new Set(tasks.flatMap((t) => t.dependencies))
  return tasks.filter((t) => !dependedOn.has(t.id))
}
