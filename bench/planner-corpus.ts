/**
 * The built-in planner on the issue corpus (`tests/fixtures/issue-corpus/`): the share of what a careful
 * engineer expects (tasks, criteria, edges, gate, …) that its plans meet, for the planner as it was at
 * BASELINE ("before") and as it is in the working tree ("after"), measured in the same run, on the tuning
 * set, on the held-out split (`held-out/`) and on the split held out by form class (`held-out-forms/`) apart
 * (held-out splits: totals and a count of confident misses only).
 *
 * The baseline is `git archive BASELINE src` unpacked under `.cache/bench-baseline/` (git-ignored, and
 * inside the repository so its imports resolve `node_modules`), then imported like the working tree. The same is done
 * for the commits of `FRESH_FORM_BATCHES` (planner-fresh-forms.ts).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { planView, type PlannerModules } from '../tests/planners/corpus-plan-view.js'
import { CATEGORIES, confidentMisses, formatTally, HELD_OUT, HELD_OUT_FORMS, readSplit, scoreCorpus, scoreIssue, type CorpusIssue, type CorpusScore } from '../tests/planners/corpus-score.js'
import { table } from './measure.js'
import { freshFormsTable } from './planner-fresh-forms.js'

const BASELINE = '773da98'
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CORPUS = join(ROOT, 'tests/fixtures/issue-corpus')

export async function benchPlannerCorpus(): Promise<string> {
  const { tuning, heldOut, heldOutForms } = readSplit(CORPUS)
  const current = await plannerAt(join(ROOT, 'src'))
  let baseline: PlannerModules | string
  try {
    baseline = await plannerAt(join(sourcesAt(BASELINE), 'src'))
  } catch (error) {
    baseline = (error as Error).message.split('\n')[0]!
  }
  const scoreWith = (planner: PlannerModules | string, issues: readonly CorpusIssue[]) => (typeof planner === 'string' ? planner : score(issues, planner))
  const splits = [
    { name: 'tuning', issues: tuning },
    { name: 'held-out', issues: heldOut },
    { name: 'held-out-by-form', issues: heldOutForms },
  ].filter((s) => s.issues.length)
  const scored = splits.map((s) => ({ ...s, before: scoreWith(baseline, s.issues), after: score(s.issues, current) }))
  const columns = scored.flatMap((s) => [s.before, s.after])
  const cell = (s: CorpusScore | string, pick: (s: CorpusScore) => { met: number; total: number }) => (typeof s === 'string' ? '-' : formatTally(pick(s)))
  const rows = [
    ...CATEGORIES.map((c) => [c, ...columns.map((s) => cell(s, (x) => x.totals[c]))]),
    ['overall', ...columns.map((s) => cell(s, (x) => x.overall))],
  ]
  const headers = ['category', ...scored.flatMap((s) => [`${s.name} before`, `${s.name} after`])]
  const tuned = scored[0]!.after
  // The worst list names tuning issues only: a held-out issue is never looked at one by one.
  const worst = [...tuned.issues].sort((a, b) => ratio(a.score) - ratio(b.score) || a.id.localeCompare(b.id)).slice(0, 10)
  // Confident misses: plans gated `pass` that miss more than a quarter of their expectations (counts only for held-out splits).
  const confident = scored.map((s) => `${s.name}: ${confidentMisses(s.after).length} of ${s.issues.length}${s.name === 'tuning' ? confidentMisses(s.after).map((i) => ` ${i.id}`).join('') : ''}`)
  return [
    `Planner corpus: ${tuning.length} tuning issues, ${heldOut.length} held-out issues (${HELD_OUT}/), ${heldOutForms.length} held out by form class (${HELD_OUT_FORMS}/); share of expectations met (before = ${BASELINE}, after = working tree)`,
    ...(typeof baseline === 'string' ? [`before: not measured (${baseline})`] : []),
    table(headers, rows),
    '',
    `Confident misses (after; plans gated pass that miss more than a quarter of their expectations): ${confident.join('; ')}`,
    '',
    await freshFormsTable(tuning, current, async (commit) => plannerAt(join(sourcesAt(commit), 'src'))),
    '',
    'Worst 10 tuning issues (after), with what they missed:',
    ...worst.flatMap((i) => [`${i.id}  ${formatTally(i.score)}  (form of ${i.source})`, ...i.misses.slice(0, 6).map((m) => `    ${m}`), ...(i.misses.length > 6 ? [`    … ${i.misses.length - 6} more`] : [])]),
  ].join('\n')
}

const ratio = (t: { met: number; total: number }) => (t.total ? t.met / t.total : 1)

function score(corpus: readonly CorpusIssue[], planner: PlannerModules): CorpusScore {
  return scoreCorpus(corpus.map((issue) => scoreIssue(issue, planView(planner, issue))))
}

async function plannerAt(src: string): Promise<PlannerModules> {
  const { builtinPlan } = await import(pathToFileURL(join(src, 'planners/builtin.ts')).href)
  const { analysePlan } = await import(pathToFileURL(join(src, 'plan/analyse.ts')).href)
  return { builtinPlan, analysePlan }
}

/** A commit's sources, extracted once; a half-finished extraction is never reused (it is renamed into place). */
function sourcesAt(commit: string): string {
  const dir = join(ROOT, '.cache/bench-baseline', commit)
  if (existsSync(join(dir, 'src'))) return dir
  const tmp = `${dir}.tmp-${process.pid}`
  rmSync(tmp, { recursive: true, force: true })
  mkdirSync(tmp, { recursive: true })
  try {
    const tar = execFileSync('git', ['archive', '--format=tar', commit, 'src'], { cwd: ROOT, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] })
    execFileSync('tar', ['-x', '-C', tmp], { input: tar })
    rmSync(dir, { recursive: true, force: true })
    renameSync(tmp, dir)
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true })
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim()
    throw new Error(`git archive ${commit} failed: ${stderr || (error as Error).message}`)
  }
  return dir
}
