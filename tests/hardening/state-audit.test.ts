/**
 * The state-branch audit the fault and kill suites rely on (tests/support/state-audit.ts) finds what it claims
 * to: a branch left by a real run passes, and each kind of damage, committed on top of it, is reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { statePaths } from '../../src/model/state-layout.js'
import { answerPlan, answerTask, issueBodyWithPlan, startAnswerRepo } from '../support/answer-plans.js'
import type { Emulator } from '../support/emulator/index.js'
import { issueCommentEvent } from '../support/events.js'
import { disposeRuns, runAction } from '../support/runner.js'
import { auditStateBranch } from '../support/state-audit.js'

const STATE = 'converge/state'
const EXECUTOR = `
const fs = require('node:fs')
const task = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))
for (const file of task.files) fs.writeFileSync(file.path, '42\\n')
`

describe('auditStateBranch', () => {
  let gh: Emulator
  let n: number
  const original = new Map<string, string>()

  beforeAll(async () => {
    gh = await startAnswerRepo(EXECUTOR)
    n = gh.seed.issue({ title: 'Write the answers', body: issueBodyWithPlan(answerPlan([answerTask('T1', 'a.txt'), answerTask('T2', 'b.txt', ['T1'])])) }).number
    const run = await runAction({
      gh,
      event: issueCommentEvent({ gh, issue: n, body: '/converge execute', sender: 'alice' }),
      inputs: { 'executor-command': 'node tools/executor.js', 'auto-approve': 'true' },
      env: { GITHUB_SERVER_URL: gh.url },
    })
    expect(run.outputs.status).toBe('completed')
    for (const path of await gh.state.listFiles(STATE)) original.set(path, (await gh.state.readFile(STATE, path))!)
  })
  afterAll(async () => {
    await disposeRuns()
    await gh?.close()
  })

  /** Commits `change` on the state branch, audits, and puts the files back. */
  async function damaged(change: (files: Map<string, string>) => Record<string, string | null>): Promise<string[]> {
    const files = change(new Map(original))
    await gh.seed.commit({ branch: STATE, files, message: 'damage' })
    const { problems } = await auditStateBranch(gh)
    const restore = Object.fromEntries(Object.keys(files).map((path) => [path, original.get(path) ?? null]))
    await gh.seed.commit({ branch: STATE, files: restore, message: 'repair' })
    return problems
  }
  const json = (files: Map<string, string>, path: string) => JSON.parse(files.get(path)!) as Record<string, unknown>
  const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

  it('passes the branch a real run left', async () => {
    expect(await auditStateBranch(gh)).toMatchObject({ files: original.size, issues: 1, problems: [] })
  })

  it('reports a file that is not JSON, or breaks its schema', async () => {
    expect(await damaged(() => ({ [statePaths.plan(n)]: '{"id": ' }))).toEqual([expect.stringMatching(/plan\.json: not JSON/)])
    expect(await damaged((f) => ({ [statePaths.execution(n)]: text({ ...json(f, statePaths.execution(n)), status: 'half-written' }) })))
      .toEqual([expect.stringMatching(/execution\.json: status: /)])
  })

  it('reports files that disagree: state.json and issue.json, the approval and the plan', async () => {
    expect(await damaged((f) => ({ [statePaths.issue(n)]: text({ ...json(f, statePaths.issue(n)), status: 'executing' }) }))).toEqual([
      expect.stringMatching(/state\.json: ISS-\d+ is completed\/.*issue\.json says executing/),
      expect.stringMatching(/issue\.json: executing, execution\.json says completed/),
    ])
    expect(await damaged((f) => ({ [statePaths.loop(n)]: text({ ...json(f, statePaths.loop(n)), status: 'running' }) })))
      .toEqual([expect.stringMatching(/loop\.json: running, execution\.json says completed/)])
    expect(await damaged((f) => {
      const plan = json(f, statePaths.plan(n)) as { tasks: Array<{ title: string }> }
      plan.tasks[0]!.title = 'Edited after the approval'
      return { [statePaths.plan(n)]: text(plan) }
    })).toEqual(expect.arrayContaining([expect.stringMatching(/approval bound to another plan hash/), expect.stringMatching(/plan hash differs/)]))
  })

  it('reports a recorded commit that is not on the work branch, and a file outside the layout', async () => {
    const other = await gh.seed.commit({ branch: 'elsewhere', files: { 'x.txt': 'x\n' } })
    expect(await damaged((f) => {
      const record = json(f, statePaths.execution(n)) as { tasks: Record<string, { commit_hash: string }> }
      record.tasks.T1!.commit_hash = other
      return { [statePaths.execution(n)]: text(record) }
    })).toEqual([expect.stringMatching(/T1's commit .* is not on converge\/issue-/)])
    expect(await damaged(() => ({ '.converge/issues/1/notes.txt': 'stray\n' }))).toEqual([expect.stringMatching(/notes\.txt: not a file of the state layout/)])
  })

  it('reports a finished task without evidence, and evidence its runs do not make', async () => {
    const record = (f: Map<string, string>) => json(f, statePaths.execution(n)) as { tasks: Record<string, Record<string, unknown> & { evidence?: { kind: string; before: Array<{ exit_code: number }> } }> }
    expect(record(new Map(original)).tasks.T1!.evidence).toMatchObject({ kind: 'proven', before: [{ exit_code: 1 }], after: [{ exit_code: 0 }] })
    expect(await damaged((f) => {
      const r = record(f)
      delete r.tasks.T1!.evidence
      return { [statePaths.execution(n)]: text(r) }
    })).toEqual([expect.stringMatching(/execution\.json: T1 completed without evidence/)])
    expect(await damaged((f) => {
      const r = record(f)
      r.tasks.T2!.evidence!.before[0]!.exit_code = 0 // green before: the recorded "proven" is not what its runs make
      return { [statePaths.execution(n)]: text(r) }
    })).toEqual([expect.stringMatching(/T2 has evidence of kind proven that its runs do not make/)])
  })
})
