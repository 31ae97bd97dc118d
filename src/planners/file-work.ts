import { Lexer } from 'marked'
import { inlineText, type InlineText, type ListItem, type Section } from './markdown.js'
import { filePath, isMetadataLine } from './phrases.js'
import { sectionRole, type SectionRole } from './sections.js'
import { layerOf } from './layers.js'
import { previousCount, sequenceWord } from './ordering.js'
import { namesWork } from './mentions.js'
import type { TaskItem } from './task-items.js'
import { squash } from './text.js'

/**
 * The work an issue with no task list proposes in its prose, file by file. Read in turn, each source only while the
 * ones before it give fewer than two changes: a proposal's clauses that name files ("… saved by the sort menu
 * (`SortMenu.tsx`), and the list (`BookmarkList.tsx`) would read it") and the items of design lists that say what
 * changes in which file; the describing sections' design items and "…, then …" clauses; last, acceptance items that
 * say where the change goes (they stay criteria). Each clause or item that names a file no earlier one named is a
 * task; with fewer than two there is no such work (the title is the task). A clause that begins "then" comes after
 * the one before it, and then the written order stands; otherwise the tasks go storage → data access → code → screen
 * → tests → documents, the order a careful engineer would do them in. A design list's items that name no file, and an
 * item's sentences after its first, say how the design behaves: they are criteria.
 */
export interface FileWork {
  items: TaskItem[]
  /**
   * How the design behaves: the items of its lists that name no file (for every task), and the sentences of a
   * task's item after the one that says what to change (for that task, by its index in `items`).
   */
  statements: Array<{ text: string; task?: number }>
}

/** A sequence word at the start of a clause: "then …", "puis …", "затем …", "然后…". */
const THEN = String.raw`(?:and then|then|afterwards|puis|ensuite|luego|despu[ée]s|y,? una vez terminado,?|una vez terminado,?|depois|em seguida|dann|danach|anschlie[ßs]end|затем|потом|после этого)`
const CLAUSE_BREAK = new RegExp(String.raw`\s*[,;]?\s+(?=${THEN}\s)|[，、；]?(?=然后|之后|その後|次に)`, 'giu')
const STARTS_WITH_THEN = new RegExp(String.raw`^\s*(?:${THEN}\s|然后|之后|その後|次に)`, 'iu')

interface Unit {
  head: InlineText
  item?: ListItem
  files: string[]
  afterPrevious: boolean
}

export function fileWork(sections: readonly Section[], { bug, isRepositoryPath }: { bug: boolean; isRepositoryPath: (path: string) => boolean }): FileWork {
  const pathsOf = (head: InlineText) => [...new Set(head.codeSpans.flatMap((s) => filePath(s.code)?.path ?? []).filter(isRepositoryPath))]
  const read = (proposing: ReadonlySet<SectionRole | undefined>) => {
    const units: Unit[] = []
    const statements: FileWork['statements'] = []
    for (const section of sections) {
      const role = sectionRole(section)
      if (!proposing.has(role)) continue
      for (const block of section.blocks) {
        // A proposal's sentences that name files say where each change goes; elsewhere only a "then" sequence does.
        if (block.kind === 'paragraph') units.push(...(role === 'proposal' ? proposalClauses(block.text, pathsOf) : sequence(block.text, pathsOf)))
        else if (block.kind === 'list') {
          // A definition of done or an acceptance list may tick its items off; a ticked one is done already.
          const checklist = role === 'done' || role === 'criteria'
          const listed = block.items.filter((i) => (checklist ? i.checked !== true : i.checked === undefined) && !isMetadataLine(i.head.plain))
          // An item that is a path and little else ("Affected areas: - `src/a.ts`") says where, not what.
          const naming = listed.filter((i) => pathsOf(i.head).length && wordsBesidePaths(i.head) >= MIN_WORDS)
          if (!naming.length) continue
          for (const item of listed) {
            if (naming.includes(item)) units.push({ head: item.head, item, files: pathsOf(item.head), afterPrevious: STARTS_WITH_THEN.test(item.head.plain) })
            else if (!checklist && !pathsOf(item.head).length && squash(item.head.text)) statements.push({ text: squash(item.head.text) })
          }
        }
      }
    }
    return { units, statements }
  }
  // Where the issue says what to do wins over where it describes the problem; a bug report's other sections say what goes wrong.
  const proposed = read(PROPOSAL_ROLES)
  const described = proposed.units.length >= 2 || bug ? undefined : read(DESCRIBING_ROLES)
  // Last, criteria that say where the change goes ("A daily job in `src/jobs/remind.ts` picks …"): they stay criteria too.
  const sofar = described ? [...proposed.units, ...described.units] : proposed.units
  const stated = sofar.length >= 2 || bug ? undefined : read(CRITERIA_ROLES)
  const units = stated ? [...sofar, ...stated.units] : sofar
  const statements = described ? [...proposed.statements, ...described.statements] : proposed.statements
  // Each task is the first clause or item that names a file; later mentions of the same file are context.
  const claimed = new Set<string>()
  const work = units.filter((u) => {
    const fresh = u.files.filter((f) => !claimed.has(f))
    for (const f of u.files) claimed.add(f)
    return fresh.length > 0
  })
  if (work.length < 2) return { items: [], statements: [] }
  const ordered = work.some((u) => u.afterPrevious) ? work : [...work].sort((a, b) => rank(a.files) - rank(b.files))
  const items: TaskItem[] = ordered.map((u, i) => ({
    item: u.item ?? { head: u.head, more: [], checked: undefined, children: [], code: [] },
    after: earlierUnits(ordered, i),
  }))
  // "`src/sync/flush.ts` sends the queued edits. Edits are sent in the order they were made.": the later sentences are its criteria.
  const behaviour = ordered.flatMap((u, task) => (u.item ? laterSentences(u.item.head.text).map((text) => ({ text, task })) : []))
  return { items, statements: [...statements, ...behaviour] }
}

/**
 * The earlier units a unit comes after: the one before it when it begins "then", the ones "both" or "the two
 * above" point at, all of them "once the rest is done", and each whose module or identifier it names ("sends
 * the queued edits" after `src/sync/queue.ts`).
 */
function earlierUnits(units: readonly Unit[], i: number): number[] {
  const unit = units[i]!
  const text = unit.head.plain
  const after = new Set<number>()
  if (unit.afterPrevious && i > 0) after.add(i - 1)
  const count = previousCount(text)
  if (count) for (let k = Math.max(0, i - count); k < i; k++) after.add(k)
  if (sequenceWord(text) === 'all') for (let k = 0; k < i; k++) after.add(k)
  for (let k = 0; k < i; k++) if (namesWork(text, { files: units[k]!.files, text: units[k]!.head.text }, unit.files)) after.add(k)
  return [...after].sort((a, b) => a - b)
}

const PROPOSAL_ROLES: ReadonlySet<SectionRole | undefined> = new Set(['proposal', 'tasks', 'done'])
const DESCRIBING_ROLES: ReadonlySet<SectionRole | undefined> = new Set([undefined, 'description'])
const CRITERIA_ROLES: ReadonlySet<SectionRole | undefined> = new Set(['criteria'])
/** Words an item has besides its paths for it to say what to change there. */
const MIN_WORDS = 3

function wordsBesidePaths(head: InlineText): number {
  return head.text.replace(/`[^`]*`/g, ' ').split(/\s+/).filter((w) => /[\p{L}]{2,}/u.test(w)).length
}

/**
 * Clauses of a paragraph that say to change one file, then another ("Compute the totals in `totals.ts`, then have
 * `renderInvoice.ts` call it"): each a unit, the later after the earlier. Prose that names files without such a
 * sequence describes rather than plans, and gives none.
 */
function sequence(text: string, pathsOf: (head: InlineText) => string[]): Unit[] {
  const units: Unit[] = []
  let previous: Unit | undefined
  for (const clause of clauses(text)) {
    const head = inlineText(Lexer.lexInline(clause))
    const unit: Unit = { head, files: pathsOf(head), afterPrevious: STARTS_WITH_THEN.test(head.plain) }
    if (unit.afterPrevious && unit.files.length && previous?.files.length) {
      if (!units.includes(previous)) units.push(previous)
      units.push(unit)
    }
    previous = unit
  }
  return units
}

/** Each clause of a proposal's paragraph that names a file, in order; one that begins "then" comes after the one before. */
function proposalClauses(text: string, pathsOf: (head: InlineText) => string[]): Unit[] {
  const read = (clause: string) => inlineText(Lexer.lexInline(clause))
  return clauses(text).flatMap((clause) => {
    // "… saved by the menu (`SortMenu.tsx`), and the list (`BookmarkList.tsx`) would read it": two changes, when each part names a file.
    const parts = clause.split(AND_BREAK).map(read)
    const heads = parts.length > 1 && parts.every((p) => pathsOf(p).length) ? parts : [read(clause)]
    return heads.flatMap((head) => {
      const files = pathsOf(head)
      return files.length ? [{ head, files, afterPrevious: STARTS_WITH_THEN.test(head.plain) }] : []
    })
  })
}

const AND_BREAK = /,\s+(?:and|et|y|e|und|и)\s+|;\s+|；/iu

/** The sentences of an item after its first, each a statement of how the change behaves (at least a few words). */
function laterSentences(text: string): string[] {
  return squash(text)
    .split(/(?<=[.!?;])\s+(?=[A-Z\p{Lu}`])|(?<=[。！？])/u)
    .slice(1)
    .map((s) => s.trim())
    .filter((s) => s.split(/\s+/).length >= 4)
}

/** A paragraph's sentences, and a sentence's clauses at a sequence word ("…, then …"), as markdown. */
function clauses(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[A-ZÀ-ÖØ-Þ\p{Lu}`"«(])|(?<=[。！？])/u)
    .flatMap((sentence) => joinConjunctions(sentence.split(CLAUSE_BREAK).map((s) => s.trim())))
    .filter((s) => s.length > 0)
}

/** "…, y, una vez terminado, …" splits twice: the lone "y" goes with the clause it leads. */
function joinConjunctions(parts: string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    if (/^(?:and|y|e|et|und|и)$/i.test(part) && i + 1 < parts.length) parts[i + 1] = `${part}, ${parts[i + 1]}`
    else out.push(part)
  }
  return out
}

/** Where a change goes in the order of the work: storage, code, screen, then tests, then documents (by its first file). */
function rank(files: readonly string[]): number {
  const layer = layerOf(files[0]!)
  return layer === undefined ? 2.5 : layer
}
