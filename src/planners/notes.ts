import type { Outcomes } from './outcomes.js'
import type { Section } from './markdown.js'
import { bugFacts } from './bug-report.js'
import type { PlannedTask } from './planned-tasks.js'
import type { FoundTaskItems } from './task-items.js'

/** The built-in planner's notes: where the tasks came from and what the issue does not say. */

export function taskSourceNotes(found: FoundTaskItems, tasks: readonly PlannedTask[], alreadyDone: readonly string[]): string[] {
  const notes: string[] = []
  const count = `${tasks.length} task${tasks.length === 1 ? '' : 's'}`
  if (found.source === 'checklist') notes.push(`made ${count} from the task list (- [ ] items)`)
  else if (found.source === 'section') notes.push(`no task list (- [ ] items): made ${count} from the list under "${found.heading}"`)
  else if (found.source === 'numbered') notes.push(`no task list (- [ ] items) and no Tasks/Steps/Plan section: made ${count} from the numbered steps`)
  else if (found.source === 'defects') notes.push(`a bug report listing several defects: made ${count}, one fix each`)
  else if (found.source === 'prose') notes.push(`no task list (- [ ] items): made ${count} from the sentences and design items that name the files to change`)
  else if (found.source === 'headings') notes.push(`no task list (- [ ] items) and no Tasks/Steps/Plan section: made ${count} from the numbered headings`)
  else notes.push(`no task list and no Tasks/Steps/Plan section: made one task from the title "${tasks[0]!.title}"`)
  if (alreadyDone.length) notes.push(`already done (ticked in the issue), not planned: ${alreadyDone.map((t) => `"${t}"`).join(', ')}`)
  if (found.confirmations)
    notes.push(`${found.confirmations} template checkbox${found.confirmations === 1 ? '' : 'es'} (the reporter's confirmations, the type of issue) left out of the tasks`)
  for (const t of tasks) if (t.untitled) notes.push(`${t.id} has no words of its own: titled "${t.title}"`)
  return notes
}

export function missingNotes(tasks: readonly PlannedTask[], outcomes: Outcomes, finals: readonly PlannedTask[]): string[] {
  const notes: string[] = []
  const whoHas = (missing: readonly PlannedTask[]) => (missing.length === tasks.length ? 'tasks have' : `${ids(missing)} ${have(missing)}`)

  const noCriteria = tasks.filter((t) => !t.criteria.length)
  if (noCriteria.length && !outcomes.found.criteria) notes.push(`no Acceptance criteria section: ${whoHas(noCriteria)} no criteria`)
  else if (noCriteria.length)
    notes.push(
      `${ids(noCriteria)} ${have(noCriteria)} no acceptance criteria: criteria that name no task ("T1: …") or file go to the final task${finals.length === 1 ? '' : 's'} ${ids(finals)}`,
    )

  const noCommand = tasks.filter((t) => !t.commands.length)
  if (noCommand.length && !outcomes.found.verification)
    notes.push(`no Verification block: no command will verify ${noCommand.length === tasks.length ? 'the tasks' : ids(noCommand)}`)
  else if (noCommand.length)
    notes.push(`${ids(noCommand)} ${have(noCommand)} no verification command: every command under the verification heading names another task (# T1 above it) or file`)
  const unlabelled = outcomes.unlabelledBlocks
  if (unlabelled)
    notes.push(`${unlabelled} code block${unlabelled === 1 ? '' : 's'} without a language under a verification heading ${unlabelled === 1 ? 'was' : 'were'} not read: mark it \`\`\`sh to have its commands run`)

  const noDone = tasks.filter((t) => !t.definitionOfDone.length)
  if (noDone.length && !outcomes.definitionOfDone.length) notes.push(`no Definition of done paragraph: ${whoHas(noDone)} no definition of done`)

  const noFiles = tasks.filter((t) => !t.files.length)
  if (noFiles.length)
    notes.push(noFiles.length === tasks.length ? 'no file paths in backticks: tasks name no files' : `${ids(noFiles)} ${noFiles.length === 1 ? 'names' : 'name'} no files`)
  return notes
}

/**
 * What a careful engineer would ask the reporter for before planning: what should happen, how to see
 * the bug, where to look. Only for a plan made from the title (no task list), where the issue is all
 * there is to go on.
 */
export function questionsForReporter({ bug, tasks, outcomes, sections }: { bug: boolean; tasks: readonly PlannedTask[]; outcomes: Outcomes; sections: readonly Section[] }): string[] {
  if (tasks.length > 1 || tasks[0]?.labels.length) return []
  const missing: string[] = []
  if (!outcomes.criteria.length) missing.push(bug ? 'the expected behaviour (what should happen instead)' : 'acceptance criteria (the expected result: what is true when it is done)')
  if (bug && !bugFacts(sections).steps.length) missing.push('steps to reproduce')
  if (!tasks[0]?.files.length) missing.push('the file or area to change (a path in backticks)')
  if (!outcomes.commands.length) missing.push('a command that shows it works (e.g. `npm test -- <name>`)')
  return missing
}

function ids(tasks: readonly { id: string }[]): string {
  return tasks.map((t) => t.id).join(', ')
}

function have(tasks: readonly unknown[]): string {
  return tasks.length === 1 ? 'has' : 'have'
}
