/** Priorities of queued solutions: from the labels, else from the solution's tasks. Pure. */
import { PRIORITIES, type Priority, type Solution } from '../model/index.js'

/** critical 0 … low 3: a lower rank goes first. */
export function priorityRank(priority: Priority): number {
  return PRIORITIES.indexOf(priority)
}

const WORDS: Record<string, Priority> = {
  critical: 'critical', urgent: 'critical', blocker: 'critical', highest: 'critical',
  high: 'high', medium: 'medium', normal: 'medium', low: 'low', lowest: 'low',
  p0: 'critical', p1: 'high', p2: 'medium', p3: 'low', p4: 'low',
  '0': 'critical', '1': 'high', '2': 'medium', '3': 'low', '4': 'low',
}

/** `priority: high`, `priority/high`, `prio-1`, `P1`, `critical`, `urgent`, `high priority`. */
const PRIORITY_LABEL = /^(?:(?:priority|prio|pri)\s*[:/_\-\s]\s*(\w+)|(p[0-4])|(critical|urgent|blocker)|(\w+)[\s_-]+priority)$/i

/** The most urgent priority the labels name, or undefined when none is a priority label. */
export function labelPriority(labels: readonly string[]): Priority | undefined {
  let best: Priority | undefined
  for (const label of labels) {
    const match = PRIORITY_LABEL.exec(label.trim())
    if (!match) continue
    const word = (match[1] ?? match[2] ?? match[3] ?? match[4])!.toLowerCase()
    const priority = WORDS[word]
    if (priority && (best === undefined || priorityRank(priority) < priorityRank(best))) best = priority
  }
  return best
}

/** A solution's priority: its most urgent task's (tasks default to medium). */
export function solutionPriority(solution: Pick<Solution, 'tasks'>): Priority {
  let best: Priority = 'low'
  for (const task of solution.tasks) if (priorityRank(task.priority) < priorityRank(best)) best = task.priority
  return best
}
