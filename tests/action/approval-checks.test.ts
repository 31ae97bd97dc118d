/**
 * The permission check and the confirmation of a recorded approval (src/action/permissions.ts,
 * src/action/approval-event.ts), in-process against the API emulator: who may run a command that changes anything,
 * and when an approval read from the state branch holds. The end-to-end suites (tests/security, tests/e2e) try the
 * same through dist/index.js; these are the cases one at a time, close enough for the mutation run to see them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { approvalEvent, autoApproval, receiptMarker, unconfirmedApproval } from '../../src/action/approval-event.js'
import { checkPermission } from '../../src/action/permissions.js'
import type { Session } from '../../src/action/session.js'
import type { GitHubClient } from '../../src/github/client.js'
import type { Approval, Solution } from '../../src/model/index.js'
import { analysePlan } from '../../src/plan/analyse.js'
import { planHash } from '../../src/plan/hash.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { demoSolution } from '../report/fixtures.js'
import { actionSession } from './session.js'

const N = 42
const RUN_URL = 'https://github.com/octo-org/demo/actions/runs/7'

let gh: Emulator
let sessions: Array<{ dispose(): Promise<void> }> = []
const session = async (inputs: Record<string, string> = {}): Promise<Session> => {
  const s = await actionSession(gh, { inputs })
  sessions.push(s)
  return { ...s, ctx: { ...s.ctx, runUrl: RUN_URL } }
}

beforeEach(async () => {
  gh = await startEmulator({ owner: 'octo-org', repo: 'demo' })
  await gh.seed.commit({ files: { 'README.md': '# demo\n' } })
  gh.seed.user({ login: 'alice' })
  gh.seed.permission('alice', 'write')
  gh.seed.issue({ number: N, title: 'Slugs and previews', body: 'Accented titles break slugs.' })
  gh.seed.issue({ number: 43, title: 'Another issue', body: 'Something else.' })
})

afterEach(async () => {
  for (const s of sessions) await s.dispose()
  sessions = []
  gh.expectNoViolations()
  await gh.close()
})

describe('checkPermission', () => {
  const check = async (login: string, required: 'read' | 'triage' | 'write' | 'maintain' | 'admin', type = 'User') => {
    const s = await session()
    return checkPermission(s.client, s.ctx.repo, { login, type }, required)
  }

  it('allows a collaborator whose role is at least the one required, and says which role it is', async () => {
    for (const role of ['read', 'triage', 'write', 'maintain', 'admin'] as const) gh.seed.permission(`${role}-user`, role)
    expect(await check('write-user', 'write')).toEqual({ allowed: true, permission: 'write' })
    expect(await check('admin-user', 'write')).toEqual({ allowed: true, permission: 'admin' })
    expect(await check('maintain-user', 'maintain')).toEqual({ allowed: true, permission: 'maintain' })
    // role_name tells triage from read, which the legacy `permission` field calls both "read".
    expect(await check('triage-user', 'triage')).toEqual({ allowed: true, permission: 'triage' })
    expect(await check('read-user', 'read')).toEqual({ allowed: true, permission: 'read' })
  })

  it('refuses a lower role, naming the actor, its role and the one required', async () => {
    for (const role of ['read', 'triage', 'write', 'maintain'] as const) gh.seed.permission(`${role}-user`, role)
    expect(await check('triage-user', 'write')).toEqual({ allowed: false, reason: '@triage-user has triage permission; this command needs write' })
    expect(await check('read-user', 'triage')).toEqual({ allowed: false, reason: '@read-user has read permission; this command needs triage' })
    expect(await check('write-user', 'maintain')).toEqual({ allowed: false, reason: '@write-user has write permission; this command needs maintain' })
    expect(await check('maintain-user', 'admin')).toEqual({ allowed: false, reason: '@maintain-user has maintain permission; this command needs admin' })
  })

  it('refuses someone who is no collaborator (GitHub answers 404) as having no permission', async () => {
    expect(await check('stranger', 'read')).toEqual({ allowed: false, reason: '@stranger has none permission; this command needs read' })
  })

  it('refuses a bot account whatever its role', async () => {
    gh.seed.user({ login: 'helper', type: 'Bot' })
    gh.seed.permission('helper', 'admin')
    expect(await check('helper', 'read', 'Bot')).toEqual({ allowed: false, reason: 'helper is a bot account; Converge takes commands from people' })
  })

  /** A client whose permission endpoint answers `answer` (or throws it). */
  const answering = (answer: { role_name?: string; permission: string } | Error) =>
    ({
      rest: {
        repos: {
          getCollaboratorPermissionLevel: async () => {
            if (answer instanceof Error) throw answer
            return { data: answer }
          },
        },
      },
    }) as unknown as GitHubClient
  const repo = { owner: 'octo-org', repo: 'demo' }
  const bob = { login: 'bob', type: 'User' }

  it('reads a custom role by its base permission, and an unknown permission as none', async () => {
    expect(await checkPermission(answering({ role_name: 'security-reviewer', permission: 'write' }), repo, bob, 'write')).toEqual({ allowed: true, permission: 'write' })
    expect(await checkPermission(answering({ permission: 'admin' }), repo, bob, 'admin')).toEqual({ allowed: true, permission: 'admin' })
    expect(await checkPermission(answering({ role_name: 'custom', permission: 'owner-ish' }), repo, bob, 'read'))
      .toEqual({ allowed: false, reason: '@bob has none permission; this command needs read' })
  })

  it('passes on an error other than 404: an outage is not a refusal', async () => {
    const outage = Object.assign(new Error('Server Error'), { status: 500 })
    await expect(checkPermission(answering(outage), repo, bob, 'read')).rejects.toBe(outage)
  })
})

describe('approvalEvent and autoApproval', () => {
  it('names the approving comment and its issue, or this workflow run', async () => {
    const s = await session()
    const target = { kind: 'issue' as const, number: N }
    const actor = { login: 'alice', type: 'User' }
    expect(approvalEvent(s, { kind: 'command', command: 'approve', args: [], source: 'comment', commentId: 99, target, actor }))
      .toEqual({ via: 'comment', comment_id: 99, comment_on: N })
    expect(approvalEvent(s, { kind: 'command', command: 'approve', args: [], source: 'input', target, actor })).toEqual({ via: 'workflow', run: RUN_URL })
    expect(autoApproval(s)).toEqual({ via: 'auto-approve', run: RUN_URL })
    const noRun = { ...s, ctx: { ...s.ctx, runUrl: undefined } } as unknown as Session
    expect(approvalEvent(noRun, { kind: 'command', command: 'approve', args: [], source: 'input', target, actor })).toEqual({ via: 'workflow' })
    expect(autoApproval(noRun)).toEqual({ via: 'auto-approve' })
  })
})

describe('unconfirmedApproval', () => {
  const plan = (): Solution => demoSolution()
  /** `solution` with an approval of its current content, as recorded by `approved_by`. */
  const withApproval = (solution: Solution, approval: Partial<Approval>): Solution => ({
    ...solution,
    approval: { plan_hash: planHash(solution), approved_by: 'alice', approved_at: '2025-06-01T09:02:11Z', issue: N, plan_id: solution.id, ...approval },
  })
  const hashOf = (solution: Solution) => planHash(solution).slice('sha256:'.length)

  it('has nothing to confirm without a plan, an approval, or with one of other content (the gate says so)', async () => {
    const s = await session()
    expect(await unconfirmedApproval(s, N, undefined)).toBeNull()
    expect(await unconfirmedApproval(s, N, plan())).toBeNull()
    const stale = withApproval(plan(), { via: 'comment', comment_id: 1 })
    expect(await unconfirmedApproval(s, N, { ...stale, description: 'edited after the approval' })).toBeNull()
  })

  it('holds an approval for its own issue and plan only', async () => {
    const s = await session()
    const approved = withApproval(plan(), { via: 'workflow', run: RUN_URL })
    // The control: a comment naming the full hash holds for its issue and plan.
    const full = gh.seed.comment({ issue: N, body: `/converge approve ${planHash(plan())}`, user: 'alice' })
    expect(await unconfirmedApproval(s, N, withApproval(plan(), { via: 'comment', comment_id: full.id, comment_on: N }))).toBeNull()
    expect(await unconfirmedApproval(s, 43, approved)).toMatch(/^SOL-ISS-42-1 was approved for ISS-42, not for ISS-43: an approval holds for its own issue only; comment `\/converge approve sha256:[0-9a-f]{12}` to approve it$/)
    expect(await unconfirmedApproval(s, N, withApproval(plan(), { via: 'workflow', run: RUN_URL, issue: 43 }))).toMatch(/was approved for ISS-43, not for ISS-42/)
    expect(await unconfirmedApproval(s, N, withApproval(plan(), { via: 'workflow', run: RUN_URL, issue: undefined }))).toMatch(/was approved for no issue it names, not for ISS-42/)
    expect(await unconfirmedApproval(s, N, withApproval(plan(), { via: 'workflow', run: RUN_URL, plan_id: 'SOL-ISS-42-0' })))
      .toMatch(/^the approval recorded with SOL-ISS-42-1 was given for SOL-ISS-42-0: comment/)
    expect(await unconfirmedApproval(s, N, withApproval(plan(), { via: 'workflow', run: RUN_URL, plan_id: undefined }))).toMatch(/was given for another plan/)
  })

  it('confirms a workflow approval in the run that gave it only', async () => {
    const s = await session()
    expect(await unconfirmedApproval(s, N, withApproval(plan(), { via: 'workflow', run: `${RUN_URL}0` })))
      .toMatch(/^SOL-ISS-42-1 was approved by the `command` input of another workflow run \(https:\/\/github\.com\/octo-org\/demo\/actions\/runs\/70\), whose inputs GitHub does not give this run/)
    // In the run that gave it, only when GitHub's record of the run (its event's inputs) names the full hash.
    expect(await unconfirmedApproval(s, N, withApproval(plan(), { via: 'workflow', run: RUN_URL })))
      .toMatch(/^SOL-ISS-42-1 was approved in this run, but this run's inputs \(.*\) do not name its full hash sha256:/)
    expect(await unconfirmedApproval(s, N, withApproval(plan(), { via: 'workflow' }))).toMatch(/another workflow run \(unnamed\)/)
  })

  it('confirms an auto-approval only where auto-approve is on and the plan passes its gate', async () => {
    const approved = withApproval(plan(), { via: 'auto-approve', run: RUN_URL })
    expect(analysePlan(approved).gate).toBe('pass')
    expect(await unconfirmedApproval(await session({ 'auto-approve': 'true' }), N, approved)).toBeNull()
    expect(await unconfirmedApproval(await session(), N, approved)).toMatch(/was approved by auto-approve, which this run does not allow: comment/)
    const cyclic = demoSolution()
    cyclic.tasks[0]!.depends_on = ['T5']
    const cyclicApproved = withApproval(cyclic, { via: 'auto-approve', run: RUN_URL })
    expect(analysePlan(cyclicApproved).gate).not.toBe('pass')
    expect(await unconfirmedApproval(await session({ 'auto-approve': 'true' }), N, cyclicApproved))
      .toMatch(/was approved by auto-approve, which this run gives only to a plan that passes its gate: comment/)
  })

  it('confirms no approval whose event GitHub cannot show (the CLI’s, or none named)', async () => {
    const s = await session()
    for (const via of ['cli', undefined] as const)
      expect(await unconfirmedApproval(s, N, withApproval(plan(), { via }))).toMatch(/^SOL-ISS-42-1's approval names no event GitHub can confirm/)
  })

  describe('an approval by comment', () => {
    const byComment = (extra: Partial<Approval> = {}) => withApproval(plan(), { via: 'comment', comment_on: N, ...extra })

    it('holds when the comment exists, is the approver’s `approve` on this issue, and the approver still may approve', async () => {
      const s = await session()
      const full = gh.seed.comment({ issue: N, body: `/converge approve ${planHash(plan())}`, user: 'alice' })
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: full.id }))).toBeNull()
      const upper = gh.seed.comment({ issue: N, body: `/converge approve ${hashOf(plan()).toUpperCase()}`, user: 'alice' })
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: upper.id }))).toBeNull()
      // A hashless or prefix approval holds with Converge's receipt of the full hash it approved, and only with it.
      const bare = gh.seed.comment({ issue: N, body: '/converge approve', user: 'alice' })
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: bare.id }))).toMatch(new RegExp(`^comment ${bare.id} names no hash, and Converge recorded no approval`))
      gh.seed.comment({ issue: N, body: `${receiptMarker(bare.id, planHash(plan()))}\nApproval recorded`, user: 'github-actions[bot]' })
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: bare.id }))).toBeNull()
      const named = gh.seed.comment({ issue: N, body: `/converge approve sha256:${hashOf(plan()).slice(0, 12)}…`, user: 'alice' })
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: named.id }))).toMatch(new RegExp(`^comment ${named.id} names only sha256:`))
    })

    it('does not hold without a comment, or with one deleted since', async () => {
      const s = await session()
      expect(await unconfirmedApproval(s, N, byComment())).toMatch(/^the approval names no comment: comment `\/converge approve/)
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: 987_654 }))).toMatch(/^the comment that approved it \(987654\) no longer exists: /)
    })

    it('does not hold for a comment by someone else, or one that does not approve', async () => {
      gh.seed.user({ login: 'mallory' })
      gh.seed.permission('mallory', 'read')
      const s = await session()
      const mallorys = gh.seed.comment({ issue: N, body: '/converge approve', user: 'mallory' })
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: mallorys.id })))
        .toBe(`the approval names @alice, but comment ${mallorys.id} is by @mallory: comment \`/converge approve ${planHash(plan()).slice(0, 19)}\` to approve it`)
      const chat = gh.seed.comment({ issue: N, body: 'looks good to me', user: 'alice' })
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: chat.id }))).toMatch(new RegExp(`^comment ${chat.id} does not say \`/converge approve\`: `))
      const stop = gh.seed.comment({ issue: N, body: '/converge stop', user: 'alice' })
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: stop.id }))).toMatch(new RegExp(`^comment ${stop.id} does not say`))
    })

    it('does not hold for a comment that approved another hash', async () => {
      const s = await session()
      const other = gh.seed.comment({ issue: N, body: '/converge approve sha256:0123456789ab', user: 'alice' })
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: other.id })))
        .toMatch(new RegExp(`^comment ${other.id} approved sha256:0123456789ab, not the plan's sha256:${hashOf(plan())}: `))
    })

    it('holds for a comment on another issue only when it names this plan’s hash and the approval says where it is', async () => {
      const s = await session()
      const elsewhere = gh.seed.comment({ issue: 43, body: '/converge approve', user: 'alice' })
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: elsewhere.id, comment_on: 43 }))).toMatch(new RegExp(`^comment ${elsewhere.id} is on #43, not on ISS-42: `))
      const naming = gh.seed.comment({ issue: 43, body: `/converge approve ${hashOf(plan())}`, user: 'alice' })
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: naming.id, comment_on: 43 }))).toBeNull()
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: naming.id, comment_on: N }))).toMatch(new RegExp(`^comment ${naming.id} is on #43, not on ISS-42: `))
    })

    it('does not hold once the approver lost the permission to approve', async () => {
      const s = await session()
      const comment = gh.seed.comment({ issue: N, body: `/converge approve ${planHash(plan())}`, user: 'alice' })
      gh.seed.permission('alice', 'read')
      expect(await unconfirmedApproval(s, N, byComment({ comment_id: comment.id })))
        .toMatch(/^the approval by @alice no longer holds: @alice has read permission; this command needs write; comment `\/converge approve/)
    })
  })
})
