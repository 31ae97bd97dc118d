import type { RunReport } from './run-report.js'
import { renderReportBody } from './report-body.js'
import { GITHUB_COMMENT_LIMIT } from './size.js'

/** The sticky issue comment: the marker that finds it again on the first line, then the report, under GitHub's size limit. */
export function renderIssueComment(report: RunReport): string {
  const marker = `<!-- converge:ISS-${report.issue.number} -->`
  // Strictly under the limit, with the marker and its line break counted.
  return `${marker}\n${renderReportBody(report, GITHUB_COMMENT_LIMIT - 1 - marker.length - 1)}`
}
