/**
 * Approvals that a push to the state branch cannot make up. `plan.json` on the state branch is writable by
 * anyone who can push there, so the approval it records is only a claim: before a workflow run executes, the
 * claim is checked against what GitHub itself says — the approving comment exists, is by the approver, is an
 * `approve` of this plan (its hash, when it names one), on this issue, and the approver still has the permission
 * to approve. An approval is valid for the issue and the plan it was given on only.
 */
import { parseCommandLine } from '../model/commands.js'
import type { Approval, Solution } from '../model/index.js'
import { analysePlan } from '../plan/analyse.js'
import { planHash } from '../plan/hash.js'
import type { ApprovalEvent } from '../pipeline/approve.js'
import { ownCommentsWith, postComment, readComment } from '../github/comments.js'
import { approvedHashArgument } from '../pipeline/approve.js'
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
      return confirmWorkflow(session, plan, approval, again)
    case 'auto-approve':
      return session.inputs['auto-approve'] && analysePlan(plan).gate === 'pass'
        ? null
        : `${plan.id} was approved by auto-approve, which this run ${session.inputs['auto-approve'] ? 'gives only to a plan that passes its gate' : 'does not allow'}: ${again}`
    default:
      return `${plan.id}'s approval names no event GitHub can confirm (the CLI's, an older version's, or one written into the state branch): ${again}`
  }
}

/** The hidden line of Converge's receipt for an approving comment: the full hash that comment approved. */
export function receiptMarker(commentId: number, hash: string): string {
  return `<!-- converge:approval comment=${commentId} ${hash} -->`
}

/**
 * After an approving comment that does not name the full hash (none, or a prefix of it): Converge's own comment
 * recording the hash it bound, on the issue the approving comment is on. GitHub keeps it where a push to the
 * state branch cannot change it, and an edit shows; at execute time it is what a hashless approval is held to.
 */
export async function postApprovalReceipt(session: Session, route: Extract<Route, { kind: 'command' }>, planId: string, hash: string): Promise<void> {
  if (route.source !== 'comment' || !route.commentId) return
  const named = approvedHashArgument(route.args)
  if ('hash' in named && named.hash?.length === FULL_HASH_LENGTH) return
  await postComment(session.client, session.ctx.repo, route.target.number, `${receiptMarker(route.commentId, hash)}\nApproval recorded: comment ${route.commentId} by @${route.actor.login} approved ${planId} as \`${hash}\`. Its commands run only while the plan has this hash.`)
}

const FULL_HASH_LENGTH = 'sha256:'.length + 64

/**
 * The approving comment as GitHub has it now, held to the rule it was accepted under: unedited since it was made,
 * by the approver, an \`approve\` whose argument the command accepts (a comment refused then never counts later),
 * naming the full hash, or else confirmed by Converge's own unedited receipt of the full hash; and the approver
 * has the permission now.
 */
async function confirmComment(session: Session, n: number, approval: Approval, again: string): Promise<string | null> {
  const { client, ctx, inputs } = session
  const id = approval.comment_id
  if (!id) return `the approval names no comment: ${again}`
  const comment = await readComment(client, ctx.repo, id)
  if (!comment) return `the comment that approved it (${id}) no longer exists: ${again}`
  const author = comment.author?.login
  if (author !== approval.approved_by) return `the approval names @${approval.approved_by}, but comment ${id} is by ${author ? `@${author}` : 'nobody GitHub names'}: ${again}`
  if (comment.edited) return `comment ${id} was edited after it was made: an edited comment approves nothing, whoever edited it; ${again}`
  const line = parseCommandLine(comment.body, inputs['command-prefix'])
  if (line.kind !== 'command' || line.command !== 'approve') return `comment ${id} does not say \`${inputs['command-prefix']} approve\`: ${again}`
  const named = approvedHashArgument(line.args)
  if ('error' in named) return `comment ${id} was refused when it was made (${named.error}), so it approves nothing now: ${again}`
  if (named.hash && !approval.plan_hash.startsWith(named.hash)) return `comment ${id} approved ${named.hash}, not the plan's ${approval.plan_hash}: ${again}`
  // A comment elsewhere approves this issue only by naming this plan's hash.
  if (comment.on !== n && (!named.hash || comment.on !== approval.comment_on)) return `comment ${id} is on #${comment.on}, not on ISS-${n}: ${again}`
  if (named.hash?.length !== FULL_HASH_LENGTH) {
    const receipts = await ownCommentsWith(client, ctx.repo, comment.on, receiptMarker(id, approval.plan_hash))
    if (!receipts.some((r) => !r.edited && Date.parse(r.createdAt) >= Date.parse(comment.createdAt)))
      return `comment ${id} names ${named.hash ? `only ${named.hash}…` : 'no hash'}, and Converge recorded no approval of ${approval.plan_hash} for it on GitHub: the plan it approved is not this one; ${again}`
  }
  const verdict = await checkPermission(client, ctx.repo, { login: author, type: comment.author?.type ?? 'User' }, inputs['min-permission'])
  if (!verdict.allowed) return `the approval by @${author} no longer holds: ${verdict.reason}; ${again}`
  return null
}

/**
 * An approval by the \`command\` input of a workflow run holds in that run only, and only when GitHub's record of the
 * run — its event, not the state branch — shows a \`workflow_dispatch\` by the approver whose inputs name the full
 * hash, and the approver has the permission now. GitHub's API does not give another run's inputs.
 */
async function confirmWorkflow(session: Session, plan: Solution, approval: Approval, again: string): Promise<string | null> {
  const { client, ctx, inputs } = session
  if (approval.run === undefined || approval.run !== ctx.runUrl)
    return `${plan.id} was approved by the \`command\` input of another workflow run (${approval.run ?? 'unnamed'}), whose inputs GitHub does not give this run: ${again}`
  const payload = ctx.payload as { inputs?: Record<string, unknown>; sender?: { login?: string; type?: string } }
  const given = ctx.eventName === 'workflow_dispatch' ? Object.values(payload.inputs ?? {}).filter((v): v is string => typeof v === 'string') : []
  const digits = approval.plan_hash.slice('sha256:'.length)
  if (!given.some((v) => v.toLowerCase().includes(digits)))
    return `${plan.id} was approved in this run, but this run's inputs (${ctx.eventName || 'no event'}) do not name its full hash ${approval.plan_hash}: ${again}`
  const sender = payload.sender?.login
  if (!sender || sender !== approval.approved_by) return `the approval names @${approval.approved_by}, but this run was started by ${sender ? `@${sender}` : 'nobody GitHub names'}: ${again}`
  const verdict = await checkPermission(client, ctx.repo, { login: sender, type: payload.sender?.type ?? 'User' }, inputs['min-permission'])
  if (!verdict.allowed) return `the approval by @${sender} no longer holds: ${verdict.reason}; ${again}`
  return null
}
