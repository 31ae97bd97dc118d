import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { analysePlan } from '../../src/plan/analyse.js'
import { builtinPlan } from '../../src/planners/builtin.js'
import { planView } from './corpus-plan-view.js'
import {
  CATEGORIES, confidentMisses, formatTally, HELD_OUT, HELD_OUT_FORMS, numberingProblem, parseCorpusIssue, readSplit, scoreCorpus, scoreIssue, type CorpusIssue, type CorpusScore, type Expectation, type PlanView,
} from './corpus-score.js'

const DIR = fileURLToPath(new URL('../fixtures/issue-corpus/', import.meta.url))
const { tuning: corpus, heldOut, heldOutForms } = readSplit(DIR)

const count = (pick: (i: CorpusIssue) => boolean) => corpus.filter(pick).length
const CHECKBOX = /^\s*[-*]\s+\[[ xX]\]\s+(.*)$/gm
const checkboxLines = (body: string) => [...body.matchAll(CHECKBOX)].map((m) => m[1]!.toLowerCase())

describe('the issue corpus', () => {
  it('has at least 44 issues, each .md with its .expected.yaml and a distinct owner/repo#number source', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(44)
    const files = readdirSync(DIR)
    const orphans = files.filter((f) => f.endsWith('.expected.yaml') && !files.includes(f.replace(/\.expected\.yaml$/, '.md')))
    expect(orphans).toEqual([])
    const sources = corpus.map((i) => i.source)
    expect(sources.filter((s, i) => sources.indexOf(s) !== i)).toEqual([])
    expect(numberingProblem(corpus)).toBeUndefined()
  })

  // The held-out issues are checked only in counts: a failure here must not show a held-out issue's text.
  it('has a held-out split of at least 40 (120 issues in all), numbered 1..M, well-formed, whose sources the tuning set does not share', () => {
    expect(heldOut.length).toBeGreaterThanOrEqual(40)
    expect(corpus.length + heldOut.length).toBeGreaterThanOrEqual(120)
    expect(numberingProblem(heldOut)).toBeUndefined()
    const files = readdirSync(`${DIR}${HELD_OUT}`)
    expect(files.filter((f) => f.endsWith('.expected.yaml') && !files.includes(f.replace(/\.expected\.yaml$/, '.md'))).length).toBe(0)
    const sources = new Set(corpus.map((i) => i.source))
    expect(heldOut.filter((i) => sources.has(i.source)).length).toBe(0)
    expect(heldOut.filter((i) => absentExpectations(i).length).length).toBe(0)
  })

  // Issue 38: the held-out-by-form issues have form classes no tuning issue has (counts only, never their text).
  it('has a split held out by form class: numbered 1..K, well-formed, no tuning issue sharing its forms or sources', () => {
    expect(heldOutForms.length).toBeGreaterThanOrEqual(8)
    expect(numberingProblem(heldOutForms)).toBeUndefined()
    const tuningForms = new Set(corpus.map((i) => i.form))
    expect(heldOutForms.filter((i) => tuningForms.has(i.form)).length).toBe(0)
    const sources = new Set([...corpus, ...heldOut].map((i) => i.source))
    expect(heldOutForms.filter((i) => sources.has(i.source)).length).toBe(0)
    expect(heldOutForms.filter((i) => absentExpectations(i).length).length).toBe(0)
    const files = readdirSync(`${DIR}${HELD_OUT_FORMS}`)
    expect(files.filter((f) => f.endsWith('.expected.yaml') && !files.includes(f.replace(/\.expected\.yaml$/, '.md'))).length).toBe(0)
  })

  it('covers the languages issue 16 asks for', () => {
    const languages = (lang: string) => count((i) => i.language === lang)
    expect(languages('zh')).toBeGreaterThanOrEqual(8)
    expect(languages('pt')).toBeGreaterThanOrEqual(6)
    expect(languages('ja')).toBeGreaterThanOrEqual(6)
    for (const lang of ['de', 'es', 'ko']) expect(languages(lang)).toBeGreaterThanOrEqual(1)
  })

  it('covers the forms: epics, ticked items, confirmation checklists, ordered steps, vague issues', () => {
    expect(count((i) => i.form === 'epic')).toBeGreaterThanOrEqual(6)
    expect(count((i) => /^\s*[-*]\s+\[[xX]\]/m.test(i.body))).toBeGreaterThanOrEqual(6)
    // A template checklist: a checkbox line of the body that the plan must not turn into a task.
    const confirmations = (i: CorpusIssue) =>
      (i.expected.not_tasks ?? []).some((n) => checkboxLines(i.body).some((line) => n.match.every((m) => line.includes(m.toLowerCase()))))
    expect(count(confirmations)).toBeGreaterThanOrEqual(6)
    expect(count((i) => (i.expected.tasks ?? []).some((t) => t.depends_on?.length))).toBeGreaterThanOrEqual(6)
    expect(count((i) => (i.expected.missing ?? []).length > 0)).toBeGreaterThanOrEqual(4)
  })

  it('expects only what the issue says: every expected text and child number occurs in its title or body', () => {
    expect(corpus.flatMap((i) => absentExpectations(i).map((s) => `${i.id}: ${s}`))).toEqual([])
  })

  it('refuses malformed files with one line naming the file, the field and the fix', () => {
    const md = '---\nsource: acme/notes#1\nform: free-text\nlanguage: en\ntitle: "t"\nlabels: []\n---\nbody\n'
    expect(parseCorpusIssue('01-ok.md', md, 'tasks:\n  - match: [a]\n')).toMatchObject({ id: '01-ok', number: 1, body: 'body\n' })
    expect(() => parseCorpusIssue('ok.md', md, '')).toThrow('ok.md: name it NN-short-slug.md')
    expect(() => parseCorpusIssue('01-x.md', 'body', '')).toThrow('01-x.md: no front matter')
    expect(() => parseCorpusIssue('01-x.md', md.replace('acme/notes#1', 'acme/notes'), '')).toThrow('01-x.md front matter: source: expected owner/repo#number')
    expect(() => parseCorpusIssue('01-x.md', md, 'tasks:\n  - match: [a]\n    depends_on: [0]\n')).toThrow(
      '01-x.expected.yaml: tasks[0].depends_on[0] is 0; it must name an earlier task',
    )
    expect(() => parseCorpusIssue('01-x.md', md, 'gates: pass\n')).toThrow('01-x.expected.yaml: (root)')
  })
})

const task = (id: string, title: string, extra: Partial<PlanView['tasks'][number]> = {}): PlanView['tasks'][number] => ({
  id, title, description: '', type: 'fix', criteria: [], depends_on: [], commands: [], ...extra,
})
const view = (extra: Partial<PlanView>): PlanView => ({ tasks: [], done: [], children: [], gate: 'review', findings: [], ...extra })
const score = (expected: Expectation, plan: PlanView) => scoreIssue({ id: 'x', source: 'acme/notes#1', expected }, plan)

/** Expected texts and child numbers that do not occur in the issue's title or body. */
function absentExpectations(issue: CorpusIssue): string[] {
  const text = `${issue.title}\n${issue.body}`.toLowerCase()
  const { tasks = [], criteria = [], not_tasks = [], done = [], children = [] } = issue.expected
  const strings = [...tasks, ...criteria, ...not_tasks, ...done].flatMap((m) => m.match).concat(children.map(String))
  return strings.filter((s) => !text.includes(s.toLowerCase()))
}

describe('the corpus score', () => {
  it('matches expected tasks in order, each by a distinct plan task, on title and description', () => {
    const s = score({ tasks: [{ match: ['parser'] }, { match: ['Docs'] }] }, view({ tasks: [task('T1', 'Fix the parser'), task('T2', 'Update', { description: 'the docs' })] }))
    expect(s.categories.tasks).toEqual({ met: 2, total: 2 })
    const reversed = score({ tasks: [{ match: ['docs'] }, { match: ['parser'] }] }, view({ tasks: [task('T1', 'Fix the parser'), task('T2', 'Update the docs')] }))
    expect(reversed.categories.tasks).toEqual({ met: 1, total: 3 })
  })

  it('counts each plan task that matches no expected task as a miss, and says which', () => {
    const s = score({ tasks: [{ match: ['parser'] }] }, view({ tasks: [task('T1', 'Fix the parser'), task('T2', 'I have searched the existing issues')] }))
    expect(s.categories.tasks).toEqual({ met: 1, total: 2 })
    expect(s.misses).toEqual(['tasks: extra task T2 "I have searched the existing issues"'])
    expect(score({ tasks: [] }, view({ tasks: [task('T1', '#102')] })).categories.tasks).toEqual({ met: 0, total: 1 })
    expect(score({}, view({ tasks: [task('T1', '#102')] })).categories.tasks).toEqual({ met: 0, total: 0 })
  })

  it('meets an expected edge when the plan orders the tasks, directly or through another task', () => {
    const expected: Expectation = { tasks: [{ match: ['a'] }, { match: ['b'] }, { match: ['c'], depends_on: [0] }] }
    const chain = view({ tasks: [task('T1', 'a'), task('T2', 'b', { depends_on: ['T1'] }), task('T3', 'c', { depends_on: ['T2'] })] })
    const ordered = score({ tasks: [{ match: ['a'] }, { match: ['b'], depends_on: [0] }, { match: ['c'], depends_on: [0, 1] }] }, chain)
    expect(ordered.categories.edges).toEqual({ met: 3, total: 3 })
    const missed = score(expected, view({ tasks: [task('T1', 'a'), task('T2', 'b'), task('T3', 'c')] }))
    expect(missed.categories.edges).toEqual({ met: 0, total: 1 })
    expect(missed.misses).toEqual(['edges: T3 [c] should come after T1 [a]'])
  })

  it('counts an edge the issue does not ask for as a miss', () => {
    const s = score({ tasks: [{ match: ['a'] }, { match: ['b'] }] }, view({ tasks: [task('T1', 'a'), task('T2', 'b', { depends_on: ['T1'] })] }))
    expect(s.categories.edges).toEqual({ met: 0, total: 1 })
    expect(s.misses).toEqual(['edges: T2 depends on T1, which nothing in the issue asks for'])
  })

  it('fails a not_task when a plan task is titled by it', () => {
    const expected: Expectation = { not_tasks: [{ match: ['searched the existing issues'] }] }
    expect(score(expected, view({ tasks: [task('T1', 'I have searched the existing issues')] })).categories.not_tasks).toEqual({ met: 0, total: 1 })
    expect(score(expected, view({ tasks: [task('T1', 'Fix it', { description: 'I have searched the existing issues' })] })).categories.not_tasks).toEqual({ met: 1, total: 1 })
  })

  it('scores done items, children in order, findings, criteria, gate and type', () => {
    const expected: Expectation = {
      gate: 'review', type: 'fix', criteria: [{ match: ['returns 404'] }], done: [{ match: ['113'] }, { match: ['readme'] }],
      children: [113, 119, 121], missing: ['expected'],
    }
    const s = score(expected, view({
      tasks: [task('T1', 'x', { criteria: ['GET /missing returns 404'] })], done: ['#113'], children: [113, 121, 119, 200],
      findings: ['The issue states no expected behaviour'], gate: 'review', type: 'bugfix',
    }))
    expect(s.categories).toMatchObject({
      gate: { met: 1, total: 1 }, type: { met: 1, total: 1 }, criteria: { met: 1, total: 1 }, done: { met: 1, total: 2 },
      children: { met: 2, total: 5 }, missing: { met: 1, total: 1 },
    })
    expect(s.misses).toEqual([
      'done: nothing recorded as done matches [readme]',
      'children: #121 is not a child (in order)',
      'children: #121 is not an expected child',
      'children: #200 is not an expected child',
    ])
    expect(s.score).toEqual({ met: 7, total: 11 })
  })

  it('adds up categories and the overall share across issues', () => {
    const a = score({ gate: 'pass' }, view({ gate: 'pass' }))
    const b = score({ gate: 'pass', type: 'feature' }, view({ gate: 'fail', type: 'enhancement' }))
    const total = scoreCorpus([a, b])
    expect(total.totals.gate).toEqual({ met: 1, total: 2 })
    expect(total.totals.type).toEqual({ met: 1, total: 1 })
    expect(total.overall).toEqual({ met: 2, total: 3 })
    expect(formatTally(total.overall)).toBe('2/3 (67%)')
  })
})

describe('the built-in planner on the corpus', () => {
  const scoreOf = (issues: readonly CorpusIssue[]) => scoreCorpus(issues.map((issue) => scoreIssue(issue, planView({ builtinPlan, analysePlan }, issue))))
  const summary = (name: string, result: CorpusScore) =>
    [`${name}: ${formatTally(result.overall)}`, ...CATEGORIES.map((c) => `  ${c}: ${formatTally(result.totals[c])}`)].join('\n')
  const share = (t: { met: number; total: number }) => t.met / t.total

  // Floors a little under the scores measured when they were set (issue 28's last round, 157 issues: 90% overall,
  // 98% template checkboxes kept out, 78% ticked items recorded (a release checklist's ticked sub-checks are not yet
  // read as done), 93% criteria): a change that loses ground on real issue forms fails here.
  it('keeps its score on the tuning set', () => {
    const result = scoreOf(corpus)
    console.log(summary(`tuning score (${corpus.length} issues)`, result))
    expect(result.issues).toHaveLength(corpus.length)
    expect(share(result.overall)).toBeGreaterThanOrEqual(0.88)
    expect(share(result.totals.not_tasks)).toBeGreaterThanOrEqual(0.95)
    expect(share(result.totals.done)).toBeGreaterThanOrEqual(0.75)
    expect(share(result.totals.criteria)).toBeGreaterThanOrEqual(0.9)
  })

  // Only the totals of the held-out splits are printed: no rule may be written while looking at one of their issues.
  // Floors a little under the scores claimed in docs/planner-corpus.md (issue 39): a planner that declines every
  // issue meets 28% of the held-out split, and must fail here.
  it('keeps its score on the held-out split, totals only', () => {
    const result = scoreOf(heldOut)
    console.log(summary(`held-out score (${heldOut.length} issues)`, result))
    expect(share(result.overall)).toBeGreaterThanOrEqual(0.84)
    expect(confidentMisses(result).length).toBe(0)
  })

  it('keeps its score on the split held out by form class, totals only', () => {
    const result = scoreOf(heldOutForms)
    console.log(summary(`held-out-by-form score (${heldOutForms.length} issues)`, result))
    expect(share(result.overall)).toBeGreaterThanOrEqual(HELD_OUT_FORMS_FLOOR)
    expect(confidentMisses(result).length).toBe(0)
  })
})

/** Just under the held-out-by-form score claimed in docs/planner-corpus.md. */
const HELD_OUT_FORMS_FLOOR = 0.45
