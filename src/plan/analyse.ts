import type { Finding, QualityGate, QualityReport, Solution } from '../model/index.js'
import { analyseDag, type DagAnalysis } from './dag.js'
import { proofFindings } from './proof-findings.js'
import { assessQuality } from './quality.js'
import { parseSolution, readPlanJson } from './read.js'
import { fromTaskmaster } from './taskmaster.js'
import type { PlanError } from './schema-errors.js'

/** Everything Converge knows about a plan before it runs anything. */
export interface PlanAnalysis {
  /** The canonical plan, when it could be read. */
  solution?: Solution
  /** Reasons the plan cannot be used: schema errors and DAG errors (unknown, self, duplicate ids, cycles). */
  errors: PlanError[]
  /** Non-blocking remarks about the plan's form, e.g. unknown fields. */
  warnings: Finding[]
  /** What will not prove anything (plan/proof-findings.ts): shown with the findings, they do not change the score. */
  proof?: Finding[]
  dag?: DagAnalysis
  quality?: QualityReport
  /** `fail` whenever there are errors; otherwise the quality gate. */
  gate: QualityGate
}

/**
 * `issueNumber`: the issue the plan is for, when known; a plan that names no issue (a Taskmaster file, a CCW
 * solution without `issue_id`) is read for it (issue 0 when validating a file on its own).
 */
export function analysePlan(raw: unknown, issueNumber?: number): PlanAnalysis {
  const parsed = parseSolution(fromTaskmaster(raw, issueNumber ?? 0) ?? raw, issueNumber === undefined ? {} : { issueNumber })
  if (!parsed.ok) return { errors: parsed.errors, warnings: parsed.warnings, gate: 'fail' }
  return analyseSolution(parsed.solution, parsed.warnings)
}

/** The analysis of a plan already read as canonical (a stored `plan.json`): nothing to read again, no warnings of form. */
export function analyseSolution(solution: Solution, warnings: Finding[] = []): PlanAnalysis {
  const dag = analyseDag(solution.tasks)
  const errors: PlanError[] = dag.errors.map((e) => ({ code: e.code, path: e.path, message: e.message, hint: e.fix }))
  const quality = assessQuality(solution, dag)
  return { solution, errors, warnings, dag, quality, proof: proofFindings(solution), gate: errors.length ? 'fail' : quality.quality_gate }
}

/** `analysePlan` for plan text (a file, a fenced block): JSON syntax errors are reported like any other error. */
export function analysePlanText(text: string, issueNumber?: number): PlanAnalysis {
  const json = readPlanJson(text)
  if (!json.ok) return { errors: [json.error], warnings: [], gate: 'fail' }
  return analysePlan(json.value, issueNumber)
}
