import { listRole } from './block-roles.js'
import type { ListItem, Section } from './markdown.js'
import { filePath, leadingAction } from './phrases.js'
import { isConfirmation, isEmptyAnswer, isTemplatePrompt } from './templates.js'
import { isHousekeeping } from './process-steps.js'
import { squash } from './text.js'

/**
 * What of the issue the plan placed, and what it left out and why (issue 38, "never pass a plan it misread").
 * Every list item and every file path the issue names is either in the plan (a task's title, description,
 * criteria or files, or recorded as done) or named here with the reason. An entry marked `work` is work the
 * issue asks for that no task carries as its own: a plan with one cannot gate `pass` (`src/plan/quality.ts`).
 */
export interface LeftOut {
  item: string
  reason: string
  /** Work the issue asks for, or criteria the issue did not state: the plan must not pass without a person's look. */
  work?: boolean
}

interface PlacedTask {
  id: string
  title: string
  description: string
  criteria: string[]
  files: Array<{ path: string }>
  implementation?: Array<{ step: string; description: string; actions: string[] }>
}

const MAX_KEY = 40
/** The words of an item that must recur in the plan for it to count as placed (its first forty characters). */
const key = (text: string) => squash(text).replace(/^\s*T\d+\s*[:.)-]\s*/i, '').replace(/^\s*(?:acceptance(?:\s+criteri(?:on|a))?|criteri(?:on|a)|ac|验收(?:标准)?)\s*[:：]\s*/i, '').toLowerCase().replace(/[*_`"'“”]/g, '').slice(0, MAX_KEY).trim()

export function leftOutOf(
  sections: readonly Section[],
  tasks: readonly PlacedTask[],
  { done, inferredCriteria }: { done: readonly string[]; inferredCriteria: readonly string[] },
): LeftOut[] {
  const words = (t: PlacedTask) => [t.title, t.description, ...t.criteria, ...(t.implementation ?? []).flatMap((i) => [i.step, i.description, ...i.actions])].join('\n')
  const plan = tasks.map((t) => ({ ...t, whole: squash(words(t)).toLowerCase().replace(/[*_`"'“”]/g, '') }))
  const doneText = done.map((d) => squash(d).toLowerCase())
  const inPlan = (text: string) => {
    const k = key(text)
    return !k || plan.some((t) => t.whole.includes(k)) || doneText.some((d) => d.includes(k) || k.includes(d))
  }
  const out: LeftOut[] = []
  const seen = new Set<string>()
  const add = (entry: LeftOut) => {
    if (seen.has(entry.item)) return
    seen.add(entry.item)
    out.push(entry)
  }

  const check = (item: ListItem, role: string | undefined, nested: boolean) => {
    const text = squash(item.head.plain)
    if (!text || isEmptyAnswer(text)) return
    const excuse = excused(text, role, item)
    if (excuse) {
      if (!inPlan(text)) add({ item: text, reason: excuse })
      return
    }
    const paths = itemPaths(item)
    const stated = role === 'criteria' || role === 'expected' || role === 'verification'
    // Work: an item of a work list, a box left to tick, or an order that names the file it changes ("1. In `a.py`, open …").
    const work = role === 'tasks' || (item.checked === false && !stated) || (paths.length > 0 && leadingAction(text.replace(/^(?:in|on|at)\s+\S+\s*,?\s*/i, '')) !== undefined)
    if (work && nested) {
      if (!inPlan(text)) add({ item: text, reason: 'not placed in any task', work: true })
    } else if (work) {
      const own = plan.some((t) => key(t.title).includes(key(text).slice(0, 24)) || (paths.length > 0 && paths.every((p) => t.files.some((f) => f.path.endsWith(p)))))
      if (!own) add({ item: text, reason: inPlan(text) ? 'folded into another task: no task of its own carries it or its files' : 'not placed in any task', work: true })
    } else if (!inPlan(text) && stated) {
      add({ item: text, reason: 'an expected result no criterion states' })
    }
  }

  for (const section of sections) {
    for (const block of section.blocks) {
      if (block.kind !== 'list') continue
      const role = listRole(section, block)
      // A top-level item of work needs a task of its own; an item nested in one is placed when the plan says it anywhere.
      const visit = (items: readonly ListItem[], nested: boolean) => {
        for (const item of items) {
          check(item, role, nested)
          visit(item.children, true)
        }
      }
      visit(block.items, false)
    }
  }
  for (const path of namedPaths(sections))
    if (!plan.some((t) => t.files.some((f) => f.path.endsWith(path)) || t.whole.includes(path.toLowerCase()))) add({ item: path, reason: 'a file the issue names that no task touches or mentions' })
  if (inferredCriteria.length)
    add({ item: 'the expected result', reason: `the issue states none: the criteria (${inferredCriteria.map((c) => `"${c}"`).join(', ')}) are inferred from the report, not stated by it`, work: true })
  return out
}

/** Why an item is rightly not a task: a confirmation, a step of the team's process, or a block of context. */
function excused(text: string, role: string | undefined, item: ListItem): string | undefined {
  if (role === 'confirmations' || isConfirmation(text)) return 'a confirmation for the reporter, not work'
  if (isHousekeeping(text)) return "a step of the team's process, not a change"
  if (isTemplatePrompt(text)) return "a template's prompt to the reporter, not work"
  if (role === 'context') return 'context (steps, environment, links, what happens), kept with the work'
  if (role === 'done') return 'recorded as done'
  if (role === 'constraints') return 'a constraint or a non-goal of the work, not a task'
  if (/^run\b/i.test(text) && !item.children.length) return 'a command that verifies the work'
  if (item.checked === true) return 'ticked in the issue: already done'
  return undefined
}

function itemPaths(item: ListItem): string[] {
  return item.head.codeSpans.flatMap((span) => {
    const found = /\.[A-Za-z0-9]+$/.test(span.code) ? filePath(span.code) : undefined
    return found ? [found.path] : []
  })
}

/** File paths (with an extension) the issue's paragraphs name in code spans. */
function namedPaths(sections: readonly Section[]): string[] {
  const spans = sections.flatMap((s) => s.blocks.flatMap((b) => (b.kind === 'paragraph' ? b.codeSpans : [])))
  return [...new Set(spans.flatMap((span) => {
    const found = /\/|\.[a-z]{1,4}$/i.test(span.code) && /\.[A-Za-z0-9]+$/.test(span.code) ? filePath(span.code) : undefined
    return found ? [found.path] : []
  }))]
}
