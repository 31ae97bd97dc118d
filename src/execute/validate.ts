/**
 * The validate phase's judgement: the convergence rule of `task-loop.ts`'s header, over the checks the evidence
 * phase recorded and the executor's report.
 */
import type { ConvergenceCheck } from '../model/index.js'
import { describeFailure } from './failure-text.js'
import type { ExecutorReport } from './prompt.js'

export interface Verdict {
  converged: boolean
  /** Why not, in one line, when not converged. */
  reason: string
}

/** A criterion or manual entry: the report's verdict when it names it (evidence kept as the output), else pending. */
export function statementCheck(text: string, report: ExecutorReport | undefined): ConvergenceCheck {
  const reported = report?.criteria.find((c) => sameText(c.text, text))
  if (!reported) return { kind: 'criterion', text, verdict: 'pending', verified_by: 'manual' }
  return {
    kind: 'criterion',
    text,
    verdict: reported.met ? 'pass' : 'fail',
    verified_by: 'agent',
    ...(reported.evidence ? { output_tail: reported.evidence } : {}),
  }
}

const sameText = (a: string, b: string) => normalise(a) === normalise(b)
const normalise = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase()

/** The convergence rule. Manual verification steps never decide: they are for a person. */
export function judge(commands: ConvergenceCheck[], criteria: ConvergenceCheck[], report: ExecutorReport | undefined): Verdict {
  if (commands.length > 0) {
    const failed = commands.filter((c) => c.verdict !== 'pass')
    return { converged: failed.length === 0, reason: failed.map(describeFailure).join('; ') }
  }
  if (!report) return { converged: false, reason: 'no verification command to run and no executor report' }
  const unmet = criteria.filter((c) => c.verdict !== 'pass')
  return {
    converged: unmet.length === 0,
    reason: unmet.map((c) => `"${c.text}" ${c.verdict === 'fail' ? 'not met' : 'not reported'}`).join('; '),
  }
}

/** `tests_passed` of the result: whether every command passed; null when there was none. */
export function testsPassed(checks: ConvergenceCheck[]): boolean | null {
  const commands = checks.filter((c) => c.kind === 'command')
  return commands.length === 0 ? null : commands.every((c) => c.verdict === 'pass')
}
