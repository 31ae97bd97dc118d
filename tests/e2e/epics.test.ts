/**
 * Issue 16 as a runner runs it: dist/index.js with event payloads from @octokit/webhooks-examples against the
 * API emulator. An epic made of GitHub sub-issues, one of them blocked by another: the epic is recorded, not
 * planned; the blocked issue waits with a notice; publish-tasks mirrors an approved plan as sub-issues.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IssueStateSchema } from '../../src/model/index.js'
import { statePaths } from '../../src/model/state-layout.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent } from '../support/events.js'
import { disposeRuns, runAction } from '../support/runner.js'
import { routeIssueBody } from '../support/route-issue.js'
import { auditAfterEach } from '../support/state-audit.js'

const BRANCH = 'converge/state'

const plannable = (what: string, name: string) => routeIssueBody(what, name, { extension: 'js', command: 'node --version' })

describe('epics, sub-issues and dependencies (dist/index.js against the API emulator)', () => {
  let gh: Emulator
  beforeEach(async () => {
    gh = await startEmulator({ owner: 'octo-org', repo: 'health', files: { 'README.md': '# health\n' } })
    gh.seed.user({ login: 'alice' })
    gh.seed.permission('alice', 'write')
    gh.seed.issue({ number: 1, title: 'Health checks', body: 'Tracking the health checks.', labels: ['converge:plan'], user: 'alice' })
    gh.seed.issue({ number: 2, title: 'Health endpoint', body: plannable('Add a health endpoint', 'health'), labels: ['converge:plan'], user: 'alice' })
    gh.seed.issue({ number: 3, title: 'Readiness endpoint', body: plannable('Add a readiness endpoint', 'ready'), labels: ['converge:plan'], user: 'alice' })
    gh.seed.subIssue(1, 2)
    gh.seed.subIssue(1, 3)
    gh.seed.blockedBy(3, 2)
  })
  afterEach(async () => {
    await disposeRuns()
    try { gh.expectNoViolations() } finally { await gh.close() }
  })
  auditAfterEach('epics', () => gh)

  const label = (issue: number) => runAction({ gh, event: issueLabeledEvent({ gh, issue, label: 'converge:plan', sender: 'alice' }) })
  const comment = (issue: number, body: string, inputs: Record<string, string> = {}) =>
    runAction({ gh, event: issueCommentEvent({ gh, issue, body, sender: 'alice' }), inputs })
  const issueState = async (n: number) => IssueStateSchema.parse(JSON.parse((await gh.state.readFile(BRANCH, statePaths.issue(n)))!))

  it('records the epic from its sub-issues, plans each child, and holds the blocked one with a notice', async () => {
    const epic = await label(1)
    expect(epic.errors).toEqual([])
    expect(await issueState(1)).toMatchObject({ children: [2, 3], solution_id: null })
    expect(await gh.state.readFile(BRANCH, statePaths.plan(1))).toBeNull()
    expect(gh.state.comments(1).at(-1)!.body).toContain('| #3 | Readiness endpoint | not planned yet |')

    for (const n of [2, 3]) expect((await label(n)).outputs.status).toBe('planned')
    expect(await issueState(3)).toMatchObject({ parent: 1, blocked_by: [2] })

    await comment(3, '/converge approve')
    const blocked = await comment(3, '/converge execute')
    expect(blocked.exitCode).toBe(0)
    expect(blocked.errors).toEqual([])
    expect(blocked.notices.join('\n')).toContain('ISS-3 waits for #2 (planned): execute again when it is done.')
    const report = gh.state.comments(3).filter((c) => !c.body.startsWith('/converge') && !c.body.startsWith('<!-- converge:approval')).at(-1)!
    expect(report.body).toContain('ISS-3 waits for #2 (planned): execute again when it is done.')
    expect(gh.state.checkRuns().at(-1)).toMatchObject({ name: 'converge / ISS-3', conclusion: 'neutral' })
    expect(await gh.state.readFile(BRANCH, statePaths.execution(3))).toBeNull()
  })

  it('publish-tasks: sub-issues mirrors the approved plan: T2 blocked by T1, no duplicates on a second approve', async () => {
    await label(2)
    const approved = await comment(2, '/converge approve', { 'publish-tasks': 'sub-issues' })
    expect(approved.errors).toEqual([])
    const tasks = gh.state.subIssues(2).map((n) => gh.state.issue(n)!)
    expect(tasks.map((i) => i.title)).toEqual([expect.stringMatching(/^T1: Add src\/health\.js/), expect.stringMatching(/^T2: Register the route/)])
    expect(gh.state.blockedBy(tasks[1]!.number)).toEqual([tasks[0]!.number])
    await comment(2, '/converge approve', { 'publish-tasks': 'sub-issues' })
    expect(gh.state.subIssues(2)).toHaveLength(2)
  })
})
