/** What a task that does not state its type, action or effort is taken to be, from its title and files. */
import { TASK_ACTIONS, type Effort, type Priority, type TaskAction, type TaskType } from './enums.js'

// Type and effort inference: `task-generation-execution-spec.md`, "Task Type Inference" and "Effort Inference".
const TYPE_KEYWORDS: Array<[TaskType, RegExp]> = [
  ['fix', /\b(fix|resolve|repair|patch|correct|bug)/],
  ['refactor', /\b(refactor|restructure|extract|reorganize|reorganise|decouple)/],
  ['feature', /\b(add|implement|create|build|introduce)/],
  ['enhancement', /\b(improve|optimi[sz]e|enhance|upgrade|streamline)/],
  ['testing', /\b(test|coverage|validate|verify|assert)/],
]

export function inferTaskType(text: string): TaskType {
  const lower = text.toLowerCase()
  for (const [type, pattern] of TYPE_KEYWORDS) if (pattern.test(lower)) return type
  return 'enhancement'
}

const ACTION_BY_TYPE: Record<TaskType, TaskAction> = {
  fix: 'Fix', refactor: 'Refactor', feature: 'Add', enhancement: 'Update', testing: 'Test',
}

/**
 * The action of a task that does not state one (the seed's task example has only `type`): the title's
 * leading verb when it is an action, else the stated type's action, else Implement.
 */
export function inferAction(title: string, type: TaskType | undefined): TaskAction {
  const verb = /^\s*([a-z]+)/i.exec(title)?.[1]?.toLowerCase()
  const fromTitle = TASK_ACTIONS.find((a) => a.toLowerCase() === verb)
  return fromTitle ?? (type ? ACTION_BY_TYPE[type] : 'Implement')
}

export function inferEffort(priority: Priority, fileCount: number): Effort {
  const urgent = priority === 'high' || priority === 'critical'
  if (urgent && fileCount >= 3) return 'large'
  if (urgent || fileCount >= 2) return 'medium'
  return 'small'
}
