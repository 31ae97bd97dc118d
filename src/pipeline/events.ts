import type { Solution } from '../model/index.js'
import type { PlanAnalysis } from '../plan/analyse.js'

/** A planning entry for `events.md`, in the style of the seed's `execution-events.md`. */
export function planEvent({ at, analysis, issue, solution }: { at: string; analysis: PlanAnalysis; issue: number; solution?: Solution }): string {
  const lines = [`## ${at} — ISS-${issue}: plan ${solution ? solution.id : 'rejected'}`, '']
  if (solution) {
    lines.push(
      `**Status**: PLANNED | **Tasks**: ${solution.tasks.length} | **Waves**: ${analysis.dag?.waves.length ?? 0} | **Quality gate**: ${analysis.gate} (${analysis.quality?.quality_score ?? 0}/100)`,
    )
  } else {
    lines.push(`**Status**: REJECTED | **Errors**: ${analysis.errors.length}`, '')
    for (const e of analysis.errors.slice(0, 10)) lines.push(`- \`${e.path}\`: ${e.message}`)
  }
  lines.push('', '---', '', '')
  return lines.join('\n')
}

/** A one-line event for `events.md`: approvals, control signals. */
export function simpleEvent(at: string, issue: number, title: string, detail: string): string {
  return `## ${at} — ISS-${issue}: ${title}\n\n${detail}\n\n---\n\n`
}
