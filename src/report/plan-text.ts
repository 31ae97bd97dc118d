import type { Solution } from '../model/index.js'
import type { PlanAnalysis } from '../plan/analyse.js'
import { plural } from './markdown.js'
import { renderFindingGroups } from './plan-detail.js'

/** The plan check as plain text for a terminal: errors, quality, findings, waves and file conflicts. */
export function renderPlanText(analysis: PlanAnalysis, options: { notes?: string[]; questions?: string[] } = {}): string {
  const out: string[] = []
  const { solution, quality, dag } = analysis
  if (solution) {
    const waves = dag?.waves.length ?? 0
    out.push(`Plan ${solution.id} for ${solution.issue_id}: ${plural(solution.tasks.length, 'task')} in ${plural(waves, 'wave')}`)
  } else {
    out.push('Plan could not be read')
  }
  if (quality) {
    const b = quality.breakdown
    out.push(
      `Quality ${quality.quality_score}/100, gate ${analysis.gate.toUpperCase()}` +
        ` (completeness ${pct(b.completeness)}, dependencies ${pct(b.dependency_validity)},` +
        ` testable acceptance ${pct(b.testable_acceptance)}, complexity assessed ${pct(b.complexity_assessed)})`,
    )
  } else {
    out.push(`Gate ${analysis.gate.toUpperCase()}`)
  }

  if (analysis.errors.length) {
    out.push('', `Errors (${analysis.errors.length})`)
    for (const e of analysis.errors) out.push(`  ✗ ${e.path}: ${e.message}`, `      fix: ${e.hint}`)
  }
  out.push(...renderFindingGroups([...(quality?.findings ?? []), ...(analysis.proof ?? []), ...analysis.warnings]))
  if (solution?.already_done?.length) out.push('', `Already done (ticked in the issue, not run): ${solution.already_done.join(' · ')}`)
  if (solution?.left_out?.length) {
    out.push('', 'Left out of the plan (what the issue says that no task carries, and why)')
    for (const l of solution.left_out) out.push(`  ${l.work ? '!' : '-'} ${l.item}: ${l.reason}`)
  }
  if (options.questions?.length) {
    out.push('', 'The issue does not say (add it and plan again)')
    for (const question of options.questions) out.push(`  ? ${question}`)
  }
  if (options.notes?.length) {
    out.push('', 'Planner notes')
    for (const note of options.notes) out.push(`  - ${note}`)
  }
  if (solution && dag && !analysis.errors.length) out.push('', ...renderWaves(solution, dag.waves), ...renderConflicts(dag.conflicts))
  return out.join('\n')
}

function renderWaves(solution: Solution, waves: string[][]): string[] {
  const titles = new Map(solution.tasks.map((t) => [t.id, t.title]))
  const lines = ['Waves (tasks in a wave run in parallel)']
  waves.forEach((wave, i) => {
    lines.push(`  ${String(i + 1).padStart(2)}. ${wave.map((id) => `${id} ${titles.get(id)}`).join(' | ')}`)
  })
  return lines
}

function renderConflicts(conflicts: Array<{ path: string; tasks: string[] }>): string[] {
  if (!conflicts.length) return []
  return ['', 'Shared files (these tasks never run at the same time)', ...conflicts.map((c) => `  ${c.path}: ${c.tasks.join(', ')}`)]
}

const pct = (x: number) => `${Math.round(x * 100)}%`
