import { evidenceLabel, waitingCriteria } from './evidence-words.js'
import { renderReportBody } from './report-body.js'
import type { RunReport } from './run-report.js'
import { CHECK_RUN_TEXT_LIMIT } from './size.js'
import { criteriaForAPerson, isInProgress, maskedView, type ReportView } from './task-view.js'

export type CheckConclusion = 'success' | 'failure' | 'neutral' | 'action_required'

export interface CheckRunOutput {
  /** One line for the checks list: `3/5 tasks converged`, `Needs approval`, `T3 failed · 2/5 tasks converged`. */
  title: string
  /** The same content as the sticky comment (without its marker), under GitHub's 65,535-character limit. */
  summary: string
  /** Absent while the run is in progress (the check run stays `in_progress`). */
  conclusion?: CheckConclusion
}

/** The check run `converge / ISS-<n>`: title, summary and conclusion (see `checkConclusion`). */
export function renderCheckRun(report: RunReport): CheckRunOutput {
  const view = maskedView(report)
  const conclusion = checkConclusion(view)
  return {
    title: checkTitle(view),
    summary: renderReportBody(report, CHECK_RUN_TEXT_LIMIT),
    ...(conclusion ? { conclusion } : {}),
  }
}

/**
 * In this order:
 * - `failure`: the plan is invalid (errors, or it fails its quality gate), a task failed, or the run ended failed
 *   with no task failed (its budget was spent, it could not start);
 * - `success`: every task converged, proven by its evidence (or a regression guard);
 * - none while tasks run or are queued: the check run is still in progress;
 * - `action_required`: the plan waits for approval (never approved, or changed since it was);
 * - `neutral`: nothing to do or to verify: no plan yet, approved but not executed, paused, stopped, finished
 *   with skipped tasks, or finished with tasks whose evidence proves nothing (unproven, no change, manual, not
 *   measured: "completed" is not "proven").
 */
function checkConclusion(view: ReportView): CheckConclusion | undefined {
  if (view.analysis?.errors.length || view.analysis?.gate === 'fail') return 'failure'
  if (view.count.failed || view.report.execution?.status === 'failed') return 'failure'
  if (view.tasks.length && view.count.converged === view.tasks.length) return 'success'
  if (isInProgress(view)) return undefined
  if (view.approval === 'missing' || view.approval === 'stale') return 'action_required'
  return 'neutral'
}

function checkTitle(view: ReportView): string {
  const { analysis, count, tasks, report } = view
  if (analysis?.errors.length) return `Plan invalid: ${analysis.errors.length} error${analysis.errors.length === 1 ? '' : 's'}`
  if (!report.solution) return 'No plan yet'
  if (analysis?.gate === 'fail') return `Plan fails the quality gate (${analysis.quality?.quality_score ?? 0}/100)`
  const progress = `${count.converged}/${tasks.length} tasks converged`
  if (count.failed) {
    const failed = tasks.filter((t) => t.state === 'failed').map((t) => t.task.id)
    return `${failed.length > 3 ? `${failed.length} tasks` : failed.join(', ')} failed · ${progress}`
  }
  if (isInProgress(view)) return progress
  // Finished: what the evidence does not prove, and what waits for a person, are part of the verdict.
  if (count.converged + count.unproven === tasks.length) return [progress, ...evidenceNotes(view)].join(' · ')
  if (view.approval === 'missing') return 'Needs approval'
  if (view.approval === 'stale') return 'Needs approval: the plan changed'
  if (report.status === 'paused') return `Paused · ${progress}`
  return view.started ? progress : 'Approved, not executed yet'
}

/** "2 not proven (T3 changed nothing, T4 unproven)", "3 criteria wait for a person". */
function evidenceNotes(view: ReportView): string[] {
  const unproven = view.tasks.filter((t) => t.state === 'unproven')
  const named = unproven.slice(0, 3).map((t) => `${t.task.id} ${evidenceLabel(t.result!.evidence!)}`).join(', ')
  const waiting = waitingCriteria(criteriaForAPerson(view))
  return [...(unproven.length ? [`${unproven.length} not proven (${named}${unproven.length > 3 ? ', …' : ''})`] : []), ...(waiting ? [waiting] : [])]
}
