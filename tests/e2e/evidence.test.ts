/**
 * Proof, not a green light (SPEC §7 "Evidence", §8 conclusions), through dist/index.js against the API emulator:
 * each task's commands run before its executor (the baseline) and after it, and the check run is `success` only
 * when every task's evidence proves its change. Issue 24 reported the form of the first case: a plan whose check
 * (`test -f package.json`) passes before any work converged green with an executor that did nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ExecutionRecordSchema } from '../../src/model/index.js'
import { issueBodyWithPlan } from '../support/answer-plans.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { issueLabeledEvent } from '../support/events.js'
import { disposeRuns, runAction } from '../support/runner.js'
import { auditAfterEach } from '../support/state-audit.js'

const STATE = 'converge/state'

/** Appends a line to each declared file, unless the task's description asks it to do nothing. */
const EXECUTOR = `
const fs = require('node:fs')
const task = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))
if (!task.description.includes('nothing')) for (const file of task.files) fs.appendFileSync(file.path, '// changed\\n')
`

/** A task on one existing file, checked by a command that passes before any work: `test -f <file>`. */
function greenTask(id: string, type: string, file: string, description: string) {
  return {
    id, title: `Work on ${file}`, action: type === 'refactor' ? 'Refactor' : type === 'fix' ? 'Fix' : 'Add', type, description,
    files: [{ path: file, action: 'modify', changes: [description] }], implementation: [description],
    test: { commands: [`test -f ${file}`] },
    convergence: { criteria: [`${file} is still there`], verification: '', definition_of_done: `${file} serves its users` },
  }
}

const plan = (...tasks: ReturnType<typeof greenTask>[]) => ({ description: 'Work on the files', analysis: { risk: 'low', impact: 'low', complexity: 'low' }, tasks })

describe('evidence (dist/index.js against the API emulator)', () => {
  let gh: Emulator
  beforeEach(async () => {
    gh = await startEmulator({
      owner: 'octo-org', repo: 'demo',
      files: { 'README.md': '# demo\n', 'tools/executor.js': EXECUTOR, 'src/app.js': '// app\n', 'src/util.js': '// util\n', 'src/core.js': '// core\n' },
    })
    gh.seed.user({ login: 'alice' })
    gh.seed.permission('alice', 'write')
  })
  afterEach(async () => {
    await disposeRuns()
    try { gh.expectNoViolations() } finally { await gh.close() }
  })
  auditAfterEach('evidence', () => gh)

  /** `converge:execute` with auto-approve: plan, approve and execute in one run. */
  const execute = (issue: number) => runAction({
    gh, event: issueLabeledEvent({ gh, issue, label: 'converge:execute', sender: 'alice' }),
    inputs: { 'executor-command': 'node tools/executor.js', 'auto-approve': 'true', 'max-parallel': '1' },
    env: { GITHUB_SERVER_URL: gh.url },
  })
  const kinds = async (issue: number) => {
    const record = ExecutionRecordSchema.parse(JSON.parse((await gh.state.readFile(STATE, `.converge/issues/${issue}/execution.json`))!))
    return Object.fromEntries(Object.entries(record.tasks).map(([id, r]) => [id, r.evidence?.kind]))
  }
  const sticky = (issue: number) => gh.state.comments(issue).find((c) => c.body.startsWith(`<!-- converge:ISS-${issue} -->`))!.body

  it('checks that passed before the change: no-change and unproven are neutral, said per task in the comment and the check run', async () => {
    gh.seed.issue({
      number: 8, title: 'Work on the app', labels: ['converge:execute'],
      body: issueBodyWithPlan(plan(
        greenTask('T1', 'fix', 'src/app.js', 'Change nothing here'),
        greenTask('T2', 'feature', 'src/util.js', 'Add a helper'),
        greenTask('T3', 'refactor', 'src/core.js', 'Tidy the core'),
      )),
    })
    const run = await execute(8)
    expect(run.errors).toEqual([])
    expect(await kinds(8)).toEqual({ T1: 'no-change', T2: 'unproven', T3: 'regression-guard' })
    expect(run.outputs).toMatchObject({ status: 'completed', 'tasks-completed': '3', 'tasks-proven': '1', 'tasks-unproven': '2' })

    const check = gh.state.checkRuns().find((c) => c.id === Number(run.outputs['check-run-id']))!
    expect(check.conclusion).toBe('neutral')
    expect(check.output.title).toMatch(/^1\/3 tasks converged · 2 not proven \(T1 changed nothing, T2 unproven\)/)
    const noChange = 'T1 changed nothing: its check already passed before the change'
    const unproven = 'T2: `test -f src/util.js` already passed before the change: nothing shows the change did what the task asks'
    for (const text of [check.output.summary, sticky(8), run.summary]) {
      expect(text).toContain(noChange)
      expect(text).toContain(unproven)
      expect(text).toContain('T3: `test -f src/core.js` passed before and after the change: it guards against regressions')
    }
    expect(sticky(8)).toMatch(/\*\*For a person to check\*\*: 3 criteria wait for a person/)
  })

  it('a refactor whose checks passed before and after, with a change, is a regression guard: success', async () => {
    gh.seed.issue({ number: 9, title: 'Tidy the core', labels: ['converge:execute'], body: issueBodyWithPlan(plan(greenTask('T1', 'refactor', 'src/core.js', 'Tidy the core'))) })
    const run = await execute(9)
    expect(run.errors).toEqual([])
    expect(await kinds(9)).toEqual({ T1: 'regression-guard' })
    expect(gh.state.checkRuns().find((c) => c.id === Number(run.outputs['check-run-id']))!.conclusion).toBe('success')
    expect(run.outputs).toMatchObject({ 'tasks-proven': '1', 'tasks-unproven': '0' })
  })
})
