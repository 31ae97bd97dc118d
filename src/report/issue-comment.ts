import type { Finding, IssueStatus, Solution } from '../model/index.js'
import type { PlanAnalysis } from '../plan/analyse.js'
import { planHash } from '../plan/hash.js'
import { cell, code, details, inline, plural, table } from './markdown.js'

/** What the issue's sticky comment shows; rendering is pure so the comment, the summary and the CLI agree. */
export interface IssueReport {
  issue: { number: number; title: string }
  status: IssueStatus
  /** What just happened, in one line ("Planned by @alice", "Paused by @bob"). */
  headline?: string
  solution?: Solution
  analysis?: PlanAnalysis
  notes?: string[]
  commandPrefix: string
  links: { stateBranch?: string; run?: string }
}

export function renderIssueComment(report: IssueReport): string {
  const { issue, solution, analysis } = report
  const out = [`<!-- converge:ISS-${issue.number} -->`, `### Converge · ISS-${issue.number} · ${report.status}`, '']
  if (report.headline) out.push(inline(report.headline), '')

  if (analysis?.errors.length) {
    out.push(
      `**The plan cannot be used**: ${plural(analysis.errors.length, 'error')}.`,
      '',
      table(['Where', 'Problem', 'How to fix'], analysis.errors.map((e) => [code(e.path), cell(e.message), cell(e.hint)])),
      '',
    )
  }
  if (solution) out.push(...planSection(solution, analysis), '')
  const findings = [...(analysis?.quality?.findings ?? []), ...(analysis?.warnings ?? [])]
  if (findings.length) out.push(details(`Plan quality findings (${findings.length})`, findingList(findings)), '')
  if (report.notes?.length) out.push(details('Planner notes', report.notes.map((n) => `- ${inline(n)}`).join('\n')), '')
  out.push(nextStep(report), '')
  out.push(links(report))
  return `${out.join('\n').trimEnd()}\n`
}

function planSection(solution: Solution, analysis: PlanAnalysis | undefined): string[] {
  const waves = analysis?.dag?.waves ?? []
  const waveOf = new Map(waves.flatMap((w, i) => w.map((id) => [id, i + 1] as const)))
  const quality = analysis?.quality
  const approval = solution.approval ? `approved by ${inline(`@${solution.approval.approved_by}`)}` : 'not approved yet'
  const summary = [
    `**Plan** ${code(solution.id)}: ${plural(solution.tasks.length, 'task')}${waves.length ? ` in ${plural(waves.length, 'wave')}` : ''}`,
    quality ? `quality **${quality.quality_score}/100**, gate **${analysis!.gate}**` : undefined,
    approval,
  ].filter(Boolean).join(' · ')
  const rows = solution.tasks.map((t) => [
    t.id,
    cell(t.title),
    String(waveOf.get(t.id) ?? '–'),
    t.type,
    t.files.length ? t.files.slice(0, 3).map((f) => code(f.path)).join(' ') + (t.files.length > 3 ? ` +${t.files.length - 3}` : '') : '–',
    t.depends_on.join(', ') || '–',
  ])
  return [summary, '', table(['Task', 'Title', 'Wave', 'Type', 'Files', 'Depends on'], rows)]
}

function findingList(findings: Finding[]): string {
  return findings.map((f) => `- **${f.severity}** ${code(f.path)}: ${inline(f.message)}. *Fix:* ${inline(f.fix)}`).join('\n')
}

function nextStep(report: IssueReport): string {
  const p = report.commandPrefix
  const { solution, analysis } = report
  if (analysis?.errors.length)
    return `**Next**: fix the plan (in the issue body's \`\`\`json block, or in a \`${p} plan\` comment holding a corrected block), then comment \`${p} plan\`.`
  if (report.status === 'paused') return `**Next**: comment \`${p} resume\` to continue.`
  if (!solution) return `**Next**: comment \`${p} plan\` to make a plan.`
  if (analysis?.gate === 'fail') return `**Next**: the plan fails its quality gate: address the findings, then comment \`${p} plan\`.`
  if (!solution.approval)
    return `**Next**: comment \`${p} approve\` to approve this plan (content hash ${code(planHash(solution).slice(0, 19))}…), then \`${p} execute\`.`
  return `**Next**: comment \`${p} execute\` to carry it out.`
}

function links(report: IssueReport): string {
  const n = report.issue.number
  const parts: string[] = []
  if (report.links.stateBranch) {
    const base = `${report.links.stateBranch}/.converge/issues/${n}`
    parts.push(`[plan.json](${base}/plan.json)`, `[issue.json](${base}/issue.json)`, `[events.md](${base}/events.md)`)
  }
  if (report.links.run) parts.push(`[workflow run](${report.links.run})`)
  return parts.length ? `<sub>${parts.join(' · ')}</sub>` : ''
}
