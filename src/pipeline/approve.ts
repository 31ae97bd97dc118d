import type { Approval, Solution } from '../model/index.js'
import { analysePlan, type PlanAnalysis } from '../plan/analyse.js'
import { planHash } from '../plan/hash.js'
import { statePaths, toStateJson } from '../model/state-layout.js'
import { transact, type StateStore } from '../state/store.js'
import { recordIssue } from '../state/transitions.js'
import { simpleEvent } from './events.js'
import { appendEvent, issueFilePaths, readIssueFiles } from './issue-files.js'

export type ApproveResult =
  | {
      ok: true; solution: Solution; planHash: string; alreadyApproved: boolean; commit: string | null; summary: string
      /** A plan gated `review`: what the approver accepts by approving it, in one sentence; absent at `pass`. */
      accepted?: string
    }
  | { ok: false; reason: string }

/** What gave the approval, recorded with it (see {@link Approval}). */
export type ApprovalEvent = Pick<Approval, 'via' | 'comment_id' | 'comment_on' | 'run'>

/** How many hex digits of a hash an approver must give at least: the 12 the comment shows. */
const MIN_HASH_DIGITS = 12

/**
 * The hash an approver named (`/converge approve sha256:3f2a…`), at least {@link MIN_HASH_DIGITS} hex digits of
 * it; undefined when `args` names none; an error when what it names is no hash.
 */
export function approvedHashArgument(args: readonly string[]): { hash?: string } | { error: string } {
  const given = args[0]
  if (given === undefined) return {}
  const hash = /^(?:sha256:)?([0-9a-f]+)…?$/i.exec(given)?.[1]?.toLowerCase()
  if (!hash || hash.length < MIN_HASH_DIGITS || hash.length > 64)
    return { error: `\`approve\` takes the plan's content hash as the comment shows it (sha256: and at least ${MIN_HASH_DIGITS} hex digits), or nothing` }
  return { hash: `sha256:${hash}` }
}

/**
 * `approve`: binds an approval to the plan's content hash. Execution later refuses a plan whose hash no
 * longer matches (edited after approval). A plan that fails its gate cannot be approved. With `expectedHash`
 * (the hash the approver read), only a plan with that hash is approved: a re-plan in between is refused, naming
 * both hashes. `event` says what gave the approval.
 */
export async function approvePlan(
  store: StateStore, n: number, approvedBy: string, now: string, event: ApprovalEvent = {}, expectedHash?: string,
): Promise<ApproveResult> {
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
      if (expectedHash && !hash.startsWith(expectedHash)) {
        result = { ok: false, reason: `you approved ${expectedHash}, but the plan of ISS-${n} is now ${hash} (${plan.id}): it was planned again since. Read the plan as it is now and approve its hash` }
        return null
      }
      const author = issue.author ? ` from @${issue.author}'s issue` : ''
      const alreadyApproved = plan.approval?.plan_hash === hash
      const summary = alreadyApproved ? `Already approved: ${plan.id} (${hash}), made${author}.` : `Approved by @${approvedBy}: ${plan.id} (${hash}), made${author}.`
      // An approval already recorded for this issue by the same kind of event stands; a new approving comment (or
      // one given where the record names none, written before approvals carried their event) is recorded anew.
      if (alreadyApproved && plan.approval!.issue === n && plan.approval!.via === event.via && plan.approval!.comment_id === event.comment_id) {
        result = { ok: true, solution: plan, planHash: hash, alreadyApproved, commit: null, summary }
        return null
      }
      const accepted = analysis.gate === 'review' ? `the gate said review (${analysis.quality?.quality_score ?? 0}/100): by approving, @${approvedBy} accepts ${whatIsAccepted(analysis)}` : undefined
      const approval: Approval = { plan_hash: hash, approved_by: approvedBy, approved_at: now, issue: n, plan_id: plan.id, ...event }
      const approved: Solution = { ...plan, approval }
      result = { ok: true, solution: approved, planHash: hash, alreadyApproved, commit: null, summary, ...(accepted ? { accepted } : {}) }
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
  store: StateStore, n: number, plan: Solution, actor: string, now: string, event: ApprovalEvent = { via: 'auto-approve' },
): Promise<{ plan: Solution; approvedNow: boolean }> {
  if (plan.approval?.plan_hash === planHash(plan) || analysePlan(plan).gate !== 'pass') return { plan, approvedNow: false }
  const result = await approvePlan(store, n, actor, now, event)
  return result.ok ? { plan: result.solution, approvedNow: !result.alreadyApproved } : { plan, approvedNow: false }
}
