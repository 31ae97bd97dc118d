import { z } from 'zod'
import { SEVERITIES } from './enums.js'

export const FindingSchema = z.object({
  rule: z.string(),
  severity: z.enum(SEVERITIES),
  task_id: z.string().optional(),
  /** JSON path in the plan, e.g. `tasks[2].convergence.criteria[0]`. */
  path: z.string(),
  message: z.string(),
  value: z.string().optional(),
  fix: z.string(),
})

export const QUALITY_GATES = ['pass', 'review', 'fail'] as const

export const QualityReportSchema = z.object({
  /** The `solution-schema.md` weighted score, 0..1. */
  score: z.number().min(0).max(1),
  quality_score: z.number().int().min(0).max(100),
  quality_gate: z.enum(QUALITY_GATES),
  breakdown: z.object({
    completeness: z.number().min(0).max(1),
    dependency_validity: z.number().min(0).max(1),
    testable_acceptance: z.number().min(0).max(1),
    complexity_assessed: z.number().min(0).max(1),
  }),
  findings: z.array(FindingSchema),
  issues_by_severity: z.object({
    critical: z.number().int().nonnegative(),
    high: z.number().int().nonnegative(),
    medium: z.number().int().nonnegative(),
    low: z.number().int().nonnegative(),
  }),
})

export type Finding = z.infer<typeof FindingSchema>
export type QualityGate = (typeof QUALITY_GATES)[number]
export type QualityReport = z.infer<typeof QualityReportSchema>
