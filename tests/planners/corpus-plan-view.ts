/**
 * Runs a planner on a corpus issue and reduces its plan to the scorer's `PlanView`. The planner comes in
 * as a parameter (`builtinPlan` and `analysePlan`), so the bench can run an older copy of the planner
 * through the same adapter; the types below are the few fields both copies share.
 */
import type { PlanView } from './corpus-score.js'

interface IssueInput {
  number: number
  title: string
  body: string
  labels: string[]
}

interface PlannerOutputLike {
  raw: unknown
  error?: { message: string }
  /** An epic's child issues (newer planners). */
  epic?: { children?: Array<number | { number: number }> }
  /** Ticked items, epic children included (newer planners). */
  alreadyDone?: string[]
  /** What the issue does not say (newer planners): scored with the findings. */
  questions?: string[]
}

interface AnalysisLike {
  solution?: {
    strategy_type?: string
    tasks: Array<{
      id: string
      title: string
      description: string
      type: string
      depends_on: string[]
      convergence: { criteria: string[] }
      test: { commands: string[] }
    }>
  }
  errors: Array<{ message: string }>
  quality?: { findings: Array<{ message: string }> }
  gate: PlanView['gate']
}

export interface PlannerModules {
  builtinPlan: (issue: IssueInput) => PlannerOutputLike
  analysePlan: (raw: unknown, issueNumber?: number) => AnalysisLike
}

export function planView(modules: PlannerModules, issue: IssueInput): PlanView {
  const output = modules.builtinPlan(issue)
  const children = (output.epic?.children ?? []).map((c) => (typeof c === 'number' ? c : c.number))
  const done = output.alreadyDone ?? alreadyDone(output.raw)
  const questions = output.questions ?? []
  if (output.error) return { tasks: [], done, children, gate: 'fail', findings: [output.error.message, ...questions], error: output.error.message }
  const analysis = modules.analysePlan(output.raw, issue.number)
  const findings = [...analysis.errors.map((e) => e.message), ...(analysis.quality?.findings ?? []).map((f) => f.message), ...questions]
  const tasks = (analysis.solution?.tasks ?? []).map((t) => ({
    id: t.id,
    title: t.title,
    description: t.description,
    type: t.type,
    criteria: t.convergence.criteria,
    depends_on: t.depends_on,
    commands: t.test.commands,
  }))
  return {
    tasks,
    done,
    children,
    gate: analysis.gate,
    findings,
    ...(analysis.solution?.strategy_type ? { type: analysis.solution.strategy_type } : {}),
  }
}

/** `raw.already_done`: titles, or objects with a title. */
function alreadyDone(raw: unknown): string[] {
  const list = raw && typeof raw === 'object' ? (raw as { already_done?: unknown }).already_done : undefined
  if (!Array.isArray(list)) return []
  return list.flatMap((item: unknown) =>
    typeof item === 'string' ? [item] : item && typeof item === 'object' && typeof (item as { title?: unknown }).title === 'string' ? [(item as { title: string }).title] : [],
  )
}
