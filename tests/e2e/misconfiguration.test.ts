/**
 * A workflow that sets Converge's inputs so that nothing can work fails its step, naming the input and what it
 * allows, before any request (through dist/index.js, as a runner runs it). A person's refusal stays a notice.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, workflowDispatchEvent } from '../support/events.js'
import { disposeRuns, runAction } from '../support/runner.js'
import { auditAfterEach } from '../support/state-audit.js'

describe('a misconfigured workflow fails its step (dist/index.js)', () => {
  let gh: Emulator
  beforeAll(async () => {
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n' } })
    gh.seed.issue({ title: 'An issue', body: 'Fix it.' })
  })
  afterEach(disposeRuns)
  auditAfterEach('misconfiguration', () => gh)
  afterAll(() => gh?.close())

  const dispatch = (inputs: Record<string, string>) => runAction({ gh, event: workflowDispatchEvent({ gh, sender: 'alice' }), inputs })

  it.each([
    [{ command: 'frob' }, /^Converge: input command: "frob" is not a Converge command; use one of plan, approve, execute/],
    [{ command: 'plan' }, /^Converge: input issue-number: command plan needs an issue, and a workflow_dispatch event names none: set issue-number$/],
    [{ command: 'execute-task', 'issue-number': '1' }, /^Converge: input command: execute-task needs a task id/],
  ])('%j: the step fails with the input named', async (inputs, message) => {
    const requestsBefore = gh.requests.length
    const run = await dispatch(inputs)
    expect(run.exitCode).toBe(1)
    expect(run.errors).toEqual([expect.stringMatching(message)])
    expect(run.notices).toEqual([])
    expect(gh.requests.length).toBe(requestsBefore)
  })

  it('an empty event name fails the step instead of "nothing to do ( is not an event …)"', async () => {
    const run = await runAction({ gh, event: workflowDispatchEvent({ gh, sender: 'alice' }), env: { GITHUB_EVENT_NAME: '' } })
    expect(run.exitCode).toBe(1)
    expect(run.errors).toEqual([expect.stringContaining('GITHUB_EVENT_NAME is not set')])
    expect(run.stdout).not.toContain('nothing to do ( is not')
  })

  it('a comment that is not a command stays a notice: the step succeeds', async () => {
    const run = await runAction({ gh, event: issueCommentEvent({ gh, issue: 1, body: 'Thanks, looks good', sender: 'alice' }) })
    expect(run.exitCode).toBe(0)
    expect(run.notices).toEqual([expect.stringContaining('nothing to do')])
  })
})
