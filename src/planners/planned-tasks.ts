import type { TaskAction } from '../model/index.js'
import type { ListItem, Section } from './markdown.js'
import { listRole } from './block-roles.js'
import { leadingAction } from './phrases.js'
import { NOT_TASKS, sectionRole } from './sections.js'
import { addFiles, draftTask, type RepositoryFiles, type TaskDraft } from './task-draft.js'
import { bugDescription, frameText, isFactsHeading, type BugFacts } from './bug-report.js'
import { orderTestsAfterChanges, proseFollowUps } from './follow-ups.js'
import { orderByLayer } from './layers.js'
import { orderByMention } from './mentions.js'
import { orderRemovalsAfterMoves } from './removals.js'
import { isEmptyAnswer } from './templates.js'
import type { FoundTaskItems } from './task-items.js'
import { capitalise, squash } from './text.js'
import type { IssueDocument } from './types.js'

/** A task with its id and dependencies, gathering the criteria and commands given to it. */
export interface PlannedTask extends TaskDraft {
  id: string
  /** Resolved ids: the enclosing task, the ones it comes after by the list's order or its words, then the stated ones. */
  dependencies: string[]
  manualChecks: string[]
  definitionOfDone: string[]
}

/**
 * Tasks T1, T2, … in document order, from the task items or, when there are none, one task from
 * the title. Labels (`T5: …` on the second item) are translated to positional ids (T2) when they
 * differ; a label wins over a positional id it collides with. Dependencies on missing tasks are
 * kept for the plan analysis to report. Returns notes on translated labels.
 */
export function planTasks(issue: IssueDocument, sections: readonly Section[], found: FoundTaskItems, facts: BugFacts | undefined, repo?: RepositoryFiles) {
  const tasks: PlannedTask[] = found.items.length
    ? found.items.map((entry, i) => {
        const id = `T${i + 1}`
        const structural = [...(entry.parent === undefined ? [] : [entry.parent]), ...entry.after].map((index) => `T${index + 1}`)
        const draft = draftTask(entry.item, `Task ${id}`, repo)
        // A numbered heading's words are its title; its first paragraph, drafted as the item, says what to do.
        const titled = entry.title ? { title: entry.title, untitled: false, action: leadingAction(entry.title) ?? draft.action } : {}
        // A defect listed in a bug report: fixed when it no longer happens.
        const criteria = [...(entry.defect ? [...draft.criteria, `No longer happens: ${draft.title}`] : draft.criteria), ...(entry.checks ?? [])]
        // The part of the work it belongs to ("Backend tasks") says where the task is, for the executor.
        const description = entry.group && !entry.title ? `${entry.group}: ${draft.description}` : draft.description
        return { ...draft, ...titled, description, criteria, id, dependencies: structural, manualChecks: [], definitionOfDone: [] }
      })
    : fromTitle(issue, sections, facts, repo)
  // A list of work, then a sentence that asks for a test or a document in a file no task has ("Also update
  // `docs/importing.md` …"): a task of its own after the list (issue 38: every work item is placed).
  if (found.items.length && found.source !== 'defects') {
    const has = new Set(tasks.flatMap((t) => t.files.map((f) => f.path)))
    for (const draft of proseFollowUps(sections, repo).filter((d) => d.files.length && d.files.every((f) => !has.has(f.path))))
      tasks.push({ ...draft, id: `T${tasks.length + 1}`, dependencies: [], manualChecks: [], definitionOfDone: [] })
  }

  const notes: string[] = []
  const byLabel = new Map<string, string>()
  for (const task of tasks)
    for (const label of task.labels)
      if (label !== task.id && !byLabel.has(label)) {
        byLabel.set(label, task.id)
        notes.push(`${task.id} is labelled ${label} in the issue: references to ${label} mean ${task.id}`)
      }
  const resolve = (ref: string) => byLabel.get(ref) ?? ref
  for (const task of tasks) task.dependencies = [...new Set([...task.dependencies, ...task.dependencyRefs.map(resolve)])]
  const removals = orderRemovalsAfterMoves(tasks)
  if (removals.length) notes.push(`a removal comes after the work that moves its readers: ${removals.join(', ')}`)
  const tested = orderTestsAfterChanges(tasks)
  if (tested.length) notes.push(`a test task comes after the change it tests: ${tested.join(', ')}`)
  // Defects listed in one report are independent fixes, whatever files they name or however they are laid out.
  const named = found.source === 'defects' ? [] : orderByMention(tasks)
  if (named.length) notes.push(`a task that names the module or code of an earlier one comes after it: ${named.join(', ')}`)
  const layered = found.source === 'defects' ? [] : orderByLayer(tasks)
  if (layered.length) notes.push(`work across layers goes storage → code → screen → docs: ${layered.join(', ')}`)
  return { tasks, resolve, notes }
}

/**
 * With no task items: the task the title names, then one task for each test or document the prose asks for in
 * a named file, after it (those files are theirs, not the first task's).
 */
function fromTitle(issue: IssueDocument, sections: readonly Section[], facts: BugFacts | undefined, repo: RepositoryFiles | undefined): PlannedTask[] {
  const main = titleTask(issue, sections, facts, repo)
  const followUps = proseFollowUps(sections, repo)
  const theirs = new Set(followUps.flatMap((d) => d.files.map((f) => f.path)))
  // When the files the prose names are all tests or documents, they are the work itself, not a follow-up.
  if (followUps.length && main.files.every((f) => theirs.has(f.path))) followUps.length = 0
  if (followUps.length) {
    main.files = main.files.filter((f) => !theirs.has(f.path))
    main.implementation = main.implementation.map((step) => ({ ...step, actions: main.files.map((f) => `${capitalise(f.action)} ${f.path}`) }))
  }
  const planned = (draft: TaskDraft, i: number): PlannedTask => ({ ...draft, id: `T${i + 1}`, dependencies: i ? ['T1'] : [], manualChecks: [], definitionOfDone: [] })
  return [main, ...followUps].map(planned)
}

/**
 * With no task items, one task: the issue title (without `[Bug]`-style tags), its action from the
 * title's first verb or conventional-commit prefix (`fix: …`) — Fix for a bug report whose title names
 * no verb — and the files the title or the issue's prose name in backticks. Its description is the
 * issue's prose, and for a bug report the whole report (steps, bisect, stack frames, environment), whose
 * stack frames in the repository are files to change.
 */
function titleTask(issue: IssueDocument, sections: readonly Section[], facts: BugFacts | undefined, repo: RepositoryFiles | undefined): TaskDraft {
  const bug = facts !== undefined
  const title = titleWords(issue.title) || `Resolve issue #${issue.number}`
  const prefix = /^([A-Za-z]+)(?:\([^)]*\))?!?:\s+/.exec(title)
  const action: TaskAction =
    leadingAction(prefix ? title.slice(prefix[0].length) : title) ?? (prefix && leadingAction(prefix[1]!)) ?? (bug ? 'Fix' : 'Implement')
  const prose = issueProse(sections, issue)
  // The actual behaviour is said once: it may already be the description's first paragraph.
  const unsaid = facts && { ...facts, actual: facts.actual.filter((line) => !prose.some((p) => p.includes(line))) }
  const description = [...prose, ...(unsaid ? bugDescription(unsaid) : [])]
  const draft: TaskDraft = {
    labels: [], title, untitled: false, description: description.join('\n\n'), action,
    files: [], implementation: [], criteria: [], commands: [], dependencyRefs: [], evidence: [],
  }
  const titleSpans = [...issue.title.matchAll(/`([^`]+)`/g)].map((m) => ({ code: m[1]!, before: issue.title.slice(0, m.index) }))
  addFiles(draft, titleSpans, action, title, repo)
  for (const section of proseSections(sections))
    for (const block of section.blocks) {
      if (block.kind === 'paragraph') addFiles(draft, block.codeSpans, action, squash(block.text), repo)
      // The points of a description or proposal name where the change goes too; a context list (logs, versions) does not.
      else if (block.kind === 'list' && DESCRIBING.has(listRole(section, block)))
        for (const item of block.items) if (item.checked === undefined) addFiles(draft, item.head.codeSpans, action, squash(item.head.text), repo)
    }
  // What happens instead often names the code at fault ("`applyRange` in `src/board/filters.ts` is never called").
  for (const line of facts?.actual ?? []) addFiles(draft, [...line.matchAll(/`([^`]+)`/g)].map((m) => ({ code: m[1]!, before: line.slice(0, m.index) })), action, line, repo)
  // A snippet headed by a comment naming its file (`// src/pages/list.js`) says where the code at fault is.
  for (const section of bug ? sections : [])
    for (const block of section.blocks)
      for (const named of block.kind === 'code' ? snippetFile(block.text) : []) {
        const had = draft.files.length
        addFiles(draft, [named], action, `${named.code} (snippet)`, repo)
        if (draft.files.length > had) draft.description += `\n\nWhere: ${named.code} (the snippet's file)`
      }
  for (const frame of facts?.frames ?? []) addFiles(draft, [{ code: frameText(frame), before: '' }], action, `${facts!.error ?? 'error'} (stack frame)`, repo)
  // Naming no file, the work goes where an acceptance item says it is written ("The SQL … is written in `scripts/x.sql`").
  if (!draft.files.length)
    for (const section of sections)
      for (const block of section.blocks)
        if (block.kind === 'list' && listRole(section, block) === 'criteria')
          for (const item of block.items)
            if (WHERE_WRITTEN.test(item.head.text)) {
              addFiles(draft, item.head.codeSpans, action, squash(item.head.text), repo)
              if (draft.files.length) draft.description += `\n\nWhere: ${draft.files.map((f) => f.path).join(', ')} (${squash(item.head.plain)})`
            }
  draft.implementation.push({ step: '1', description: title, actions: draft.files.map((f) => `${capitalise(f.action)} ${f.path}`) })
  return draft
}

/** The path a snippet's first line names in a comment: `// src/a.ts`, `# app/models.py`, `<!-- src/App.vue -->`. */
function snippetFile(code: string): Array<{ code: string; before: string }> {
  const path = /^\s*(?:\/\/|#|\/\*|<!--|--)\s*((?:[\w.@-]+\/)*[\w.@-]+\.\w+)\s*(?:\*\/|-->)?\s*$/.exec(code.split('\n')[0] ?? '')?.[1]
  return path ? [{ code: path, before: '' }] : []
}

const WHERE_WRITTEN = /\b(?:is|are|gets?) (?:written|kept|saved|added|placed|stored) (?:in|to|into|under) `[^`]+\.\w+`/i

/** The title without `[Bug]`-style tags; empty when it is nothing but tags. */
export function titleWords(title: string): string {
  return squash(title.replace(/^\s*(?:[[【(（][^\]】)）]*[\]】)）]\s*:?\s*)+/, '').replace(/^[\s:：-]+$/, ''))
}

const DESCRIBING: ReadonlySet<ReturnType<typeof sectionRole>> = new Set([undefined, 'description', 'proposal', 'tasks'])

/**
 * The issue's prose a task made from the title carries, for the executor to work from: the description first, then
 * the rest of what describes or proposes the change, and the additional context under its heading ("Additional
 * context: the parser is in `src/parse.ts`"). A bug report's steps, trace and environment come with its facts.
 */
const PROSE_PARAGRAPHS = 10
function issueProse(sections: readonly Section[], issue: IssueDocument): string[] {
  const first = issueDescription(sections, issue).text
  const rest = sections
    .filter((s) => { const role = sectionRole(s); return !role || role === 'description' || role === 'proposal' || role === 'tasks' || (role === 'context' && !isFactsHeading(s.headings.join(' '))) })
    .flatMap((s) => {
      const role = sectionRole(s)
      const texts = s.blocks.flatMap((b) => (b.kind === 'paragraph' && !isEmptyAnswer(b.plain) ? [squash(b.text)] : b.kind === 'list' && listRole(s, b) === role ? [listText(b.items)] : []))
      const heading = s.headings[s.headings.length - 1]
      return role === 'context' && heading ? texts.map((t) => `${heading.replace(/[:：]\s*$/, '')}: ${t}`) : texts
    })
    .filter((p) => p && p !== first)
  return [first, ...rest.slice(0, PROSE_PARAGRAPHS - 1)]
}

/** A list the description or proposal writes its points in, one `- item` line each (ticked boxes are confirmations, left out). */
function listText(items: readonly ListItem[]): string {
  return items.filter((i) => i.checked === undefined && !isEmptyAnswer(i.head.plain)).map((i) => `- ${squash(i.head.text)}`).join('\n')
}

/**
 * The first paragraph of the section that says what the problem is ("Describe the bug", "Summary",
 * 问题描述, Descrição…), else of a section with no role or a task section, else of a context section;
 * unanswered form fields (`_No response_`) are skipped. Else the title.
 */
export function issueDescription(sections: readonly Section[], issue: IssueDocument): { text: string; fromTitle: boolean } {
  const rank = (s: Section) => {
    const role = sectionRole(s)
    return role === 'description' ? 0 : !role || role === 'tasks' ? 1 : 2
  }
  const ranked = proseSections(sections).map((s, i) => ({ s, i })).sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i)
  for (const { s } of ranked) {
    const paragraph = s.blocks.find((b) => b.kind === 'paragraph' && squash(b.text) && !isEmptyAnswer(b.plain))
    if (paragraph?.kind === 'paragraph') return { text: squash(paragraph.text), fromTitle: false }
  }
  return { text: squash(issue.title) || `Resolve issue #${issue.number}`, fromTitle: true }
}

/** Sections that describe the problem: not acceptance, expected behaviour, done, verification, constraints or confirmations. */
function proseSections(sections: readonly Section[]): Section[] {
  return sections.filter((s) => {
    const role = sectionRole(s)
    return !role || !NOT_TASKS.has(role) || role === 'context'
  })
}
