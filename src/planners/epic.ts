/**
 * Epics and dependencies as people write them in an issue's text. Pure.
 *
 * An epic is an issue whose list items reference other issues of the same repository (`- [ ] #123`,
 * `- [x] #124 Login page`, `- [ ] owner/repo#12`, `- [ ] https://github.com/owner/repo/issues/12`): those are
 * its children, in order, ticked or not, under the section heading they stand in. `blockedByRefs` reads the
 * issues a text says it waits for ("blocked by #12", "depends on #12", "依赖 #12", "depende de #12", "#12 の後").
 */
import { readMarkdown, type ListItem, type Section } from './markdown.js'
import { filePath } from './phrases.js'
import { sectionRole } from './sections.js'
import { isHousekeeping } from './process-steps.js'
import { squash } from './text.js'

export interface RepoName {
  owner: string
  repo: string
}

export interface EpicChild {
  number: number
  /** Ticked (`- [x]`): already done. */
  done: boolean
  /** Words written with the reference (`- [ ] #125 Login page` → "Login page"), if any. */
  title?: string
  /** The heading the item stands under (Frontend, Backend), if any. */
  section?: string
}

/** A list item of the epic that references no issue: work of the epic itself. */
export interface EpicWorkItem {
  text: string
  done: boolean
  section?: string
}

export interface Epic {
  /** The referenced issues, in the order they are listed, each once. */
  children: EpicChild[]
  /** The children are to be done in the listed order: a numbered list, or ordering words ("in order", "then", "依次"). */
  ordered: boolean
  /** Plain items of the same lists: they stay work of the epic. */
  work: EpicWorkItem[]
}

/** `#12`, `owner/repo#12` or an issue URL, alone at the start of an item, or at its end after a title. */
const REF = String.raw`(?:(?:https?:\/\/[^\s/]+\/)?([\w.-]+)\/([\w.-]+)(?:\/issues\/|#)|#)(\d+)`
const REF_FIRST = new RegExp(String.raw`^\(?${REF}\)?(?:\s*[-–—:|]\s*|\s+|$)(.*)$`, 'i')
const REF_LAST = new RegExp(String.raw`^(.*?)\s*(?:[-–—:|]\s*)?[(\[]${REF}[)\]]$|^(.*?)\s+[-–—:|]\s*${REF}$`, 'i')

/**
 * The epic `body` describes, or undefined when it is not one: at least one task-list item (or two plain list
 * items) must be a reference to another issue of `repo` (of any repository but `owner/repo#n` ones and URLs
 * when `repo` is not given, where only `#n` counts). A reference in prose makes no epic.
 */
export function readEpic(body: string, repo?: RepoName): Epic | undefined {
  const sections = readMarkdown(body)
  const children: EpicChild[] = []
  const work: EpicWorkItem[] = []
  let taskReferences = 0
  let numbered = false
  const seen = new Set<number>()
  for (const section of sections) {
    const heading = section.headings[section.headings.length - 1]
    for (const block of section.blocks) {
      if (block.kind !== 'list') continue
      const visit = (items: ListItem[], ordered: boolean) => {
        for (const item of items) {
          const text = squash(item.head.plain)
          const reference = itemReference(text, repo)
          if (reference) {
            if (item.checked !== undefined) taskReferences++
            if (ordered) numbered = true
            if (!seen.has(reference.number)) {
              seen.add(reference.number)
              children.push({
                number: reference.number,
                done: item.checked === true,
                ...(reference.title ? { title: reference.title } : {}),
                ...(heading ? { section: heading } : {}),
              })
            }
          } else if (text) {
            work.push({ text, done: item.checked === true, ...(heading ? { section: heading } : {}) })
          }
          visit(item.children, false)
        }
      }
      visit(block.items, block.ordered)
    }
  }
  if (taskReferences === 0 && children.length < 2) return undefined
  return { children, ordered: numbered || saysInOrder(sections), work }
}

/**
 * The epic's own acceptance items that no child covers (issue 38): the unticked items of its acceptance or done
 * lists that name a file no child's title names, reference no issue, are no step of the team's process, and share
 * fewer than half their words with any child's title ("An end-to-end test in `tests/e2e/offline.spec.ts` …" beside
 * "#121 Articles can be saved …"). No child will do them, so they are planned as the epic's own tasks; an item that
 * names no file ("no issue left without an epic") is what the children together achieve, and stays a criterion.
 */
export function uncoveredAcceptance(sections: readonly Section[], epic: Epic, repo?: RepoName): ListItem[] {
  const titles = epic.children.flatMap((c) => (c.title ? [new Set(contentWords(c.title))] : []))
  const covered = (text: string) => {
    const words = contentWords(text)
    return titles.some((t) => words.filter((w) => t.has(w)).length * 2 >= words.length)
  }
  return sections.flatMap((section) => {
    const role = sectionRole(section)
    if (role !== 'criteria' && role !== 'done') return []
    return section.blocks.flatMap((b) =>
      b.kind === 'list'
        ? b.items.filter((i) => {
            const text = squash(i.head.plain)
            const files = i.head.codeSpans.flatMap((c) => filePath(c.code)?.path ?? [])
            const own = files.some((f) => !epic.children.some((c) => c.title?.includes(f)))
            return own && i.checked !== true && itemReference(text, repo) === undefined && !/#\d+/.test(text) && !isHousekeeping(text) && !covered(text)
          })
        : [],
    )
  })
}

const contentWords = (text: string): string[] => [...new Set(text.toLowerCase().match(/[\p{L}\d]{4,}/gu) ?? [])]

/** The issue a list item's text references (`#12`, `#12 Login page`, `Login page (#12)`), if it is one. */
export function referencedIssue(text: string, repo?: RepoName): number | undefined {
  return itemReference(squash(text), repo)?.number
}

function itemReference(text: string, repo: RepoName | undefined): { number: number; title?: string } | undefined {
  const first = REF_FIRST.exec(text)
  if (first) {
    const number = sameRepository(first[1], first[2], first[3]!, repo)
    if (number !== undefined) return withTitle(number, first[4])
  }
  const last = REF_LAST.exec(text)
  if (last) {
    const [owner, name, n, title] = last[5] !== undefined ? [last[6], last[7], last[8]!, last[5]] : [last[2], last[3], last[4]!, last[1]]
    const number = sameRepository(owner, name, n, repo)
    if (number !== undefined) return withTitle(number, title)
  }
  return undefined
}

function withTitle(number: number, title: string | undefined): { number: number; title?: string } {
  const words = squash(title ?? '')
  return words ? { number, title: words } : { number }
}

function sameRepository(owner: string | undefined, name: string | undefined, n: string, repo: RepoName | undefined): number | undefined {
  const number = Number(n)
  if (!Number.isSafeInteger(number) || number <= 0) return undefined
  if (owner === undefined) return number
  if (!repo) return undefined
  return owner.toLowerCase() === repo.owner.toLowerCase() && name!.toLowerCase() === repo.repo.toLowerCase() ? number : undefined
}

/** Ordering words in the epic's prose or headings (not in its items' titles). */
const IN_ORDER = [
  /\b(?:in (?:this|that|the following|the listed|the given)?\s*order|one after (?:the )?other|sequentially|then)\b/i,
  /依次|按顺序|按照顺序|顺序执行|逐个/,
  /\b(?:em ordem|nesta ordem|na ordem|sequencialmente|um após o outro|uma após a outra|depois)\b/i,
  /順番に|順に|順序通り/,
]

function saysInOrder(sections: Section[]): boolean {
  for (const section of sections) {
    for (const heading of section.headings) if (IN_ORDER.some((words) => words.test(heading))) return true
    for (const block of section.blocks) if (block.kind === 'paragraph' && IN_ORDER.some((words) => words.test(block.plain))) return true
  }
  return false
}

const REFS = String.raw`#\d+(?:\s*(?:,|、|，|and|&|e|和|及|と)\s*#\d+)*`
/** Words before the references: "blocked by #12", "depends on #12 and #13", "依赖 #12", "depende de #12". */
const BEFORE = new RegExp(String.raw`(?:\bblocked by|\bdepends on|\bdependent on|\bdepending on|\bwaits? (?:for|on)|\bwaiting (?:for|on)|\brequires|\bafter|依赖于?|取决于|等待|阻塞于|\bdepende de|\bdependente de|\bbloquead[oa] por|\baguarda(?:ndo)?|\bapós|\bdepois de)\s*(${REFS})`, 'gi')
/** Words after the references: "#12 の後", "#12 に依存", "#12 完成后", "#12 之后". */
const AFTER = new RegExp(String.raw`(${REFS})\s*(?:の後|の完了後|が完了してから|が終わってから|に依存|待ち|にブロックされ|之后|完成后|完成之后|阻塞)`, 'g')

/** The issue numbers `body` says it waits for, in the order first named; references in code are not read. */
export function blockedByRefs(body: string): number[] {
  const texts: string[] = []
  for (const section of readMarkdown(body)) {
    texts.push(...section.headings)
    for (const block of section.blocks) {
      if (block.kind === 'paragraph') texts.push(withoutCode(block.text))
      if (block.kind === 'list') {
        const visit = (items: ListItem[]) => {
          for (const item of items) {
            texts.push(withoutCode(item.head.text), ...item.more.map((m) => withoutCode(m.text)))
            visit(item.children)
          }
        }
        visit(block.items)
      }
    }
  }
  const found: number[] = []
  for (const text of texts) {
    const hits: Array<{ at: number; refs: string }> = []
    for (const pattern of [BEFORE, AFTER]) for (const match of text.matchAll(pattern)) hits.push({ at: match.index, refs: match[1]! })
    for (const hit of hits.sort((a, b) => a.at - b.at)) {
      for (const ref of hit.refs.matchAll(/#(\d+)/g)) {
        const n = Number(ref[1])
        if (n > 0 && !found.includes(n)) found.push(n)
      }
    }
  }
  return found
}

function withoutCode(text: string): string {
  return text.replace(/`[^`]*`/g, ' ')
}
