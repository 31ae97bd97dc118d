import { runUsage, totalTokens } from '../agents/usage.js'
import { planHash } from '../plan/hash.js'
import { provedBy } from '../report/evidence-words.js'
import { statePaths } from '../model/state-layout.js'
import type { Outcome } from './commands.js'

/** Every output of SPEC §8, from a command's outcome; empty where the command has nothing to say. */
export function outputsOf(outcome: Outcome): Record<string, string> {
  const { solution, execution } = outcome
  const results = Object.values(execution?.tasks ?? {})
  const completed = results.filter((r) => r.status === 'completed')
  const n = outcome.issueNumber
  const usage = runUsage(execution)
  const reported = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value))
  return {
    status: outcome.status,
    'issue-id': n ? `ISS-${n}` : '',
    'solution-id': solution?.id ?? '',
    'plan-path': n && solution ? statePaths.plan(n) : '',
    'plan-hash': solution ? planHash(solution) : '',
    'quality-gate': outcome.gate ?? '',
    'tasks-total': solution ? String(solution.tasks.length) : '',
    'tasks-completed': solution ? String(results.filter((r) => r.status === 'completed').length) : '',
    'tasks-failed': solution ? String(results.filter((r) => r.status === 'failed').length) : '',
    // Only results that recorded evidence count here: a record of an older version proves nothing either way.
    'tasks-proven': solution ? String(completed.filter((r) => r.evidence && provedBy(r)).length) : '',
    'tasks-unproven': solution ? String(completed.filter((r) => !provedBy(r)).length) : '',
    'pull-request-number': outcome.pullRequestNumber ? String(outcome.pullRequestNumber) : '',
    'check-run-id': outcome.checkRunId ? String(outcome.checkRunId) : '',
    'comment-id': outcome.commentId ? String(outcome.commentId) : '',
    matrix: outcome.matrix ?? '',
    // Empty when no executor ran or the agent did not report it: "not reported", never 0.
    'agent-cost-usd': reported(usage?.cost_usd),
    'agent-tokens': reported(usage ? totalTokens(usage) : null),
    'agent-turns': reported(usage?.turns),
  }
}
