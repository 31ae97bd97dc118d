import type { RunReport } from './run-report.js'
import { renderReportBody } from './report-body.js'

/**
 * GitHub takes up to 1 MiB of job summary per step. A UTF-16 unit is at most 3 bytes of UTF-8, so a
 * quarter of a million of them stays well inside it.
 */
const JOB_SUMMARY_LIMIT = 250_000

/** The job summary: what the sticky comment says, without its marker, and cut less because the limit is larger. */
export function renderJobSummary(report: RunReport): string {
  return renderReportBody(report, JOB_SUMMARY_LIMIT)
}
