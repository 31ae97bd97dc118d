import type { Solution } from '../model/index.js'
import { analysePlan, type PlanAnalysis } from '../plan/analyse.js'
import { planHash } from '../plan/hash.js'
import { statePaths, toStateJson } from '../model/state-layout.js'
import { transact, type StateStore } from '../state/store.js'
import { recordIssue } from '../state/transitions.js'
import { simpleEvent } from './events.js'
import { appendEvent, issueFilePaths, readIssueFiles } from './issue-files.js'

export type ApproveResult =
  | {
      ok: true; solution: Solution; planHash: string; alreadyApproved: boolean; commit: string | null
      /** A plan gated `review`: what the approver accepts by approving it, in one sentence; absent at `pass`. */
      accepted?: string
    }
  | { ok: false; reason: string }

/**
 * `approve`: binds an approval to the plan's content hash. Execution later refuses a plan whose hash no
 * longer matches (edited after approval). A plan that fails its gate cannot be approved.
 */
export async function approvePlan(store: StateStore, n: number, approvedBy: string, now: string): Promise<ApproveResult> {
  let result = { ok: false, reason: '' } as ApproveResult // set by the transaction below
  const { commit } = await transact(
    store,
    async (snapshot) => {
      const { run, issue, plan, events } = await readIssueFiles(snapshot, n, now)
      if (!plan || !issue) {
        result = { ok: false, reason: `ISS-${n} has no plan yet: run \`/converge plan\` first` }
        return null
      }
      if (issue.status === 'failed' && issue.solution_id === plan.id && issue.error?.startsWith('Plan rejected')) {
        result = { ok: false, reason: `The last plan for ISS-${n} was rejected: fix it and run \`/converge plan\` again` }
        return null
      }
      const analysis = analysePlan(plan)
      if (analysis.gate === 'fail') {
        result = { ok: false, reason: `${plan.id} fails its quality gate (${analysis.quality?.quality_score ?? 0}/100): improve the plan, then plan again. Approving it would accept ${whatIsAccepted(analysis)}` }
        return null
      }
      const hash = planHash(plan)
      if (plan.approval?.plan_hash === hash) {
        result = { ok: true, solution: plan, planHash: hash, alreadyApproved: true, commit: null }
        return null
      }
      const approved: Solution = { ...plan, approval: { plan_hash: hash, approved_by: approvedBy, approved_at: now } }
      const accepted = analysis.gate === 'review' ? `the gate said review (${analysis.quality?.quality_score ?? 0}/100): by approving, @${approvedBy} accepts ${whatIsAccepted(analysis)}` : undefined
      result = { ok: true, solution: approved, planHash: hash, alreadyApproved: false, commit: null, ...(accepted ? { accepted } : {}) }
      return {
        message: `ISS-${n}: ${plan.id} approved by ${approvedBy}`,
        files: {
          [statePaths.plan(n)]: toStateJson(approved),
          [statePaths.runState]: toStateJson(recordIssue(run, issue, now, { note: `approved ${plan.id} by ${approvedBy}` })),
          [statePaths.events(n)]: appendEvent(events, n, simpleEvent(now, n, `approved ${plan.id}`, `**Approved by**: @${approvedBy} | **Plan hash**: \`${hash}\``)),
        },
      }
    },
    { prefetch: issueFilePaths(n) },
  )
  return result.ok ? { ...result, commit } : result
}

/**
 * What approving a plan that did not pass its gate accepts: its most severe findings, those about what will not
 * prove anything first, e.g. "3 findings: T2 is a fix task checked only by `npm test` …; 2 criteria … wait for a person".
 */
function whatIsAccepted(analysis: PlanAnalysis): string {
  const findings = [...(analysis.proof ?? []), ...(analysis.quality?.findings ?? [])]
  const severe = findings.filter((f) => f.severity !== 'low').concat(findings.filter((f) => f.severity === 'low'))
  if (!severe.length) return 'a plan below the score that passes'
  const listed = severe.slice(0, 3).map((f) => f.message).join('; ')
  return `${severe.length} finding${severe.length === 1 ? '' : 's'}: ${listed}${severe.length > 3 ? `; and ${severe.length - 3} more in the plan's findings` : ''}`
}

/**
 * `auto-approve`: the asking actor approves the stored plan when it is not approved for its current content
 * and passes its gate. Returns the plan as it stands afterwards, and whether this call approved it.
 */
export async function approveIfPassing(
  store: StateStore, n: number, plan: Solution, actor: string, now: string,
): Promise<{ plan: Solution; approvedNow: boolean }> {
  if (plan.approval?.plan_hash === planHash(plan) || analysePlan(plan).gate !== 'pass') return { plan, approvedNow: false }
  const result = await approvePlan(store, n, actor, now)
  return result.ok ? { plan: result.solution, approvedNow: !result.alreadyApproved } : { plan, approvedNow: false }
}
