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
