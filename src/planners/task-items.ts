import type { ListItem, Section } from './markdown.js'
import { findPrerequisite, prerequisiteNames, previousCount, sequenceWord, stepReferences } from './ordering.js'
import { isMetadataLine, saysSequential } from './phrases.js'
import { NOT_TASKS, sectionRole } from './sections.js'
import { isConfirmation, isKindChoice } from './templates.js'

/** A list item that becomes a task, with the structure around it that implies dependencies. */
export interface TaskItem {
  item: ListItem
  /** Index (in the returned list) of the enclosing task item: a nested task depends on its parent. */
  parent?: number
  /**
   * Indexes of earlier task items it comes after: the one before it in a numbered list or a section
   * that says "in order", or when it begins "Then …"; every one before it for "once the rest is
   * done"; the one its words name ("after the migration").
   */
  after: number[]
}

export interface FoundTaskItems {
  source: 'checklist' | 'section' | 'numbered' | 'none'
  items: TaskItem[]
  /** Ticked (`- [x]`) items: already done, recorded and not planned. */
  done: ListItem[]
  /** Template checkboxes left out: confirmations ("I have searched…") and "type of issue" choices. */
  confirmations: number
  /** Heading of the section the items came from in `section` mode, for the notes. */
  heading?: string
}

/**
 * Task-list items (`- [ ]`) anywhere except acceptance, expected-behaviour, done, verification,
 * constraint, context and confirmation sections; a checkbox item nested under another becomes a task
 * that depends on it, plain nested items stay with their task (steps, criteria, commands). Ticked items
 * are done, not tasks; a reporter's confirmations are neither. When there are no checkboxes, the
 * top-level items of the lists in a "Tasks" / "Steps" / "Plan" section, nested items staying with them.
 * Failing that, unless `numberedSteps` is false (a bug report's numbered list is how to reproduce it), the
 * numbered lists outside any section with a role: steps written as a numbered list are the work.
 */
export function findTaskItems(
  sections: readonly Section[],
  { isIssueReference = () => false, numberedSteps = true }: { isIssueReference?: (text: string) => boolean; numberedSteps?: boolean } = {},
): FoundTaskItems {
  const collected = collect(sections, (role) => !role || !NOT_TASKS.has(role), 'checklist', isIssueReference)
  const checklist = { ...collected, confirmations: collected.confirmations + checkboxesIn(sections.filter((s) => sectionRole(s) === 'confirmations')) }
  if (checklist.items.length || checklist.done.length) return { source: 'checklist', ...checklist }
  const planned = sections.filter((s) => sectionRole(s) === 'tasks')
  const listed = collect(planned, () => true, 'section', isIssueReference)
  const first = planned.find((s) => s.blocks.some((b) => b.kind === 'list' && b.items.length))
  if (listed.items.length && first)
    return { source: 'section', ...listed, confirmations: checklist.confirmations, heading: first.headings[first.headings.length - 1]! }
  if (numberedSteps) {
    const numbered = collect(sections.filter((s) => !sectionRole(s)), () => true, 'section', isIssueReference, (b) => b.ordered && b.items.length >= 2)
    if (numbered.items.length) return { source: 'numbered', ...numbered, confirmations: checklist.confirmations }
  }
  return { source: 'none', items: [], done: [], confirmations: checklist.confirmations }
}

function collect(
  sections: readonly Section[],
  eligible: (role: ReturnType<typeof sectionRole>) => boolean,
  mode: 'checklist' | 'section',
  isIssueReference: (text: string) => boolean,
  listFilter: (list: { ordered: boolean; items: readonly ListItem[] }) => boolean = () => true,
): Omit<FoundTaskItems, 'source' | 'heading'> {
  const found: TaskItem[] = []
  const done: ListItem[] = []
  let confirmations = 0
  for (const section of sections) {
    if (!eligible(sectionRole(section))) continue
    const sequentialSection = isSequential(section)
    for (const block of section.blocks) {
      if (block.kind !== 'list' || !listFilter(block)) continue
      const sequential = sequentialSection || block.ordered
      // A "type of issue" list: two or more checkboxes that name kinds of report.
      const choices = block.items.filter((i) => i.checked !== undefined && isKindChoice(i.head.plain)).length >= 2
      // Top-level task items of this list so far; `undefined` marks a ticked one (done: nothing to wait for).
      const topLevel: Array<number | undefined> = []
      const visit = (items: readonly ListItem[], parent: number | undefined) => {
        for (const item of items) {
          const text = item.head.plain
          // An epic's reference to another issue is that issue's work, planned there.
          const candidate = (mode === 'section' || item.checked !== undefined) && !isMetadataLine(text) && !isIssueReference(text)
          if (candidate && item.checked !== undefined && (isConfirmation(text) || (choices && isKindChoice(text)))) {
            confirmations++
            continue
          }
          if (candidate && item.checked === true && mode === 'checklist') {
            done.push(item)
            if (parent === undefined) topLevel.push(undefined)
            visit(item.children, undefined)
            continue
          }
          if (!candidate) {
            if (mode === 'checklist') visit(item.children, parent)
            continue
          }
          const index = found.length
          const after = parent === undefined ? orderOf(text, topLevel, sequential, found) : []
          found.push({ item, ...(parent !== undefined ? { parent } : {}), after })
          if (parent === undefined) topLevel.push(index)
          if (mode === 'checklist') visit(item.children, index)
        }
      }
      visit(block.items, undefined)
    }
  }
  return { items: found, done, confirmations }
}

/** The earlier top-level items of the same list that an item comes after (see {@link TaskItem.after}). */
function orderOf(text: string, topLevel: ReadonlyArray<number | undefined>, sequential: boolean, found: readonly TaskItem[]): number[] {
  const word = sequenceWord(text)
  if (word === 'all') return topLevel.filter((i): i is number => i !== undefined)
  const count = previousCount(text)
  if (count) return topLevel.slice(-count).filter((i): i is number => i !== undefined)
  const steps = stepReferences(text).flatMap((n) => (n >= 1 && n <= topLevel.length ? (topLevel[n - 1] ?? []) : []))
  const previous = topLevel[topLevel.length - 1]
  const before = (sequential || word === 'previous') && previous !== undefined ? [previous] : []
  if (before.length || steps.length) return [...new Set([...before, ...steps])]
  const titles = found.map((f) => f.item.head.plain)
  const named = prerequisiteNames(text).flatMap((name) => findPrerequisite(name, titles, found.length) ?? [])
  return [...new Set(named)]
}

function checkboxesIn(sections: readonly Section[]): number {
  const count = (items: readonly ListItem[]): number => items.reduce((n, i) => n + (i.checked !== undefined ? 1 : 0) + count(i.children), 0)
  return sections.reduce((n, s) => n + s.blocks.reduce((m, b) => m + (b.kind === 'list' ? count(b.items) : 0), 0), 0)
}

/** The section's headings or its own paragraphs say its list is to be done in order. */
function isSequential(section: Section): boolean {
  return (
    section.headings.some(saysSequential) ||
    section.blocks.some((b) => b.kind === 'paragraph' && saysSequential(b.plain))
  )
}
