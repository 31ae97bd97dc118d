/**
 * `@github/local-action`, the runner GitHub publishes for running an action on one's own machine, runs Converge:
 * it imports `src/main.ts`, calls its `run()` with its own `@actions/core` and `@actions/github` in place of the
 * real ones, and the action plans an issue against the API emulator as it does on a runner.
 */
import { readFileSync } from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SolutionSchema } from '../../src/model/index.js'
import { planHash } from '../../src/plan/hash.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { issueLabeledEvent, workflowDispatchEvent } from '../support/events.js'
import { disposeRuns, runAction } from '../support/runner.js'
import { auditAfterEach } from '../support/state-audit.js'

const DEMO_ISSUE = readFileSync(new URL('../../examples/demo/issue.md', import.meta.url), 'utf8')
  .replace(/^---[\s\S]*?---\n/, '')
  .replace(/^# .*\n/, '')
  .trim()
const BRANCH = 'converge/state'
const TIMEOUT_MS = 120_000

/** The row of an output in the table local-action prints after the run (under "Action Outputs"): `│ 0 │ 'status' │ 'planned' │`. */
const printedOutput = (stdout: string, name: string) =>
  new RegExp(`│\\s*'${name}'\\s*│\\s*'([^']*)'\\s*│`).exec(stdout.slice(stdout.indexOf('Action Outputs')))?.[1]

describe('@github/local-action runs src/main.ts against the API emulator', () => {
  let gh: Emulator
  beforeAll(async () => {
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n' } })
    gh.seed.user({ login: 'alice' })
    gh.seed.permission('alice', 'write')
    gh.seed.issue({ number: 42, title: 'Accent-safe slugs and a truncate helper', body: DEMO_ISSUE, labels: ['converge:plan'], user: 'alice' })
  })
  afterEach(disposeRuns)
  auditAfterEach('local-action', () => gh)
  afterAll(async () => {
    try { gh.expectNoViolations() } finally { await gh.close() }
  })

  it('plans on the converge:plan label: the plan is on the state branch, the comment and check run posted, the outputs set', async () => {
    const run = await runAction({ gh, event: issueLabeledEvent({ gh, issue: 42, label: 'converge:plan', sender: 'alice' }), via: 'local-action', timeoutMs: TIMEOUT_MS })
    expect(run.stdout, run.stderr).toContain('Running Action')
    expect(run.errors).toEqual([])
    const plan = SolutionSchema.parse(JSON.parse((await gh.state.readFile(BRANCH, '.converge/issues/42/plan.json'))!))
    expect(printedOutput(run.stdout, 'status')).toBe('planned')
    expect(printedOutput(run.stdout, 'plan-hash')).toBe(planHash(plan))
    expect(printedOutput(run.stdout, 'tasks-total')).toBe('4')
    expect(gh.state.comments(42).map((c) => c.body)).toEqual([expect.stringContaining('### Converge · ISS-42 · planned')])
    expect(gh.state.checkRuns()).toEqual([expect.objectContaining({ name: 'converge / ISS-42', conclusion: 'action_required' })])
    expect(run.summary).toContain('### Converge · ISS-42 · planned')
  }, TIMEOUT_MS)

  it('a misconfigured input fails the run with the input named', async () => {
    const run = await runAction({ gh, event: workflowDispatchEvent({ gh, sender: 'alice' }), inputs: { command: 'frob' }, via: 'local-action', timeoutMs: TIMEOUT_MS })
    expect(run.errors).toEqual([expect.stringMatching(/^Converge: input command: "frob" is not a Converge command/)])
  }, TIMEOUT_MS)
})
