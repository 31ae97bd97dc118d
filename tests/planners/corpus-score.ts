/**
 * The issue corpus (`tests/fixtures/issue-corpus/`) and its score: how much of the plan a careful
 * engineer would accept a planner's plan meets. Parsing and scoring are pure; `readCorpus` is the one
 * function that touches the file system. The file format and the scoring rules are in the corpus README.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { z } from 'zod'

/** A plan as the scorer sees it, whatever planner made it (see `corpus-plan-view.ts`). */
export interface PlanView {
  tasks: Array<{ id: string; title: string; description: string; type: string; criteria: string[]; depends_on: string[]; commands: string[] }>
  /** Items the plan records as already done. */
  done: string[]
  /** Epic: the child issue numbers. */
  children: number[]
  gate: 'pass' | 'review' | 'fail'
  /** The gate's findings and errors, as messages. */
  findings: string[]
  /** The plan's kind of work (strategy_type / task types). */
  type?: string
  /** No plan at all (e.g. every item already done). */
  error?: string
}

const MatchSchema = z.strictObject({ match: z.array(z.string().min(1)).min(1) })
const ExpectationSchema = z.strictObject({
  type: z.enum(['fix', 'feature', 'refactor', 'docs', 'testing', 'chore']).optional(),
  gate: z.enum(['pass', 'review', 'fail']).optional(),
  tasks: z.array(MatchSchema.extend({ depends_on: z.array(z.number().int().nonnegative()).optional() })).optional(),
  criteria: z.array(MatchSchema).optional(),
  not_tasks: z.array(MatchSchema).optional(),
  done: z.array(MatchSchema).optional(),
  children: z.array(z.number().int().positive()).optional(),
  missing: z.array(z.string().min(1)).optional(),
})
export type Expectation = z.infer<typeof ExpectationSchema>

const FrontMatterSchema = z.strictObject({
  source: z.string().regex(/^[\w.-]+\/[\w.-]+#\d+$/, 'expected owner/repo#number'),
  form: z.enum(['issue-form', 'bug-template', 'feature-template', 'epic', 'task-list', 'checklist', 'free-text', 'question', 'rfc', 'user-story', 'gherkin', 'security-report', 'stack-trace', 'performance-report', 'regression-bisect', 'dependency-dashboard', 'html-comment-template', 'good-first-issue',
    // Issue 38's form classes (the README's "The split by form class"): held out, then tuning.
    'phased-removal', 'ci-log', 'tracker-html', 'translation-defect',
    'change-list', 'docs-error', 'governance-vote', 'integration-config', 'tracking-acceptance', 'tracker-generic-steps', 'framework-repro-link', 'data-repair',
    // Later tuning classes (forms outside both held-out sets): a report in collapsibles, a defect asked as a question, a tester's list of defects, an epic template with its own acceptance items.
    'details-collapsible', 'question-defect', 'playtest-bug-list', 'milestone-epic',
    // Issue 38, third pass: a bot's error alert, a build log, a QA template with impact fields, required-field headings, a flag cleanup, a sync bot's footer.
    'sentry-alert', 'build-from-source-error', 'qa-impact-template', 'required-fields-template', 'flag-cleanup', 'sync-bot-footer',
    // Template prompts asked as questions with the answers nested under them; a bilingual template's bracketed hints.
    'prompt-questions', 'bilingual-bracket-template',
    // A QA report's inline bold labels, a report in one table row, a feedback widget's bot-written issue.
    'qa-inline-labels', 'one-row-table-report', 'feedback-widget',
    // A dependency to update for the advisories it lists.
    'dependency-advisory-list',
    // A developer's report of tests failing on their machine, with the runner's output.
    'local-test-failure',
    // A postmortem: what happened, the root cause, the impact, and action items beside its own process.
    'postmortem',
    // Issue 38, fourth pass: a service desk's incident ticket whose tasks are the desk's own steps, an accessibility checker's list of
    // errors, a tool's bug template with its raw output, a browser console's warning pasted on one line, a report that opens with
    // the menu path it is about, a code audit's finding with its evidence as file:line ranges, a support form whose headings are questions.
    'ops-incident-ticket', 'a11y-audit', 'tool-output-template', 'console-warning-paste', 'menu-path-report', 'audit-finding-evidence', 'question-headings-form',
    // Issue 38, fifth pass: a bug form in Italian (bold headings), a linter's run pasted whole, a proposal to write down a release process,
    // the gaps between a project's clients area by area (a bullet a client, the ones already fixed noted), a developer's root-cause
    // analysis that splits into "Bug 1 — …", "Bug 2 — …" headings, each naming its file.
    'italian-bug-form', 'lint-output-paste', 'release-process-proposal', 'client-parity-gaps', 'root-cause-analysis']),
  language: z.enum(['en', 'zh', 'pt', 'ja', 'de', 'es', 'fr', 'ko', 'ru', 'it']),
  title: z.string().min(1),
  labels: z.array(z.string()),
})

export interface CorpusIssue extends z.infer<typeof FrontMatterSchema> {
  /** The file name without `.md`, e.g. `07-export-with-tags`. */
  id: string
  /** The issue number given to the planner: the file's `NN`. */
  number: number
  body: string
  expected: Expectation
}

/** A corpus file name: two or three digits, a slug. */
export const CORPUS_FILE = /^(\d{2,3})-[a-z0-9-]+\.md$/

/** One issue from its two files' text; a malformed file throws one line naming the file, the field and the fix. */
export function parseCorpusIssue(fileName: string, markdown: string, expectedYaml: string): CorpusIssue {
  const name = CORPUS_FILE.exec(fileName)
  if (!name) throw new Error(`${fileName}: name it NN-short-slug.md (two or three digits, lower-case slug)`)
  const id = fileName.slice(0, -3)
  const fm = /^---\n([\s\S]*?)\n---\n?/.exec(markdown)
  if (!fm) throw new Error(`${fileName}: no front matter; start the file with a --- block (source, form, language, title, labels)`)
  const front = validate(FrontMatterSchema, parseYaml(fm[1]!), `${fileName} front matter`)
  const expected = validate(ExpectationSchema, parseYaml(expectedYaml) ?? {}, `${id}.expected.yaml`)
  expected.tasks?.forEach((task, i) =>
    task.depends_on?.forEach((d, k) => {
      if (d >= i) throw new Error(`${id}.expected.yaml: tasks[${i}].depends_on[${k}] is ${d}; it must name an earlier task (0..${i - 1})`)
    }),
  )
  return { ...front, id, number: Number(name[1]), body: markdown.slice(fm[0].length), expected }
}

function validate<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  throw new Error(`${where}: ${issue.path.join('.') || '(root)'}: ${issue.message}`)
}

/** Every issue of the corpus directory, in file order. */
export function readCorpus(dir: string): CorpusIssue[] {
  // In number order: `100-…` after `99-…`.
  const files = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md').sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b))
  return files.map((file) => {
    const yamlFile = file.replace(/\.md$/, '.expected.yaml')
    let expectedYaml: string
    try {
      expectedYaml = readFileSync(join(dir, yamlFile), 'utf8')
    } catch {
      throw new Error(`${file}: no ${yamlFile} beside it; write the plan a careful engineer would accept there`)
    }
    return parseCorpusIssue(file, readFileSync(join(dir, file), 'utf8'), expectedYaml)
  })
}

/** The held-out split's folder, inside the corpus folder: issues no planner rule was written while looking at. */
export const HELD_OUT = 'held-out'

/**
 * The held-out split by form class (issue 38): issues whose form class no tuning issue has, drawn before any
 * rule was written against them. Only their totals may be looked at.
 */
export const HELD_OUT_FORMS = 'held-out-forms'

export interface CorpusSplit {
  /** The issues of the corpus folder, which planner rules may be tuned on. */
  tuning: CorpusIssue[]
  /** The issues of `held-out/` (none when the folder is absent): only their total score may be looked at. */
  heldOut: CorpusIssue[]
  /** The issues of `held-out-forms/` (none when absent): forms no tuning issue has; totals only. */
  heldOutForms: CorpusIssue[]
}

/** The three folders of the corpus. */
export function readSplit(dir: string): CorpusSplit {
  const read = (sub: string) => (existsSync(join(dir, sub)) ? readCorpus(join(dir, sub)) : [])
  return { tuning: readCorpus(dir), heldOut: read(HELD_OUT), heldOutForms: read(HELD_OUT_FORMS) }
}

/** A folder's issues must be numbered 1..N without a gap; returns what is wrong, or nothing. */
export function numberingProblem(issues: readonly CorpusIssue[]): string | undefined {
  const at = issues.findIndex((issue, i) => issue.number !== i + 1)
  return at < 0 ? undefined : `issue number ${at + 1} is missing or repeated (found ${issues[at]!.number} in its place): number the files 1..${issues.length}`
}

export const CATEGORIES = ['tasks', 'criteria', 'edges', 'gate', 'type', 'not_tasks', 'done', 'children', 'missing'] as const
export type Category = (typeof CATEGORIES)[number]

export interface Tally {
  met: number
  total: number
}

export interface IssueScore {
  id: string
  source: string
  /** The gate the plan was given. */
  gate?: PlanView['gate']
  score: Tally
  categories: Record<Category, Tally>
  /** What was not met, one line each, for an engineer to act on. */
  misses: string[]
}

export interface CorpusScore {
  issues: IssueScore[]
  totals: Record<Category, Tally>
  overall: Tally
}

const contains = (text: string, match: readonly string[]) => {
  const lower = text.toLowerCase()
  return match.every((m) => lower.includes(m.toLowerCase()))
}
const show = (match: readonly string[]) => `[${match.join(', ')}]`
const TYPE_ALIASES: Record<string, string> = { bugfix: 'fix', bug: 'fix', enhancement: 'feature', feat: 'feature', documentation: 'docs', test: 'testing', tests: 'testing' }
const kind = (type: string) => TYPE_ALIASES[type.toLowerCase()] ?? type.toLowerCase()

/**
 * Greedy in-order matching: each expected item takes the first unused candidate after the previous
 * match. Returns, per expected item, the candidate's index (or -1).
 */
function matchInOrder<E, C>(expected: readonly E[], candidates: readonly C[], fits: (e: E, c: C) => boolean): number[] {
  let cursor = 0
  return expected.map((e) => {
    const at = candidates.findIndex((c, i) => i >= cursor && fits(e, c))
    if (at >= 0) cursor = at + 1
    return at
  })
}

/** Whether `from` reaches `to` through `edges` (adjacency lists). */
function reaches(edges: ReadonlyMap<string, readonly string[]>, from: string, to: string): boolean {
  const seen = new Set<string>()
  const stack = [...(edges.get(from) ?? [])]
  while (stack.length) {
    const next = stack.pop()!
    if (next === to) return true
    if (seen.has(next)) continue
    seen.add(next)
    stack.push(...(edges.get(next) ?? []))
  }
  return false
}

/** How much of `expected` the plan meets, per category, with what it missed. */
export function scoreIssue(issue: Pick<CorpusIssue, 'id' | 'source' | 'expected'>, view: PlanView): IssueScore {
  const { expected } = issue
  const categories = Object.fromEntries(CATEGORIES.map((c) => [c, { met: 0, total: 0 }])) as Record<Category, Tally>
  const misses: string[] = []
  const count = (category: Category, met: boolean, miss: string) => {
    categories[category].total++
    if (met) categories[category].met++
    else misses.push(`${category}: ${miss}`)
  }
  const taskText = (t: PlanView['tasks'][number]) => `${t.title}\n${t.description}`
  const label = (t: PlanView['tasks'][number]) => `${t.id} "${t.title}"`

  const matched = expected.tasks ? matchInOrder(expected.tasks, view.tasks, (e, t) => contains(taskText(t), e.match)) : []
  if (expected.tasks) {
    expected.tasks.forEach((e, i) => count('tasks', matched[i]! >= 0, `no plan task (in order) matches ${show(e.match)}`))
    const used = new Set(matched)
    view.tasks.forEach((t, i) => {
      if (!used.has(i)) count('tasks', false, `extra task ${label(t)}`)
    })
    scoreEdges(expected.tasks, matched, view, count)
  }

  for (const c of expected.criteria ?? [])
    count('criteria', view.tasks.some((t) => t.criteria.some((text) => contains(text, c.match))), `no criterion matches ${show(c.match)}`)
  if (expected.gate) count('gate', view.gate === expected.gate, `expected ${expected.gate}, got ${view.gate}${view.error ? ` (${view.error})` : ''}`)
  if (expected.type) count('type', view.type !== undefined && kind(view.type) === expected.type, `expected ${expected.type}, got ${view.type ?? 'none'}`)
  for (const n of expected.not_tasks ?? []) {
    const offender = view.tasks.find((t) => contains(t.title, n.match))
    count('not_tasks', !offender, `${offender ? label(offender) : ''} was made from ${show(n.match)}`)
  }
  for (const d of expected.done ?? [])
    count('done', view.done.some((text) => contains(text, d.match)), `nothing recorded as done matches ${show(d.match)}`)
  if (expected.children) {
    const at = matchInOrder(expected.children, view.children, (e, c) => e === c)
    expected.children.forEach((n, i) => count('children', at[i]! >= 0, `#${n} is not a child (in order)`))
    const used = new Set(at)
    view.children.forEach((n, i) => {
      if (!used.has(i)) count('children', false, `#${n} is not an expected child`)
    })
  }
  for (const m of expected.missing ?? [])
    count('missing', view.findings.some((f) => f.toLowerCase().includes(m.toLowerCase())), `no finding mentions "${m}"`)

  return { id: issue.id, source: issue.source, gate: view.gate, score: sum(Object.values(categories)), categories, misses }
}

/** Expected edges between matched tasks, and plan edges between them that the expected order does not imply. */
function scoreEdges(
  tasks: NonNullable<Expectation['tasks']>,
  matched: readonly number[],
  view: PlanView,
  count: (category: Category, met: boolean, miss: string) => void,
): void {
  const planEdges = new Map(view.tasks.map((t) => [t.id, t.depends_on]))
  const idOf = (i: number) => view.tasks[matched[i]!]!.id
  const expectedEdges = new Map<string, string[]>()
  tasks.forEach((task, j) => {
    if (matched[j]! < 0) return
    for (const i of task.depends_on ?? []) {
      if (matched[i]! < 0) continue
      expectedEdges.set(idOf(j), [...(expectedEdges.get(idOf(j)) ?? []), idOf(i)])
      count('edges', reaches(planEdges, idOf(j), idOf(i)), `${idOf(j)} ${show(task.match)} should come after ${idOf(i)} ${show(tasks[i]!.match)}`)
    }
  })
  const matchedIds = new Set(tasks.flatMap((_, j) => (matched[j]! >= 0 ? [idOf(j)] : [])))
  for (const id of matchedIds)
    for (const dep of planEdges.get(id) ?? [])
      if (matchedIds.has(dep) && !reaches(expectedEdges, id, dep)) count('edges', false, `${id} depends on ${dep}, which nothing in the issue asks for`)
}

function sum(tallies: readonly Tally[]): Tally {
  return tallies.reduce((a, b) => ({ met: a.met + b.met, total: a.total + b.total }), { met: 0, total: 0 })
}

/** Totals per category and overall (the share of all expectations met). */
export function scoreCorpus(issues: readonly IssueScore[]): CorpusScore {
  const totals = Object.fromEntries(CATEGORIES.map((c) => [c, sum(issues.map((i) => i.categories[c]))])) as Record<Category, Tally>
  return { issues: [...issues], totals, overall: sum(Object.values(totals)) }
}

/**
 * The confident misses: plans gated `pass` that miss more than a quarter of their expectations. A plan the
 * planner misread must not pass; the aim is none.
 */
export function confidentMisses(result: CorpusScore): IssueScore[] {
  return result.issues.filter((i) => i.gate === 'pass' && i.score.total > 0 && i.score.met / i.score.total < 0.75)
}

/** `12/40 (30%)`; `-` when nothing was expected. */
export function formatTally(t: Tally): string {
  return t.total ? `${t.met}/${t.total} (${Math.round((100 * t.met) / t.total)}%)` : '-'
}
