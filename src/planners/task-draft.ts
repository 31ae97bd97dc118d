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
export function draftTask(item: ListItem, fallbackTitle: string, repo?: RepositoryFiles): TaskDraft {
  const label = leadingLabel(item.head.text, 'loose')
  const dependencies = dependencyPhrases(label.rest)
  // Emoji and marks a template puts before the words ("📝 **Update** …") are not part of the title.
  const text = squash(dependencies.rest).replace(/^[^\p{L}\p{N}`[(]+/u, '')
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
  addFiles(draft, [...item.head.codeSpans, ...bareFileSpans(item.head)], action, text, repo)

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
      addFiles(draft, child.head.codeSpans, action, childText, repo)
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

/**
 * The repository's tracked files, when the planner is given them: a path named in the issue is a file to change
 * only when it is one of them (or the end of exactly one), or when the task creates it.
 */
export interface RepositoryFiles {
  resolve(path: string): string | undefined
}

export function repositoryFiles(tracked: readonly string[]): RepositoryFiles {
  const exact = new Set(tracked)
  const byEnd = new Map<string, string[]>()
  for (const path of tracked)
    for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) byEnd.set(path.slice(at + 1), [...(byEnd.get(path.slice(at + 1)) ?? []), path])
  return { resolve: (path) => (exact.has(path) ? path : byEnd.get(path)?.length === 1 ? byEnd.get(path)![0] : undefined) }
}

/** Top-level folders of source, tests and docs: without a file list, a path with no extension must start with one (`src/cli`, not `api/user-id`). */
const SOURCE_ROOTS = /^(?:src|lib|app|apps|packages|test|tests|spec|docs?|bin|scripts|config|cmd|internal|pkg|\.github)\//

/**
 * Files named in code spans; a path named twice keeps its first action and gathers every description. With the
 * repository's files, a path that is not one of them counts only when the task creates it.
 */
export function addFiles(draft: Pick<TaskDraft, 'files' | 'evidence'>, spans: readonly CodeSpan[], action: TaskAction, change: string, repo?: RepositoryFiles) {
  for (const span of spans) {
    const found = filePath(span.code)
    if (!found) continue
    const fileAction = fileActionFor(action, span.before)
    const path = repo ? (repo.resolve(found.path) ?? (fileAction === 'create' ? found.path : undefined)) : plausiblePath(found.path)
    if (!path) continue
    if (found.line !== undefined) draft.evidence.push(`${path}:${found.line}`)
    const existing = draft.files.find((f) => f.path === path)
    if (existing) {
      if (!existing.changes.includes(change)) existing.changes.push(change)
    } else draft.files.push({ path, action: fileAction, target: null, changes: [change] })
  }
}

function plausiblePath(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1)
  return name.includes('.') || !path.includes('/') || SOURCE_ROOTS.test(path) ? path : undefined
}

/** Names of libraries written like files ("Node.js"), never the repository's. */
const LIBRARY_NAME = /^(?:node|vue|next|nuxt|express|react|three|chart|d3|moment|ember|backbone|angular|alpine|socket)\.js$/i

/**
 * File names written without backticks in a line ("Create shortcuts.md", "add a link in readme.md"), as spans for
 * {@link addFiles}: a word with a known extension, outside code spans, not a URL or a library's name.
 */
export function bareFileSpans(line: InlineText): CodeSpan[] {
  const spans: CodeSpan[] = []
  const text = line.text.replace(/`[^`]*`/g, (m) => ' '.repeat(m.length))
  for (const m of text.matchAll(/(?<![\w@/.:-])((?:[\w-]+\/)*[\w-]+\.[A-Za-z0-9]{1,5})(?![\w/.-]*(?:\/\/|\w))/g)) {
    const word = m[1]!
    if (!/\.[A-Za-z]/.test(word) || LIBRARY_NAME.test(word) || !filePath(word)?.path.includes('.')) continue
    spans.push({ code: word, before: text.slice(0, m.index).replace(/`/g, '') })
  }
  return spans
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
