import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { analysePlannerOutput, builtinPlan } from '../../src/planners/index.js'
import { readCorpus } from './corpus-score.js'

// Issue 38: one test per rule, on the tuning issues 158– (tests/fixtures/issue-corpus/, in the tuning form classes
// of the README's "split by form class"; never held-out/ or held-out-forms/), each named by its file and the
// public issue whose form it follows.

const corpus = readCorpus(fileURLToPath(new URL('../fixtures/issue-corpus/', import.meta.url)))

function plan(id: string) {
  const issue = corpus.find((i) => i.id.startsWith(id))
  if (!issue) throw new Error(`no tuning issue ${id}`)
  const output = builtinPlan(issue)
  const analysis = analysePlannerOutput(output)
  const tasks = analysis.solution?.tasks ?? []
  return { output, analysis, tasks, titles: tasks.map((t) => t.title), type: analysis.solution?.strategy_type }
}

describe('process steps are never tasks', () => {
  it('a vote, a review by people and a release beside the work (162, form of TheOdinProject/discussions#18)', () => {
    const p = plan('162-')
    expect(p.titles.join('\n')).not.toMatch(/vote|review the pull request|4\.0 release/i)
    expect(p.tasks.map((t) => t.files.map((f) => f.path).join(' '))).toEqual(['src/utils/dates.ts', 'docs/dates.md'])
  })
})

describe('a block that states a defect makes the issue a fix, whatever its template', () => {
  it('an integration form with no bug heading: a last working release, a setting ignored (161, form of home-assistant/core#43632)', () => {
    const p = plan('161-')
    expect(p.type).toBe('bugfix')
    // The log has no error line, but its frame in the repository is kept.
    expect(p.tasks[0]!.description).toContain('integrations/thermostat/coordinator.py:58')
  })

  it('the documentation is what is wrong: a docs fix (160, form of htmllint/htmllint#133)', () => {
    expect(plan('160-').type).toBe('docs')
  })
})

describe('never pass a plan it misread: what of the issue is left out, and why', () => {
  it('a release checklist whose nested checks no task carries is left out as work, and the gate cannot pass (100, form of citusdata/citus#4732)', () => {
    const p = plan('100-')
    const leftOut = (p.output.raw as { left_out?: Array<{ item: string; reason: string; work?: boolean }> }).left_out ?? []
    expect(leftOut.filter((l) => l.work).map((l) => l.item)).toContain('src/version.ts exports the new version as well (the script skips that file, see #318)')
    expect(p.analysis.gate).toBe('review')
    expect(p.analysis.quality?.findings.map((f) => f.rule)).toContain('issue-work-left-out')
    // It is said to the approver in `converge plan`'s notes too.
    expect(p.output.notes.some((n) => n.startsWith('left out: "src/version.ts exports'))).toBe(true)
  })

  it('process steps and a good first issue\'s walkthrough are left out with their reason, not as work (128, form of hiero-ledger/hiero-sdk-python#997)', () => {
    const leftOut = (plan('128-').output.raw as { left_out?: Array<{ item: string; reason: string; work?: boolean }> }).left_out ?? []
    expect(leftOut.filter((l) => l.work)).toEqual([])
  })
})

describe('risk from what the issue says it changes', () => {
  it('a correction of stored values with an SQL UPDATE in production is high risk, and the notes say why (159, form of bcgov/tfrs#2309)', () => {
    const p = plan('159-')
    expect(p.analysis.solution?.analysis?.risk).toBe('high')
    expect(p.output.notes.find((n) => n.startsWith('analysis:'))).toMatch(/risk high \(changes data in production: /)
  })

  it('an HTTP DELETE route is not the removal of a public API (117, form of prafulrpatel389/F7204_HEADS-UP#3)', () => {
    expect(plan('117-').output.notes.find((n) => n.startsWith('analysis:'))).not.toMatch(/removes a public API/)
  })
})

describe('each numbered change that names its file is its own task, and a list of changes is not a sequence', () => {
  it('three changes in three files, then a document the prose asks for after the list (158, form of ptwobrussell/Mining-the-Social-Web-2nd-Edition#52)', () => {
    const p = plan('158-')
    expect(p.tasks.map((t) => t.files.map((f) => f.path).join(' '))).toEqual(['importers/csv_import.py', 'importers/json_import.py', 'importers/common.py', 'docs/importing.md'])
    // No order between the three changes: the list names three files, it does not say "in order".
    expect(p.tasks.slice(0, 3).map((t) => t.depends_on)).toEqual([[], [], []])
  })
})
