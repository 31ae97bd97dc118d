/**
 * What the command planner says about each attempt: the reasons recorded in `PlanAttempt.errors`, the one-line
 * note for the report, and `feedback.md`, which tells the next attempt what to fix.
 */
import type { CommandResult } from '../processes/run-command.js'
import type { PlanAttempt, PlanAttemptOutcome } from '../model/index.js'
import type { PlanAnalysis } from '../plan/analyse.js'
import type { PlanError } from '../plan/schema-errors.js'
import { plural } from '../report/markdown.js'
import { fenced } from './plan-prompt.js'

/** What became of one attempt's plan file. */
export interface Evaluation {
  outcome: PlanAttemptOutcome
  /** The plan as read (ids filled in, secrets masked), when there was JSON. */
  raw?: unknown
  /** Why there is no plan (no file, not JSON). */
  error?: PlanError
  analysis?: PlanAnalysis
  note?: string
}

const MAX_ERRORS_RECORDED = 10
const MAX_FEEDBACK_ITEMS = 30
const OUTPUT_LINES_FED_BACK = 30

/** The attempt's reasons for `PlanAttempt.errors`: `path: message`, at most {@link MAX_ERRORS_RECORDED}. */
export function recordedErrors(evaluation: Evaluation): string[] {
  const lines: string[] = []
  if (evaluation.error) lines.push(`${evaluation.error.path}: ${evaluation.error.message}`)
  const analysis = evaluation.analysis
  if (analysis) {
    for (const e of analysis.errors) lines.push(`${e.path}: ${e.message}`)
    if (!analysis.errors.length && analysis.gate === 'fail' && analysis.quality) {
      lines.push(`quality gate: fail (${analysis.quality.quality_score}/100)`)
      for (const f of analysis.quality.findings) if (f.severity === 'critical' || f.severity === 'high') lines.push(`${f.path}: ${f.message}`)
    }
  }
  if (lines.length <= MAX_ERRORS_RECORDED) return lines
  return [...lines.slice(0, MAX_ERRORS_RECORDED - 1), `…and ${lines.length - MAX_ERRORS_RECORDED + 1} more`]
}

const OUTCOME_WORDS: Record<PlanAttemptOutcome, string> = {
  accepted: 'accepted',
  no_plan: 'no plan written',
  invalid_json: 'not valid JSON',
  schema_errors: 'does not match the schema',
  dag_errors: 'invalid task dependencies',
  gate_fail: 'fails the quality gate',
  changed_checkout: 'changed the checkout',
}

/** One line per attempt for the report: `attempt 2 of 3: invalid task dependencies — tasks[1].depends_on: … (exit 0, 0.3 s)`. */
export function attemptNote(record: PlanAttempt, maxAttempts: number, run: CommandResult): string {
  const quality = record.gate ? `, gate ${record.gate} (${record.quality_score}/100)` : ''
  const reasons = record.outcome === 'accepted' ? '' : ` — ${record.errors.slice(0, 3).join('; ')}${record.errors.length > 3 ? '; …' : ''}`
  return `attempt ${record.attempt} of ${maxAttempts}: ${OUTCOME_WORDS[record.outcome]}${quality}${reasons} (${shortEnd(run)})`
}

/** Why the attempt was not accepted, for the next one: plain markdown, every reason with its fix. */
export function feedbackMarkdown(
  record: PlanAttempt, maxAttempts: number, evaluation: Evaluation, run: CommandResult, planFile: string, timeoutMs: number,
): string {
  const out = [`# Attempt ${record.attempt} of ${maxAttempts} was not accepted: ${OUTCOME_WORDS[record.outcome]}`, '']
  const items: string[] = []
  if (evaluation.error) items.push(item(evaluation.error))
  const analysis = evaluation.analysis
  if (analysis?.errors.length) {
    const graph = record.outcome === 'dag_errors'
    out.push(
      graph
        ? `The plan was read, but its task dependencies are wrong (${plural(analysis.errors.length, 'error')}): every id in depends_on must name another task of the plan, and the dependencies must not form a cycle.`
        : `The plan does not match the JSON Schema (${plural(analysis.errors.length, 'error')}):`,
      '',
    )
    items.push(...analysis.errors.map(item))
  } else if (record.outcome === 'gate_fail' && analysis?.quality) {
    out.push(
      `The plan is valid, but it scores ${analysis.quality.quality_score}/100 and fails the quality gate (a plan needs at least 60/100 and no critical finding). Address the findings:`,
      '',
    )
    items.push(...analysis.quality.findings.map((f) => `- **${f.severity}** \`${f.path}\`: ${f.message.replace(/\.$/, '')}. Fix: ${f.fix}`))
  } else if (record.outcome === 'invalid_json') {
    out.push('The plan file does not hold valid JSON:', '')
  } else if (record.outcome === 'no_plan') {
    out.push(`Nothing usable was found in ${planFile}:`, '')
  }
  out.push(...items.slice(0, MAX_FEEDBACK_ITEMS))
  if (items.length > MAX_FEEDBACK_ITEMS) out.push(`- …and ${items.length - MAX_FEEDBACK_ITEMS} more`)
  out.push('', `The planner command ${howItEnded(run, timeoutMs)}.`)
  if (run.outputTail.trim() && (record.outcome === 'no_plan' || run.exitCode !== 0)) {
    const tail = run.outputTail.trimEnd().split('\n').slice(-OUTPUT_LINES_FED_BACK).join('\n')
    out.push('', 'The end of its output:', '', fenced(tail, 'text'))
  }
  out.push('', 'Write the whole corrected plan, as JSON only, to the file named by $CONVERGE_PLAN_FILE.')
  return `${out.join('\n')}\n`
}

function item(e: PlanError): string {
  return `- \`${e.path}\`: ${e.message.replace(/\.$/, '')}. How to fix: ${e.hint}`
}

export function howItEnded(run: CommandResult, timeoutMs: number): string {
  const took = seconds(run.durationMs)
  if (run.timedOut) return `was stopped at its time limit of ${minutes(timeoutMs)}, with everything it started`
  if (run.exitCode === null) return `was ended by ${run.signal ?? 'a signal'} after ${took}`
  return `exited with code ${run.exitCode} after ${took}`
}

function shortEnd(run: CommandResult): string {
  if (run.timedOut) return `timed out after ${seconds(run.durationMs)}`
  if (run.exitCode === null) return `${run.signal ?? 'signal'} after ${seconds(run.durationMs)}`
  return `exit ${run.exitCode}, ${seconds(run.durationMs)}`
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

function minutes(ms: number): string {
  const m = ms / 60_000
  return m >= 1 && Number.isInteger(m) ? `${m} min` : seconds(ms)
}
