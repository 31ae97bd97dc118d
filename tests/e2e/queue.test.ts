import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IssueStateSchema, RunStateSchema } from '../../src/model/index.js'
import { statePaths } from '../../src/model/state-layout.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent, workflowDispatchEvent } from '../support/events.js'
import { disposeRuns, runAction } from '../support/runner.js'
import { FIVE_ISSUES, planBody } from '../queue/support.js'
import { auditAfterEach } from '../support/state-audit.js'

const BRANCH = 'converge/state'

describe('the repository queue (dist/index.js against the API emulator)', () => {
  let gh: Emulator
  beforeEach(async () => {
    gh = await startEmulator({ owner: 'octo-org', repo: 'queue', files: { 'README.md': '# queue\n' } })
    gh.seed.user({ login: 'alice' })
    gh.seed.permission('alice', 'write')
    for (const spec of FIVE_ISSUES)
      gh.seed.issue({ number: spec.number, title: spec.title, body: planBody(spec), labels: ['converge:plan'], user: 'alice' })
  })
  afterEach(async () => {
    await disposeRuns()
    try { gh.expectNoViolations() } finally { await gh.close() }
  })
  auditAfterEach('queue', () => gh)

  const dispatch = (command: string) =>
    runAction({ gh, event: workflowDispatchEvent({ gh, sender: 'alice', inputs: { command } }), inputs: { command } })
  const commentCount = () => FIVE_ISSUES.reduce((sum, spec) => sum + gh.state.comments(spec.number).length, 0)

  it('plans five issues, queues them on sync in parallel and sequential groups, and explains the order in status', async () => {
    for (const spec of FIVE_ISSUES) {
      const planned = await runAction({ gh, event: issueLabeledEvent({ gh, issue: spec.number, label: 'converge:plan', sender: 'alice' }) })
      expect(planned.outputs.status).toBe('planned')
    }
    const approved = await runAction({ gh, event: issueCommentEvent({ gh, issue: 1, body: '/converge approve', sender: 'alice' }) })
    expect(approved.errors).toEqual([])

    // sync: one state commit queues all five (planned → queued).
    const commitsBefore = (await gh.state.commits(BRANCH)).length
    const synced = await dispatch('sync')
    expect(synced.errors).toEqual([])
    expect(synced.outputs.status).toBe('synced')
    const commits = await gh.state.commits(BRANCH)
    expect(commits).toHaveLength(commitsBefore + 1)
    expect(commits[0]!.message.split('\n')[0]).toBe('sync: 5 open issues (+0 new, 0 updated, -0 closed); queue: 5 solutions in 2 groups (5 newly queued, 0 left)')
    const run = RunStateSchema.parse(JSON.parse((await gh.state.readFile(BRANCH, statePaths.runState))!))
    expect(run.queue.map((i) => [i.item_id, i.issue_id, i.group, i.position, i.depends_on])).toEqual([
      ['S-1', 'ISS-1', 'S2', 1, []],
      ['S-2', 'ISS-2', 'P1', 1, []],
      ['S-3', 'ISS-3', 'S2', 2, ['S-1']],
      ['S-4', 'ISS-4', 'P1', 2, []],
      ['S-5', 'ISS-5', 'S2', 3, ['S-3']],
    ])
    for (const spec of FIVE_ISSUES) {
      expect(IssueStateSchema.parse(JSON.parse((await gh.state.readFile(BRANCH, statePaths.issue(spec.number)))!)).status).toBe('queued')
    }

    // status without an issue: the queue in the job summary; nothing posted, nothing committed.
    const comments = commentCount()
    const status = await dispatch('status')
    expect(status.exitCode).toBe(0)
    expect(status.errors).toEqual([])
    expect(status.warnings).toEqual([])
    expect(status.outputs).toMatchObject({ status: 'queued', 'issue-id': '', 'comment-id': '', 'check-run-id': '' })
    const summary = status.summary
    expect(summary).toContain('### Converge · queue')
    expect(summary).toContain('**5 solutions** in **2 groups** (1 parallel, 1 sequential)')
    expect(summary).toContain('| P1 | parallel | S-2 ∥ S-4 | — |')
    expect(summary).toContain('| S2 | sequential | S-1 → S-3 → S-5 | `src/a.ts`, `src/b.ts` |')
    expect(summary).toContain('| **S-1** (1/3) | #1 Validate tokens in auth | `SOL-ISS-1-1` | queued | approved | medium |')
    expect(summary).toContain('| **S-3** (2/3) | #3 Share the session type | `SOL-ISS-3-1` | queued | needs approval | medium | `src/a.ts`, `src/b.ts` | after S-1: both change src/a.ts (same priority medium: #1 before #3) |')
    expect(summary).toContain('| after S-3: both change src/b.ts (same priority medium: #3 before #5) |')
    expect(summary).toContain('| **S-2** | #2 Add a health endpoint | `SOL-ISS-2-1` | queued | needs approval | medium | `src/two.ts` | P1: changes no file another queued solution changes, so it runs alongside the rest of the group |')
    expect(summary).toContain('```mermaid')
    expect(commentCount()).toBe(comments)
    expect(await gh.state.commits(BRANCH)).toHaveLength(commitsBefore + 1)

    // A sync with nothing new is free and leaves the queue as it is.
    const again = await dispatch('sync')
    expect(again.outputs.status).toBe('synced')
    expect(again.summary).toContain('nothing changed since the last sync')
    expect(await gh.state.commits(BRANCH)).toHaveLength(commitsBefore + 1)
  })
})
