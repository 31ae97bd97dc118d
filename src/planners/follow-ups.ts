import type { TaskAction } from '../model/index.js'
import type { Section } from './markdown.js'
import { filePath } from './phrases.js'
import { sectionRole } from './sections.js'
import { addFiles, type RepositoryFiles, type TaskDraft } from './task-draft.js'
import { REPRODUCTION_HEADING } from './templates.js'
import { shortTitle, squash } from './text.js'

/**
 * The work an issue asks for after its main change: tests and documentation. A test task comes after the change
 * it tests; a sentence of the prose that asks for a test or a document in a named file is a task of its own.
 */

const TEST_FILE = /(?:^|\/)(?:tests?|__tests__|spec)\/|[._-](?:test|spec)\.\w+$|(?:^|\/)test_[\w-]+\.py$/i
const DOC_FILE = /\.(?:md|mdx|rst|adoc)$|^docs?\/.*\.txt$|^readme(?:\.\w+)?$/i

/** A sentence that asks for documentation ("Document both hooks in …", "list your names in …"), not one that names a file the product writes. */
const DOC_VERB = /\b(?:document|describe|explain|mention|(?:also )?(?:update|revise|rewrite|correct) (?:the |our )?(?:`[^`]*\w|docs?|documentation|readme|guide)|list\s+(?:\w+\s+){0,3}in|add (?:a |an )?(?:section|link|entry|row|note|paragraph))\b|文档|ドキュメント|document(?:ar|er|ieren)|beschreib|記載|追記|説明を(?:追加|書)|说明/i

/** A sentence that checks the change with tests already there, and one that asks for tests to be written. */
const CHECKS_EXISTING = /\b(?:existing|current|present) tests?\b|\btests? (?:still |all |keep )?pass(?:es|ing)?\b|\btestes? existentes?\b|\bpruebas existentes\b|\bbestehenden? tests?\b|\btests? existants?\b|既存の?テスト|现有(?:的)?测试/i
const WRITES_TESTS = /\b(?:add|write|create|extend|cover|new)\b|\bescrev|\bcri[ae]|\bañad|\bhinzuf|\bajout|追加|编写|新增/i

export function isTestFile(path: string): boolean {
  return TEST_FILE.test(path)
}

export function isDocFile(path: string): boolean {
  return DOC_FILE.test(path)
}

/** The name of a file without its directories, its test suffix and its extension: `tests/cli/export.test.ts` → `export`. */
export function stem(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.\w+$/, '').replace(/[._-](?:test|spec)$/i, '').replace(/^test_/, '').toLowerCase()
}

interface Ordered {
  id: string
  title: string
  files: readonly { path: string }[]
  dependencies: string[]
}

/** A task that writes tests: its files are all tests, or (naming none) its title says it tests something. */
const TEST_TITLE = /^(?:write|add|create|extend|cover)\b.*\b(?:unit |integration |e2e |regression )?tests?\b|^test\b/i
const COMMON = new Set(['tests', 'write', 'cover', 'covers', 'unit', 'integration', 'should', 'every', 'which', 'their', 'about', 'after'])
const words = (text: string) => new Set(text.toLowerCase().split(/[^\p{L}\p{N}_-]+/u).filter((w) => w.length >= 5 && !COMMON.has(w)))

/**
 * A task whose files are all tests depends on the earlier tasks that change the files they test (same name:
 * `export.test.ts` tests `export.ts`), when nothing else orders it. Returns the edges added, `T3 → T1`.
 */
export function orderTestsAfterChanges(tasks: Ordered[]): string[] {
  const added: string[] = []
  tasks.forEach((task, i) => {
    const tests = task.files.filter((f) => isTestFile(f.path))
    const testing = tests.length ? tests.length === task.files.length : TEST_TITLE.test(task.title)
    if (!testing || task.dependencies.length) return
    const stems = new Set(tests.map((f) => stem(f.path)))
    const byFile = tasks.slice(0, i).filter((t) => t.files.some((f) => !isTestFile(f.path) && stems.has(stem(f.path))))
    // Naming no file it tests, it follows the earlier changes that share a word of what it tests ("the serializer").
    const topic = words(task.title)
    const changes = byFile.length ? byFile : tasks.slice(0, i).filter((t) => !TEST_TITLE.test(t.title) && [...words(t.title)].some((w) => topic.has(w)))
    for (const change of changes) {
      task.dependencies.push(change.id)
      added.push(`${task.id} → ${change.id}`)
    }
  })
  return added
}

/**
 * Sentences of the prose that ask for a test or a document in a named file ("Add a test for both cases to
 * `tests/search.test.ts`", "Document both hooks in `docs/plugins.md`"): each a task after the main one. Sentences
 * of the steps to reproduce, the confirmations and the criteria are not read.
 */
export function proseFollowUps(sections: readonly Section[], repo?: RepositoryFiles): TaskDraft[] {
  const drafts: TaskDraft[] = []
  for (const section of sections) {
    const role = sectionRole(section)
    if (role && role !== 'context' && role !== 'description' && role !== 'proposal' && role !== 'tasks') continue
    if (REPRODUCTION_HEADING.test(section.headings[section.headings.length - 1] ?? '')) continue
    for (const block of section.blocks) {
      if (block.kind !== 'paragraph') continue
      for (const sentence of block.text.split(/(?<=[.!?])\s+|(?<=[。！？])/)) {
        const paths = [...sentence.matchAll(/`([^`]+)`/g)].flatMap((m) => filePath(m[1]!)?.path ?? [])
        const kind = paths.some(isTestFile) ? 'Test' : paths.some((p) => DOC_FILE.test(p)) && DOC_VERB.test(sentence) ? 'Document' : undefined
        if (!kind || !paths.every((p) => isTestFile(p) || DOC_FILE.test(p))) continue
        // "… for every existing test in `tests/api/test_loans.py`" checks the change with the tests there: a criterion, not new tests.
        if (kind === 'Test' && CHECKS_EXISTING.test(sentence) && !WRITES_TESTS.test(sentence)) continue
        drafts.push(followUp(squash(sentence), kind === 'Test' ? 'Test' : 'Update', repo))
      }
    }
  }
  return drafts
}

function followUp(sentence: string, action: TaskAction, repo: RepositoryFiles | undefined): TaskDraft {
  const title = shortTitle(sentence.replaceAll('`', ''))
  const draft: TaskDraft = {
    labels: [], title, untitled: false, description: sentence, action,
    files: [], implementation: [], criteria: [], commands: [], dependencyRefs: [], evidence: [],
  }
  const spans = [...sentence.matchAll(/`([^`]+)`/g)].map((m) => ({ code: m[1]!, before: sentence.slice(0, m.index) }))
  addFiles(draft, spans, action, sentence, repo)
  draft.implementation.push({ step: '1', description: title, actions: draft.files.map((f) => `${f.action} ${f.path}`) })
  return draft
}
