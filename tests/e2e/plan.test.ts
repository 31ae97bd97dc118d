import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IssueStateSchema, SolutionSchema } from '../../src/model/index.js'
import { planHash } from '../../src/plan/hash.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent, workflowDispatchEvent } from '../support/events.js'
import { disposeRuns, runAction } from '../support/runner.js'
import { auditAfterEach } from '../support/state-audit.js'

const DEMO_ISSUE = readFileSync(new URL('../../examples/demo/issue.md', import.meta.url), 'utf8')
  .replace(/^---[\s\S]*?---\n/, '')
  .replace(/^# .*\n/, '')
  .trim()
const MARKER = '<!-- converge:ISS-42 -->'
const BRANCH = 'converge/state'

describe('the action plans issues (dist/index.js against the API emulator)', () => {
  let gh: Emulator
  beforeEach(async () => {
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n' } })
    gh.seed.user({ login: 'alice' })
    gh.seed.permission('alice', 'write')
    gh.seed.issue({ number: 42, title: 'Accent-safe slugs and a truncate helper', body: DEMO_ISSUE, labels: ['converge:plan'], user: 'alice' })
  })
  afterEach(async () => {
    await disposeRuns()
    try { gh.expectNoViolations() } finally { await gh.close() }
  })
  auditAfterEach('plan', () => gh)

  const stateFile = async (path: string) => gh.state.readFile(BRANCH, path)
  const stickyComments = () => gh.state.comments(42).filter((c) => c.body.startsWith(MARKER))

  it('plans on the converge:plan label: state committed, sticky comment posted, outputs set, in at most 8 requests', async () => {
    const run = await runAction({ gh, event: issueLabeledEvent({ gh, issue: 42, label: 'converge:plan', sender: 'alice' }) })
    expect(run.errors).toEqual([])
    expect(run.exitCode).toBe(0)

    const plan = SolutionSchema.parse(JSON.parse((await stateFile('.converge/issues/42/plan.json'))!))
    expect(run.outputs).toEqual({
      status: 'planned',
      'issue-id': 'ISS-42',
      'solution-id': 'SOL-ISS-42-1',
      'plan-path': '.converge/issues/42/plan.json',
      'plan-hash': planHash(plan),
      'quality-gate': 'pass',
      'tasks-total': '4',
      'tasks-completed': '0',
      'tasks-failed': '0',
      'tasks-proven': '0',
      'tasks-unproven': '0',
      'pull-request-number': '',
      'check-run-id': String(gh.state.checkRuns()[0]!.id),
      'comment-id': String(stickyComments()[0]!.id),
      matrix: '',
      'agent-cost-usd': '',
      'agent-tokens': '',
      'agent-turns': '',
    })
    expect(await gh.state.listFiles(BRANCH)).toEqual([
      '.converge/issues/42/events.md', '.converge/issues/42/execution.md', '.converge/issues/42/issue.json',
      '.converge/issues/42/plan.json', '.converge/state.json',
    ])
    expect((await gh.state.commits(BRANCH)).map((c) => c.message.split('\n')[0])).toEqual(['ISS-42: planned SOL-ISS-42-1 (4 tasks, gate pass)'])

    const [comment] = stickyComments()
    expect(comment!.body).toContain('### Converge · ISS-42 · planned')
    expect(comment!.body).toContain('quality **100/100**, gate **pass**')
    expect(comment!.body).toContain('| T3 | Create test/truncate.test.js and extend test/slugify.test.js with accented titles | 2 |')
    expect(comment!.body).toContain('comment `/converge approve`')
    expect(run.summary).toContain('### Converge · ISS-42 · planned')
    expect(gh.state.checkRuns()).toEqual([
      expect.objectContaining({ name: 'converge / ISS-42', status: 'completed', conclusion: 'action_required', headSha: await gh.state.branchHead('main') }),
    ])
    expect(comment!.body).toContain('[check run](')
    expect(gh.requests.length).toBeLessThanOrEqual(8)
  })

  it('makes no new commit and no second comment when run again on the unchanged issue', async () => {
    const event = issueLabeledEvent({ gh, issue: 42, label: 'converge:plan', sender: 'alice' })
    await runAction({ gh, event })
    const commits = (await gh.state.commits(BRANCH)).length
    const before = stickyComments()
    const again = await runAction({ gh, event })
    expect(again.outputs.status).toBe('planned')
    expect((await gh.state.commits(BRANCH)).length).toBe(commits)
    expect(stickyComments()).toEqual(before)
    expect(gh.state.comments(42)).toHaveLength(1)
  })

  it('plans on a /converge plan comment, and acknowledges it with a reaction', async () => {
    const event = issueCommentEvent({ gh, issue: 42, body: '/converge plan', sender: 'alice' })
    const run = await runAction({ gh, event })
    expect(run.outputs.status).toBe('planned')
    expect(gh.state.reactions({ type: 'comment', id: event.payload.comment.id })).toEqual([
      expect.objectContaining({ content: 'eyes' }),
    ])
    expect(stickyComments()).toHaveLength(1)
  })

  it('plans the issue a pull request closes, from a comment on the pull request', async () => {
    await gh.seed.branch('feature/slugs')
    await gh.seed.pullRequest({ number: 50, title: 'Accent-safe slugs', body: 'Work in progress.\n\nCloses #42', head: { ref: 'feature/slugs' }, base: { ref: 'main' } })
    const run = await runAction({ gh, event: issueCommentEvent({ gh, issue: 50, body: '/converge plan', sender: 'alice' }) })
    expect(run.outputs).toMatchObject({ status: 'planned', 'issue-id': 'ISS-42' })
    expect(stickyComments()).toHaveLength(1)
  })

  it('answers on a pull request that closes no issue, and changes nothing', async () => {
    await gh.seed.branch('feature/other')
    await gh.seed.pullRequest({ number: 51, title: 'Unrelated', body: 'Refactoring.', head: { ref: 'feature/other' }, base: { ref: 'main' } })
    const run = await runAction({ gh, event: issueCommentEvent({ gh, issue: 51, body: '/converge plan', sender: 'alice' }) })
    expect(run.exitCode).toBe(0)
    expect(run.outputs.status).toBe('no-issue')
    expect(gh.state.comments(51).at(-1)!.body).toContain('Pull request #51 closes no issue')
    expect(await gh.state.branchHead(BRANCH)).toBeNull()
  })

  it('answers an unknown command with the list of commands', async () => {
    const run = await runAction({ gh, event: issueCommentEvent({ gh, issue: 42, body: '/converge deploy now', sender: 'alice' }) })
    expect(run.exitCode).toBe(0)
    expect(run.warnings).toEqual(['Unknown command "deploy": answered with the list of commands'])
    const reply = gh.state.comments(42).at(-1)!.body
    expect(reply).toContain('`/converge deploy` is not a Converge command')
    expect(reply).toContain('- `/converge approve`: approve the current plan')
    expect(await gh.state.branchHead(BRANCH)).toBeNull()
  })

  it.each([
    ['a user with read permission', { login: 'reader', type: 'User' as const }, 'read', '@reader has read permission; this command needs write'],
    ['a user named like a bot, checked as the user it is', { login: 'converge[bot]', type: 'User' as const }, 'read', '@converge[bot] has read permission; this command needs write'],
    ['a bot account, even with write permission', { login: 'helper-app[bot]', type: 'Bot' as const }, 'write', 'helper-app[bot] is a bot account; Converge takes commands from people'],
  ])('refuses %s with one short reply and changes nothing', async (_, user, permission, reason) => {
    gh.seed.user(user)
    gh.seed.permission(user.login, permission as 'read' | 'write')
    const run = await runAction({ gh, event: issueCommentEvent({ gh, issue: 42, body: '/converge plan', sender: user.login }) })
    expect(run.exitCode).toBe(0)
    expect(run.outputs.status).toBe('refused')
    const comments = gh.state.comments(42).filter((c) => c.author !== user.login)
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body).toBe(`Converge did not run \`/converge plan\`: ${reason}.`)
    expect(await gh.state.branchHead(BRANCH)).toBeNull()
    expect(gh.state.reactions()).toEqual([])
  })

  it('reports a malformed plan in the issue body with every error, committing only the failed issue state', async () => {
    gh.seed.issue({
      number: 43,
      title: 'Explicit plan with mistakes',
      labels: ['converge:plan'],
      body: 'Plan:\n\n```json\n' + JSON.stringify({
        description: 'Two tasks that wait for each other',
        tasks: [
          { id: 'T1', title: 'Add the parser', action: 'Add', depends_on: ['T2'] },
          { id: 'T2', title: 'Use the parser', action: 42, depends_on: ['T1'] },
        ],
      }, null, 2) + '\n```\n',
    })
    const run = await runAction({ gh, event: issueLabeledEvent({ gh, issue: 43, label: 'converge:plan', sender: 'alice' }) })
    expect(run.exitCode).toBe(0)
    expect(run.outputs).toMatchObject({ status: 'failed', 'quality-gate': 'fail', 'solution-id': '' })
    const comment = gh.state.comments(43)[0]!.body
    expect(comment).toContain('**The plan cannot be used**: 1 error.')
    expect(comment).toContain('| `tasks[1].action` | Expected string, got number 42')
    expect(await gh.state.listFiles(BRANCH)).toEqual(['.converge/issues/43/events.md', '.converge/issues/43/issue.json', '.converge/state.json'])
    const issue = IssueStateSchema.parse(JSON.parse((await stateFile('.converge/issues/43/issue.json'))!))
    expect(issue).toMatchObject({ status: 'failed', feedback: [expect.objectContaining({ source: 'validation' })] })
  })

  it('approves with the plan hash; an edited issue is re-planned without the approval', async () => {
    await runAction({ gh, event: issueLabeledEvent({ gh, issue: 42, label: 'converge:plan', sender: 'alice' }) })
    const approve = await runAction({ gh, event: issueCommentEvent({ gh, issue: 42, body: '/converge approve', sender: 'alice' }) })
    expect(approve.outputs.status).toBe('planned')
    const approved = SolutionSchema.parse(JSON.parse((await stateFile('.converge/issues/42/plan.json'))!))
    expect(approved.approval).toMatchObject({ approved_by: 'alice', plan_hash: planHash(approved) })
    expect(approve.outputs['plan-hash']).toBe(approved.approval!.plan_hash)
    expect(stickyComments()[0]!.body).toContain('approved by @\u200balice')

    await fetch(`${gh.url}/repos/octo-org/demo/issues/42`, {
      method: 'PATCH',
      headers: { authorization: `token ${gh.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: DEMO_ISSUE.replace('- [ ] T4: Document both helpers', '- [ ] T4: Document both helpers and their limits') }),
    })
    const replan = await runAction({ gh, event: workflowDispatchEvent({ gh, sender: 'alice' }), inputs: { command: 'plan', 'issue-number': '42' } })
    expect(replan.outputs['solution-id']).toBe('SOL-ISS-42-2')
    const replanned = SolutionSchema.parse(JSON.parse((await stateFile('.converge/issues/42/plan.json'))!))
    expect(replanned.approval).toBeUndefined()
  })

  it('pauses, resumes and stops, and reports status to anyone', async () => {
    await runAction({ gh, event: issueLabeledEvent({ gh, issue: 42, label: 'converge:plan', sender: 'alice' }) })
    expect((await runAction({ gh, event: issueCommentEvent({ gh, issue: 42, body: '/converge pause', sender: 'alice' }) })).outputs.status).toBe('paused')
    expect(stickyComments()[0]!.body).toContain('Paused by @\u200balice.')
    expect((await runAction({ gh, event: issueCommentEvent({ gh, issue: 42, body: '/converge resume', sender: 'alice' }) })).outputs.status).toBe('planned')
    expect((await runAction({ gh, event: issueCommentEvent({ gh, issue: 42, body: '/converge stop', sender: 'alice' }) })).outputs.status).toBe('failed')
    gh.seed.user({ login: 'visitor' })
    const status = await runAction({ gh, event: issueCommentEvent({ gh, issue: 42, body: '/converge status', sender: 'visitor' }) })
    expect(status.outputs.status).toBe('failed')
    expect(stickyComments()).toHaveLength(1)
  })

  it('answers /converge matrix on an issue without a plan with what to do first, and an empty matrix', async () => {
    const run = await runAction({ gh, event: issueCommentEvent({ gh, issue: 42, body: '/converge matrix', sender: 'alice' }) })
    expect(run.outputs).toMatchObject({ status: 'refused', matrix: '{"include":[]}' })
    expect(gh.state.comments(42).at(-1)!.body).toContain('ISS-42 has no plan yet')
  })

  it('fails with a message naming the request when GitHub keeps failing, and leaves the state as it was', async () => {
    gh.faults.inject({ kind: '500', times: 100, match: (r) => r.operationId === 'issues/create-comment' })
    const run = await runAction({ gh, event: issueLabeledEvent({ gh, issue: 42, label: 'converge:plan', sender: 'alice' }) })
    expect(run.exitCode).toBe(1)
    expect(run.errors).toEqual([expect.stringMatching(/^Converge: GitHub API POST \/repos\/octo-org\/demo\/issues\/42\/comments failed: 500/)])
    // The plan was committed before the comment failed: a rerun finds it and only posts the comment.
    gh.faults.clear()
    const commits = (await gh.state.commits(BRANCH)).length
    const rerun = await runAction({ gh, event: issueLabeledEvent({ gh, issue: 42, label: 'converge:plan', sender: 'alice' }) })
    expect(rerun.exitCode).toBe(0)
    expect((await gh.state.commits(BRANCH)).length).toBe(commits)
    expect(stickyComments()).toHaveLength(1)
  })

  it('says which issue does not exist', async () => {
    const run = await runAction({ gh, event: workflowDispatchEvent({ gh, sender: 'alice' }), inputs: { command: 'plan', 'issue-number': '999' } })
    expect(run.exitCode).toBe(1)
    expect(run.errors).toEqual(['Converge: Issue #999 was not found in octo-org/demo (or the token cannot read it)'])
    expect(await gh.state.branchHead(BRANCH)).toBeNull()
  })

  it('checks the permission of whoever triggered a command given as input, whatever the event', async () => {
    gh.seed.user({ login: 'reader' })
    gh.seed.permission('reader', 'read')
    const event = issueCommentEvent({ gh, issue: 42, body: 'please plan this', sender: 'reader' })
    const run = await runAction({ gh, event, inputs: { command: 'plan', 'issue-number': '42' } })
    expect(run.outputs.status).toBe('refused')
    expect(await gh.state.branchHead(BRANCH)).toBeNull()
  })
})
