import { maskStrings, maskTokenShapes } from '../model/secrets.js'
import type { RunReport } from './run-report.js'

/**
 * The report with every registered secret masked in every string it holds, and token shapes masked in
 * what commands printed (output tails, errors). The result no longer carries the secrets themselves.
 */
export function maskReport(report: RunReport): RunReport {
  const { secrets = [], ...rest } = report
  const masked = maskStrings(rest, secrets)
  if (!masked.execution) return masked
  const tasks = Object.fromEntries(
    Object.entries(masked.execution.tasks).map(([id, result]) => [
      id,
      {
        ...result,
        error: result.error === null ? null : maskTokenShapes(result.error),
        convergence_verified: result.convergence_verified.map((check) =>
          check.output_tail === undefined ? check : { ...check, output_tail: maskTokenShapes(check.output_tail) },
        ),
      },
    ]),
  )
  return { ...masked, execution: { ...masked.execution, tasks } }
}
