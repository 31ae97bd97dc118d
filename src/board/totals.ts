/** The board's totals: tasks and agent cost per day and per agent, and evidence across every issue. Pure. */
import type { BoardIssue } from './data.js'
import { EVIDENCE_COLUMNS, type EvidenceColumn } from './input.js'

export interface TotalRow {
  /** A day (`2026-11-25`, UTC) or an agent's name. */
  key: string
  tasks: number
  cost_usd: number | null
  tokens: number | null
}

export interface BoardTotals {
  issues: number
  tasks: number
  cost_usd: number | null
  tokens: number | null
  by_day: TotalRow[]
  by_agent: TotalRow[]
  evidence: Record<EvidenceColumn, number>
}

export function boardTotals(issues: readonly BoardIssue[]): BoardTotals {
  const days = new Map<string, TotalRow>()
  const agents = new Map<string, TotalRow>()
  const evidence = noEvidence()
  for (const issue of issues) {
    for (const [kind, count] of Object.entries(issue.evidence) as Array<[EvidenceColumn, number]>) evidence[kind] += count
    for (const task of issue.tasks) {
      if (!task.executed_at) continue
      add(days, task.executed_at.slice(0, 10), task)
      add(agents, task.agent, task)
    }
  }
  const all = [...days.values()]
  return {
    issues: issues.length,
    tasks: all.reduce((sum, row) => sum + row.tasks, 0),
    cost_usd: sumOf(all.map((row) => row.cost_usd)),
    tokens: sumOf(all.map((row) => row.tokens)),
    by_day: [...days.values()].sort((a, b) => a.key.localeCompare(b.key)),
    by_agent: [...agents.values()].sort((a, b) => b.tasks - a.tasks || a.key.localeCompare(b.key)),
    evidence,
  }
}

function add(rows: Map<string, TotalRow>, key: string, task: { cost_usd: number | null; tokens: number | null }): void {
  const row = rows.get(key) ?? { key, tasks: 0, cost_usd: null, tokens: null }
  row.tasks++
  row.cost_usd = sumOf([row.cost_usd, task.cost_usd])
  row.tokens = sumOf([row.tokens, task.tokens])
  rows.set(key, row)
}

/** The sum of what was reported; null when nothing was (not reported is not 0). */
function sumOf(values: Array<number | null>): number | null {
  const reported = values.filter((v): v is number => v !== null)
  return reported.length ? reported.reduce((a, b) => a + b, 0) : null
}

export function noEvidence(): Record<EvidenceColumn, number> {
  return Object.fromEntries(EVIDENCE_COLUMNS.map((kind) => [kind, 0])) as Record<EvidenceColumn, number>
}
