/**
 * How the built-in planner does on forms it has not seen, measured on the tuning set's own history (issue 38): each
 * batch of tuning issues written in new form classes is scored by the planner as it was when the batch was written,
 * before any rule of its pass (the main commit the pass's branch started from), and by the planner now. The first
 * column is a generalisation score on 37 issues, beside the 8 of `held-out-forms/`; a pass whose rules generalise
 * raises the next batch's first column, a pass that fits its own forms only raises its own second column.
 *
 * A new pass adds its row: its issue numbers and `git merge-base main <branch>` before its first commit.
 */
import { CATEGORIES, formatTally, scoreCorpus, scoreIssue, type CorpusIssue, type IssueScore } from '../tests/planners/corpus-score.js'
import { planView, type PlannerModules } from '../tests/planners/corpus-plan-view.js'
import { table } from './measure.js'

export const FRESH_FORM_BATCHES: ReadonlyArray<{ pass: string; first: number; last: number; commit: string }> = [
  { pass: 'issue 38, first', first: 158, last: 164, commit: '371e088' },
  { pass: 'issue 38, second', first: 165, last: 168, commit: '64a8be4' },
  { pass: 'issue 38, third', first: 169, last: 182, commit: '602be32' },
  { pass: 'issue 38, fourth', first: 183, last: 189, commit: 'bca725c' },
  { pass: 'issue 38, fifth', first: 190, last: 194, commit: 'e78cc4d' },
]

const issueNumber = (issue: CorpusIssue) => Number(issue.id.split('-')[0])

export async function freshFormsTable(
  tuning: readonly CorpusIssue[],
  current: PlannerModules,
  plannerAt: (commit: string) => Promise<PlannerModules>,
): Promise<string> {
  const rows: string[][] = []
  const before: IssueScore[] = []
  const now: IssueScore[] = []
  for (const batch of FRESH_FORM_BATCHES) {
    const issues = tuning.filter((i) => issueNumber(i) >= batch.first && issueNumber(i) <= batch.last)
    const label = [batch.pass, `${batch.first}–${batch.last} (${issues.length})`, batch.commit]
    let old: PlannerModules
    try {
      old = await plannerAt(batch.commit)
    } catch (error) {
      rows.push([...label, `not measured (${(error as Error).message.split('\n')[0]})`, '-'])
      continue
    }
    const then = issues.map((i) => scoreIssue(i, planView(old, i)))
    const after = issues.map((i) => scoreIssue(i, planView(current, i)))
    before.push(...then)
    now.push(...after)
    rows.push([...label, formatTally(scoreCorpus(then).overall), formatTally(scoreCorpus(after).overall)])
  }
  const all = scoreCorpus(before)
  rows.push(['all', '', '', formatTally(all.overall), formatTally(scoreCorpus(now).overall)])
  return [
    'Forms the planner had not seen: each batch of new form classes scored by the planner its pass started from, and now',
    table(['pass', 'issues', 'planner of', 'before its rules', 'now'], rows),
    `Before their rules, by category: ${CATEGORIES.filter((c) => all.totals[c].total).map((c) => `${c} ${formatTally(all.totals[c])}`).join(', ')}`,
  ].join('\n')
}
