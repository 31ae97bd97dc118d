import type { FileChange, ImplementationStep, TaskAction } from '../model/index.js'
import type { CodeSpan, InlineText, ListItem } from './markdown.js'
import { dependencyPhrases, fileActionFor, filePath, leadingAction, leadingLabel } from './phrases.js'
import { isShellBlock, shellCommands } from './shell.js'
import { capitalise, shortTitle, squash } from './text.js'

/** A task as read from one list item, before the issue-wide criteria and commands are given out. */
export interface TaskDraft {
  /** Ids written in a leading label (`T3: …`); references to them are translated to positional ids. */
  labels: string[]
  title: string
  /** True when the item had no words left to make a title from. */
  untitled: boolean
  description: string
  action: TaskAction
  files: FileChange[]
  implementation: ImplementationStep[]
  criteria: string[]
  commands: string[]
  /** Task references from dependency phrases, as written (before label translation). */
  dependencyRefs: string[]
  /** `path:line` references. */
  evidence: string[]
}

const CRITERION_PREFIX = /^\s*(?:acceptance(?:\s+criteri(?:on|a))?|criteri(?:on|a)|ac|验收(?:标准)?)\s*[:：]\s*/i
const COMMAND_PREFIX = /^\s*(?:run|verify|verification|test|check|\$)\s*[:：]?\s*/i

/**
 * Reads one task item. Its first line gives the label, the dependency phrases, the title (first
 * sentence, without the phrases and backticks), the action (its first verb) and the files (paths in
 * backticks, described by the item's text). Its plain sub-items are implementation steps, except
 * `Acceptance: …` (a criterion) and `Run: \`cmd\`` (a command); a shell block inside it holds commands.
 */
export function draftTask(item: ListItem, fallbackTitle: string): TaskDraft {
  const label = leadingLabel(item.head.text, 'loose')
  const dependencies = dependencyPhrases(label.rest)
  const text = squash(dependencies.rest)
  const plain = squash(text.replaceAll('`', ''))
  const title = shortTitle(plain)
  const action = leadingAction(title) ?? 'Implement'
  const draft: TaskDraft = {
    labels: label.refs,
    title: title || fallbackTitle,
    untitled: !title,
    description: [text || fallbackTitle, ...item.more.map((p) => squash(p.text))].filter(Boolean).join('\n\n'),
    action,
    files: [],
    implementation: [],
    criteria: [],
    commands: [],
    dependencyRefs: dependencies.refs,
    evidence: [],
  }
  addFiles(draft, item.head.codeSpans, action, text)

  for (const child of item.children) {
    if (child.checked !== undefined) continue // a task of its own
    const childText = squash(child.head.text)
    const childDependencies = dependencyPhrases(childText)
    if (childDependencies.refs.length && !squash(childDependencies.rest)) {
      draft.dependencyRefs.push(...childDependencies.refs) // a sub-item that only says "depends on T1"
      continue
    }
    const criterion = CRITERION_PREFIX.exec(childText)
    const command = singleCommand(child.head)
    if (criterion) draft.criteria.push(childText.slice(criterion[0].length))
    else if (command) draft.commands.push(command)
    else if (childText) {
      draft.implementation.push({
        step: String(draft.implementation.length + 1),
        description: childText,
        actions: child.children.map((c) => squash(c.head.text)).filter(Boolean),
      })
      addFiles(draft, child.head.codeSpans, action, childText)
    }
  }
  for (const block of item.code) if (isShellBlock(block)) draft.commands.push(...shellCommands(block).map((c) => c.command))

  if (!draft.implementation.length)
    draft.implementation.push({
      step: '1',
      description: draft.title,
      actions: draft.files.map((f) => `${capitalise(f.action)} ${f.path}`),
    })
  return draft
}

/** Files named in code spans; a path named twice keeps its first action and gathers every description. */
export function addFiles(draft: Pick<TaskDraft, 'files' | 'evidence'>, spans: readonly CodeSpan[], action: TaskAction, change: string) {
  for (const span of spans) {
    const found = filePath(span.code)
    if (!found) continue
    if (found.line !== undefined) draft.evidence.push(`${found.path}:${found.line}`)
    const existing = draft.files.find((f) => f.path === found.path)
    if (existing) {
      if (!existing.changes.includes(change)) existing.changes.push(change)
    } else draft.files.push({ path: found.path, action: fileActionFor(action, span.before), target: null, changes: [change] })
  }
}

/**
 * A line that is one command in a code span, optionally after "Run"/"Verify"/"$": `` Run: `npm test` ``.
 * A lone path (`` `src/a.ts` ``) is not a command.
 */
export function singleCommand(line: InlineText): string | undefined {
  const span = line.codeSpans.length === 1 ? line.codeSpans[0]! : undefined
  const command = span?.code.replace(/^\s*\$\s+/, '').trim()
  if (!span || !command || line.text.replace(COMMAND_PREFIX, '').trim() !== `\`${span.code}\`` || filePath(command)) return undefined
  return command
}
