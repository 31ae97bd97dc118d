import type { ListItem, Section } from './markdown.js'
import { findPrerequisite, prerequisiteNames, previousCount, sequenceWord, stepReferences } from './ordering.js'
import { isMetadataLine, leadingAction, saysSequential } from './phrases.js'
import { introducedAsControls, listRole, saysDoneIn } from './block-roles.js'
import { BARE_STEPS, defectParagraphs, isDefectList } from './bug-report.js'
import { NOT_TASKS, sectionRole } from './sections.js'
import { runStatement } from './statements.js'
import { isConfirmation, isKindChoice, isTemplatePrompt } from './templates.js'
import { isHousekeeping } from './process-steps.js'
import { shortTitle, squash } from './text.js'

type ListBlock = Extract<Section['blocks'][number], { kind: 'list' }>

/** A list item that becomes a task, with the structure around it that implies dependencies. */
export interface TaskItem {
  /** The unticked boxes under a "Run …, then check:" item: its criteria. */
  checks?: string[]
  item: ListItem
  /** Index (in the returned list) of the enclosing task item: a nested task depends on its parent. */
  parent?: number
  /** The title, when the item is a numbered heading's section (`### 2. Status`) rather than a list item. */
  title?: string
  /**
   * Indexes of earlier task items it comes after: the one before it in a numbered list or a section
   * that says "in order", or when it begins "Then …"; every one before it for "once the rest is
   * done"; the one its words name ("after the migration").
   */
  after: number[]
  /** A defect of a bug report's list of several (planned as its own fix). */
  defect?: boolean
  /** The heading of the part of the work it is in ("Frontend tasks", "Phase 2: Storage"), when it names one. */
  group?: string
}

export interface FoundTaskItems {
  /** `prose`: no list of work, but sentences and design items that name the files to change (`file-work.ts`). */
  source: 'checklist' | 'section' | 'numbered' | 'headings' | 'defects' | 'prose' | 'none'
  items: TaskItem[]
  /** Ticked (`- [x]`) items: already done, recorded and not planned. */
  done: ListItem[]
  /** Template checkboxes left out: confirmations ("I have searched…") and "type of issue" choices. */
  confirmations: number
  /** Checkboxes a bot's panel asks to tick ("tick a checkbox below to rebase"): controls, neither work nor done. */
  controls: number
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
 * numbered lists outside any section with a role, else the sections under numbered headings (`### 1. Data
 * model`, `Step 2: …`, `第 3 步`), as design notes number their steps: steps written in order are the work.
 */
export function findTaskItems(
  sections: readonly Section[],
  { isIssueReference = () => false, numberedSteps = true }: { isIssueReference?: (text: string) => boolean; numberedSteps?: boolean } = {},
): FoundTaskItems {
  // Checkboxes are tasks only where the block's role is work. A work section written as plain bullets is the work:
  // checkboxes elsewhere (a readiness or sign-off list) are then not tasks.
  const work = sections.flatMap((s) => s.blocks.filter((b): b is ListBlock => b.kind === 'list' && b.items.length > 0 && listRole(s, b) === 'tasks'))
  const plainWork = work.length > 0 && work.every((b) => !checkboxes(b.items))
  const collected = collect(sections, (role) => !plainWork && (!role || !NOT_TASKS.has(role)), 'checklist', isIssueReference)
  const count = (pick: (s: Section, b: ListBlock) => boolean) =>
    sections.reduce((n, s) => n + s.blocks.reduce((m, b) => m + (b.kind === 'list' && pick(s, b) ? checkboxes(b.items) : 0), 0), 0)
  const controls = count((s, b) => introducedAsControls(s, b))
  const checklist = { ...collected, confirmations: collected.confirmations + count((s, b) => listRole(s, b) === 'confirmations'), controls }
  if (checklist.items.length || checklist.done.length) return { source: 'checklist', ...checklist }
  // In a bug report a bare "Steps" heading is how to reproduce it.
  const reproduction = (s: Section) => !numberedSteps && BARE_STEPS.test(s.headings[s.headings.length - 1] ?? '')
  const planned = sections.filter((s) => !reproduction(s) && s.blocks.some((b) => b.kind === 'list' && listRole(s, b) === 'tasks'))
  const listed = collect(planned, (role) => role === 'tasks', 'section', isIssueReference)
  const first = planned.find((s) => s.blocks.some((b) => b.kind === 'list' && b.items.length))
  if (listed.items.length && first)
    return { source: 'section', ...listed, confirmations: checklist.confirmations, controls, heading: first.headings[first.headings.length - 1]! }
  if (numberedSteps) {
    const numbered = collect(sections, (role) => !role, 'section', isIssueReference, (b) => b.ordered && b.items.length >= 2)
    if (numbered.items.length) return { source: 'numbered', ...numbered, confirmations: checklist.confirmations, controls }
    const headed = numberedHeadings(sections)
    if (headed.length >= 2) return { source: 'headings', items: headed, done: [], confirmations: checklist.confirmations, controls }
  } else {
    // A numbered list of changes, each naming its own file, is the work in a bug report too (issue 38).
    const changes = collect(sections, (role) => !role || role === 'description' || role === 'proposal', 'section', isIssueReference, (b) => b.ordered && isChangeList(b.items))
    if (changes.items.length) return { source: 'numbered', ...changes, confirmations: checklist.confirmations, controls }
    // A bug report that lists several defects, where it says what the problem is or under no heading: each is a fix of its own.
    const listedDefects = collect(sections, (role) => !role || role === 'description', 'section', isIssueReference, (b) => isDefectList(b.items))
    // Else one paragraph a defect, each naming its file or followed by its trace.
    const defects = listedDefects.items.length ? listedDefects : { items: defectParagraphs(sections).map((item) => ({ item, after: [] })), done: [], confirmations: 0 }
    // Defects are fixed independently: their list's numbers are not an order.
    if (defects.items.length) return { source: 'defects', ...defects, items: defects.items.map((i) => ({ ...i, after: [], defect: true })), confirmations: checklist.confirmations, controls }
  }
  return { source: 'none', items: [], done: [], confirmations: checklist.confirmations, controls }
}

function collect(
  sections: readonly Section[],
  eligible: (role: ReturnType<typeof sectionRole>) => boolean,
  mode: 'checklist' | 'section',
  isIssueReference: (text: string) => boolean,
  listFilter: (list: { ordered: boolean; items: readonly ListItem[] }) => boolean = () => true,
): Omit<FoundTaskItems, 'source' | 'heading' | 'controls'> {
  const found: TaskItem[] = []
  const done: ListItem[] = []
  let confirmations = 0
  for (const section of sections) {
    const sequentialSection = isSequential(section)
    const group = groupName(section)
    for (const block of section.blocks) {
      if (block.kind !== 'list' || !listFilter(block) || !eligible(listRole(section, block))) continue
      // A numbered list of changes, each in a file of its own, is a list, not a sequence (unless the section says "in order").
      const sequential = sequentialSection || (block.ordered && !isChangeList(block.items))
      // A "type of issue" list: two or more checkboxes that name kinds of report.
      const choices = block.items.filter((i) => i.checked !== undefined && isKindChoice(i.head.plain)).length >= 2
      // Top-level task items of this list so far; `undefined` marks a ticked one (done: nothing to wait for).
      const topLevel: Array<number | undefined> = []
      const visit = (items: readonly ListItem[], parent: number | undefined, part = group) => {
        for (const item of items) {
          const text = item.head.plain
          // "- [ ] Backend" over its own checkboxes names a part of the work: its items are the tasks.
          if (mode === 'checklist' && item.checked === false && isGroupLabel(item)) {
            visit(item.children, parent, text)
            continue
          }
          // An epic's reference to another issue is that issue's work, planned there.
          const candidate = (mode === 'section' || item.checked !== undefined) && !isMetadataLine(text) && !isIssueReference(text)
          // "Run `npm test`" is how the work is verified (read as a command by outcomes.ts), not a task; forking,
          // committing and opening the pull request are how to contribute, not the change.
          // A "Run …, then check:" item over boxes still to tick is work: the run and its checks (issue 38).
          const checksBelow = item.children.some((c) => c.checked === false)
          if (candidate && ((runStatement(item.head) && !checksBelow) || (item.checked === undefined && isHousekeeping(text)))) continue
          if (candidate && item.checked !== undefined && (isConfirmation(text) || isHousekeeping(text) || isTemplatePrompt(text) || (choices && isKindChoice(text)))) {
            confirmations++
            continue
          }
          if (candidate && ((item.checked === true && mode === 'checklist') || (item.checked === undefined && saysDoneIn(text)))) {
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
          // The boxes under "Run …, then check:" are the run's checks: its criteria, not tasks of their own.
          const checks = checksBelow && runStatement(item.head) ? item.children.filter((c) => c.checked === false).map((c) => c.head.plain.trim()) : []
          found.push({ item, ...(parent !== undefined ? { parent } : {}), after, ...(part ? { group: part } : {}), ...(checks.length ? { checks } : {}) })
          if (parent === undefined) topLevel.push(index)
          if (mode === 'checklist') visit(checks.length ? item.children.filter((c) => c.checked !== false) : item.children, index, part)
        }
      }
      visit(block.items, undefined)
    }
  }
  return { items: found, done, confirmations }
}

/** Words of a work heading that say only that it is the work ("Tasks", "Implementation plan", "To do"). */
const WORK_WORDS = /\b(?:tasks?|steps?|plan|to-?do|implementation|checklist|work(?: items?)?|action items?|scope)\b|[:：#*]/gi

/** A checkbox of a word or three with no verb (`Backend`, `Mobile app`) over checkboxes of its own: a part of the work. */
function isGroupLabel(item: ListItem): boolean {
  const words = item.head.plain.trim().split(/\s+/)
  return item.children.some((c) => c.checked !== undefined) && words.length <= 3 && !leadingAction(item.head.plain) && !/[.!?:]$/.test(item.head.plain.trim())
}

/** The heading of a section of the work when it names a part of it ("Frontend tasks" → yes, "Tasks" → no). */
function groupName(section: Section): string | undefined {
  const heading = section.headings[section.headings.length - 1]
  return heading && /\p{L}{3,}/u.test(heading.replace(WORK_WORDS, ' ')) && sectionRole(section) === 'tasks' ? heading : undefined
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
  if (named.length) return [...new Set(named)]
  // "The same pattern for `books.py`" copies the item that sets the pattern (one that says so, else the list's first).
  const first = topLevel.find((i): i is number => i !== undefined)
  if (!COPIES_PATTERN.test(text) || first === undefined) return []
  return [topLevel.find((i): i is number => i !== undefined && SETS_PATTERN.test(found[i]!.item.head.plain)) ?? first]
}

/** An item that repeats an earlier one's change elsewhere, and the item that sets the pattern the others copy. */
const COPIES_PATTERN = /\b(?:the )?same (?:pattern|approach|change|structure|recipe|steps?) (?:for|as|in|on)\b|\bo mesmo padr[ãa]o\b|\bel mismo patr[óo]n\b|\bdas gleiche muster\b|\ble même (?:mod[èe]le|sch[ée]ma)\b|同じ(?:パターン|手順)で|同样的(?:模式|方式)/i
const SETS_PATTERN = /\b(?:sets|establishes|defines) the pattern\b|\bthe (?:pattern|model) (?:the )?(?:next|others|later) ones? (?:copy|follow)\b/i

function checkboxes(items: readonly ListItem[]): number {
  return items.reduce((n, i) => n + (i.checked !== undefined ? 1 : 0) + checkboxes(i.children), 0)
}

/**
 * `1. Data model`, `2) API`, `Step 3: UI`, `Phase 2 — Storage`, `第 1 步：…`, `ステップ 2 …`, `Passo 2 - …`: the words after
 * the number. A phase or a stage may be named by its number alone (`## Phase 2`): its first paragraph then says what it is.
 */
const NUMBERED_HEADING = /^\s*(?:\d{1,2}\s*[.)、:：]|(?:step|passo|paso|schritt|ステップ)\s*\d{1,2}\s*[.):：-]?|第\s*[一二三四五六七八九十\d]{1,3}\s*[步歩章]\s*[:：、]?)\s*(\S.*)$/i
const PHASE_HEADING = /^\s*(?:phase|stage|milestone|fase|etapa|[ée]tape|stufe|этап|フェーズ|阶段)\s*\d{1,2}\s*(?:[.):：—–-]\s*(\S.*))?$/i

/**
 * The sections under two or more numbered headings, each a task in the order written (each after the one
 * before): its first paragraph the item's text, the other paragraphs its description, its lists its steps.
 */
function numberedHeadings(sections: readonly Section[]): TaskItem[] {
  const items: TaskItem[] = []
  for (const section of sections) {
    const heading = section.headings[section.headings.length - 1]
    const phase = heading === undefined ? undefined : PHASE_HEADING.exec(heading)
    const paragraphs = section.blocks.flatMap((b) => (b.kind === 'paragraph' ? [{ text: b.text, plain: b.plain, codeSpans: b.codeSpans }] : []))
    const title = heading === undefined ? undefined : (NUMBERED_HEADING.exec(heading)?.[1] ?? phase?.[1] ?? (phase && paragraphs[0] ? shortTitle(squash(paragraphs[0].plain)) : undefined))?.trim()
    const role = sectionRole(section)
    if (!title || (role && NOT_TASKS.has(role))) continue
    const [head = { text: title, plain: title, codeSpans: [] }, ...more] = paragraphs
    const item: ListItem = {
      head, more, checked: undefined,
      children: section.blocks.flatMap((b) => (b.kind === 'list' ? b.items : [])),
      code: section.blocks.flatMap((b) => (b.kind === 'code' ? [{ lang: b.lang, text: b.text }] : [])),
    }
    const text = paragraphs.map((p) => p.plain).join(' ')
    const steps = stepReferences(text).flatMap((n) => (n >= 1 && n <= items.length ? [n - 1] : []))
    const named = prerequisiteNames(text).flatMap((name) => findPrerequisite(name, items.map((i) => i.title!), items.length) ?? [])
    const after = [...new Set([...(items.length ? [items.length - 1] : []), ...steps, ...named])]
    items.push({ item, title, after })
  }
  return items
}

/** The section's headings or its own paragraphs say its list is to be done in order. */
function isSequential(section: Section): boolean {
  return (
    section.headings.some(saysSequential) ||
    section.blocks.some((b) => b.kind === 'paragraph' && saysSequential(b.plain))
  )
}

/** Two or more items, each naming a file (a code span with an extension) that no other item names: a list of changes. */
function isChangeList(items: readonly ListItem[]): boolean {
  const files = items.map((i) => i.head.codeSpans.map((c) => c.code).find((code) => /^[\w./-]+\.[A-Za-z0-9]+$/.test(code) && code.includes('/')))
  return items.length >= 2 && files.every(Boolean) && new Set(files).size === files.length
}
