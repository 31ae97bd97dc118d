import type { ListItem, Section } from './markdown.js'
import { isMetadataLine, saysSequential } from './phrases.js'
import { NOT_TASKS, sectionRole } from './sections.js'

/** A list item that becomes a task, with the structure around it that implies dependencies. */
export interface TaskItem {
  item: ListItem
  /** Index (in the returned list) of the enclosing task item: a nested task depends on its parent. */
  parent?: number
  /** Index of the task before it in a list whose section says "in order" / "sequentially". */
  previous?: number
}

export interface FoundTaskItems {
  source: 'checklist' | 'section' | 'none'
  items: TaskItem[]
  /** Heading of the section the items came from in `section` mode, for the notes. */
  heading?: string
}

/**
 * Task-list items (`- [ ]`, `- [x]`) anywhere except acceptance, done, verification, constraint and
 * context sections; a checkbox item nested under another becomes a task that depends on it, plain
 * nested items stay with their task (steps, criteria, commands). When there are none, the top-level
 * items of the lists in a "Tasks" / "Steps" / "Plan" section, nested items staying with them.
 */
export function findTaskItems(sections: readonly Section[]): FoundTaskItems {
  const checklist = collect(sections, (role) => !role || !NOT_TASKS.has(role), 'checklist')
  if (checklist.length) return { source: 'checklist', items: checklist }
  const planned = sections.filter((s) => sectionRole(s) === 'tasks')
  const listed = collect(planned, () => true, 'section')
  const first = planned.find((s) => s.blocks.some((b) => b.kind === 'list' && b.items.length))
  if (listed.length && first) return { source: 'section', items: listed, heading: first.headings[first.headings.length - 1]! }
  return { source: 'none', items: [] }
}

function collect(
  sections: readonly Section[],
  eligible: (role: ReturnType<typeof sectionRole>) => boolean,
  mode: 'checklist' | 'section',
): TaskItem[] {
  const found: TaskItem[] = []
  for (const section of sections) {
    if (!eligible(sectionRole(section))) continue
    const sequential = isSequential(section)
    for (const block of section.blocks) {
      if (block.kind !== 'list') continue
      let previousTopLevel: number | undefined
      const visit = (items: readonly ListItem[], parent: number | undefined) => {
        for (const item of items) {
          const isTask = (mode === 'section' || item.checked !== undefined) && !isMetadataLine(item.head.plain)
          if (!isTask) {
            if (mode === 'checklist') visit(item.children, parent)
            continue
          }
          const index = found.length
          const topLevel = parent === undefined
          found.push({
            item,
            ...(parent !== undefined ? { parent } : {}),
            ...(topLevel && sequential && previousTopLevel !== undefined ? { previous: previousTopLevel } : {}),
          })
          if (topLevel) previousTopLevel = index
          if (mode === 'checklist') visit(item.children, index)
        }
      }
      visit(block.items, undefined)
    }
  }
  return found
}

/** The section's headings or its own paragraphs say its list is to be done in order. */
function isSequential(section: Section): boolean {
  return (
    section.headings.some(saysSequential) ||
    section.blocks.some((b) => b.kind === 'paragraph' && saysSequential(b.plain))
  )
}
