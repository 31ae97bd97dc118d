import type { Outcomes } from './outcomes.js'
import type { PlannedTask } from './planned-tasks.js'
import type { FoundTaskItems } from './task-items.js'

/** The built-in planner's notes: where the tasks came from and what the issue does not say. */

export function taskSourceNotes(found: FoundTaskItems, tasks: readonly PlannedTask[]): string[] {
  const notes: string[] = []
  const count = `${tasks.length} task${tasks.length === 1 ? '' : 's'}`
  if (found.source === 'checklist') notes.push(`made ${count} from the task list (- [ ] items)`)
  else if (found.source === 'section') notes.push(`no task list (- [ ] items): made ${count} from the list under "${found.heading}"`)
  else notes.push(`no task list and no Tasks/Steps/Plan section: made one task from the title "${tasks[0]!.title}"`)
  const ticked = tasks.filter((t) => t.checked)
  if (ticked.length) notes.push(`${ids(ticked)} ${ticked.length === 1 ? 'is' : 'are'} ticked ([x]) in the issue and planned like the others`)
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

function ids(tasks: readonly { id: string }[]): string {
  return tasks.map((t) => t.id).join(', ')
}

function have(tasks: readonly unknown[]): string {
  return tasks.length === 1 ? 'has' : 'have'
}
