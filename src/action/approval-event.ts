/**
 * Approvals that a push to the state branch cannot make up. `plan.json` on the state branch is writable by
 * anyone who can push there, so the approval it records is only a claim: before a workflow run executes, the
 * claim is checked against what GitHub itself says — the approving comment exists, is by the approver, is an
 * `approve` of this plan (its hash, when it names one), on this issue, and the approver still has the permission
 * to approve. An approval is valid for the issue and the plan it was given on only.
 */
import { parseCommandLine } from '../commands/commands.js'
import type { Approval, Solution } from '../model/index.js'
import { analysePlan } from '../plan/analyse.js'
import { planHash } from '../plan/hash.js'
import type { ApprovalEvent } from '../pipeline/approve.js'
import { checkPermission } from './permissions.js'
import type { Route } from './route.js'
import type { Session } from './session.js'

/** What gives this approval: the comment (by id, and where it is), or this workflow run. */
export function approvalEvent(session: Session, route: Extract<Route, { kind: 'command' }>): ApprovalEvent {
  if (route.source === 'comment' && route.commentId) return { via: 'comment', comment_id: route.commentId, comment_on: route.target.number }
  return { via: 'workflow', ...(session.ctx.runUrl ? { run: session.ctx.runUrl } : {}) }
}

/** What an `auto-approve` by this run records. */
export function autoApproval(session: Session): ApprovalEvent {
  return { via: 'auto-approve', ...(session.ctx.runUrl ? { run: session.ctx.runUrl } : {}) }
}

/**
 * Why the approval recorded with `plan` does not hold for ISS-`n`, or null when GitHub confirms it (or when there
 * is no current approval: the gate then says so).
 */
export async function unconfirmedApproval(session: Session, n: number, plan: Solution | undefined): Promise<string | null> {
  const approval = plan?.approval
  if (!plan || !approval || approval.plan_hash !== planHash(plan)) return null
  const again = `comment \`${session.inputs['command-prefix']} approve ${approval.plan_hash.slice(0, 19)}\` to approve it`
  if (plan.issue_id !== `ISS-${n}` || approval.issue !== n)
    return `${plan.id} was approved for ${approval.issue ? `ISS-${approval.issue}` : 'no issue it names'}, not for ISS-${n}: an approval holds for its own issue only; ${again}`
  if (approval.plan_id !== plan.id) return `the approval recorded with ${plan.id} was given for ${approval.plan_id ?? 'another plan'}: ${again}`
  switch (approval.via) {
    case 'comment':
      return confirmComment(session, n, approval, again)
    case 'workflow':
      return approval.run !== undefined && approval.run === session.ctx.runUrl
        ? null
        : `${plan.id} was approved by the \`command\` input of another workflow run (${approval.run ?? 'unnamed'}), which this run cannot confirm: ${again}`
    case 'auto-approve':
      return session.inputs['auto-approve'] && analysePlan(plan).gate === 'pass'
        ? null
        : `${plan.id} was approved by auto-approve, which this run ${session.inputs['auto-approve'] ? 'gives only to a plan that passes its gate' : 'does not allow'}: ${again}`
    default:
      return `${plan.id}'s approval names no event GitHub can confirm (the CLI's, an older version's, or one written into the state branch): ${again}`
  }
}

async function confirmComment(session: Session, n: number, approval: Approval, again: string): Promise<string | null> {
  const { client, ctx, inputs } = session
  const id = approval.comment_id
  if (!id) return `the approval names no comment: ${again}`
  let comment
  try {
    ;({ data: comment } = await client.rest.issues.getComment({ ...ctx.repo, comment_id: id }))
  } catch (error) {
    if ((error as { status?: number }).status !== 404) throw error
    return `the comment that approved it (${id}) no longer exists: ${again}`
  }
  const author = comment.user?.login
  if (author !== approval.approved_by) return `the approval names @${approval.approved_by}, but comment ${id} is by ${author ? `@${author}` : 'nobody GitHub names'}: ${again}`
  const line = parseCommandLine(comment.body ?? '', inputs['command-prefix'])
  if (line.kind !== 'command' || line.command !== 'approve') return `comment ${id} does not say \`${inputs['command-prefix']} approve\`: ${again}`
  const named = line.args[0]?.replace(/^sha256:/i, '').replace(/…$/, '').toLowerCase()
  if (named && !approval.plan_hash.startsWith(`sha256:${named}`)) return `comment ${id} approved sha256:${named}, not the plan's ${approval.plan_hash}: ${again}`
  // A comment elsewhere approves this issue only by naming this plan's hash.
  const on = Number(/\/issues\/(\d+)$/.exec(comment.issue_url)?.[1])
  if (on !== n && (!named || on !== approval.comment_on)) return `comment ${id} is on #${on}, not on ISS-${n}: ${again}`
  const verdict = await checkPermission(client, ctx.repo, { login: author, type: comment.user?.type ?? 'User' }, inputs['min-permission'])
  if (!verdict.allowed) return `the approval by @${author} no longer holds: ${verdict.reason}; ${again}`
  return null
}
