/**
 * The example workflows (examples/workflows/), run as a runner runs them with the real agent CLIs: each job's
 * Converge step, its `with:` and `env:` as written (a secret is the key our scripted model server accepts, an input or
 * a matrix value what the workflow passes), for the event the workflow is triggered by, through dist/index.js
 * against the API emulator. The CLI is the one the job's install step names, from .cache/agent-clis at the pinned
 * version. Nothing else is set but the API's address (our server), as in tests/agents/real-cli-suite.ts.
 *
 * Opt-in with the other real-agent suites: `npm run test:agents` (CONVERGE_REAL_CLIS=1).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { AGENT_PRESETS } from '../../src/agents/presets.js'
import { ExecutionRecordSchema } from '../../src/model/index.js'
import { AGENTS, BIN, executorModel, KEYS } from '../support/agent-clis.js'
import { answerPlan, answerTask, issueBodyWithPlan, startAnswerRepo } from '../support/answer-plans.js'
import type { Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent, workflowDispatchEvent, type ActionEvent } from '../support/events.js'
import type { ModelServer } from '../support/model-servers/types.js'
import { disposeRuns, runAction, type ActionRun } from '../support/runner.js'

const ENABLED = process.env.CONVERGE_REAL_CLIS === '1'
const EXAMPLES = resolve(import.meta.dirname, '..', '..', 'examples', 'workflows')
const STATE = 'converge/state'
const TIMEOUT_MS = 300_000
/** The secrets the examples name, as the keys our model servers accept. */
const SECRETS: Record<string, string> = { ANTHROPIC_API_KEY: KEYS['claude-code'], OPENAI_API_KEY: KEYS.codex }

interface Step { name?: string; uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> }
interface Workflow { jobs: Record<string, { steps?: Step[] }> }

/** A job of an example workflow: its Converge step, and the preset its install step installs (if any). */
async function exampleJob(file: string, job: string): Promise<{ step: Step; preset: keyof typeof KEYS | undefined }> {
  const workflow = parse(await readFile(join(EXAMPLES, file), 'utf8')) as Workflow
  const steps = workflow.jobs[job]!.steps ?? []
  const step = steps.find((s) => s.uses?.startsWith('converge-action/converge@'))!
  const install = steps.find((s) => s.run?.startsWith('npm install --global '))?.run
  const preset = (Object.keys(KEYS) as Array<keyof typeof KEYS>).find((name) => install?.endsWith(AGENT_PRESETS[name].install.replace('npm install -g ', ' ')))
  if (install) expect(preset, `${file}: ${install}`).toBeDefined()
  return { step, preset }
}

/** A `with:` or `env:` value with its expressions evaluated; one the test does not know fails it. */
function evaluate(value: unknown, context: Record<string, Record<string, string>>): string {
  return String(value).replace(/\$\{\{\s*(\w+)\.([\w-]+)\s*\}\}/g, (expression, scope: string, name: string) => {
    const known = context[scope]?.[name]
    if (known === undefined) throw new Error(`the test cannot evaluate ${expression}`)
    return known
  })
}

describe.skipIf(!ENABLED)('the example workflows with the real agent CLIs, through dist/index.js against the API emulator', () => {
  let gh: Emulator
  let home: string
  const models: ModelServer[] = []
  beforeAll(async () => {
    gh = await startAnswerRepo('')
    home = await mkdtemp(join(tmpdir(), 'converge-examples-home-'))
  })
  afterEach(async () => {
    await disposeRuns()
    for (const model of models.splice(0)) await model.close()
  })
  afterAll(async () => {
    await gh?.close()
    await rm(home, { recursive: true, force: true })
  })

  /** Runs `job` of `file` for `event`: the step's inputs and environment as written, the preset's CLI on PATH. */
  async function runJob(file: string, job: string, event: ActionEvent, context: Record<string, Record<string, string>> = {}): Promise<ActionRun> {
    const { step, preset } = await exampleJob(file, job)
    const scope = { secrets: SECRETS, ...context }
    const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, evaluate(v, scope)]))
    const env: Record<string, string> = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(v, scope)]))
    if (preset) {
      const agent = AGENTS.find((a) => a.preset === preset)!
      const model = await agent.startModel(executorModel, { key: KEYS[preset] })
      models.push(model)
      // The address of our server (and the CLI's home); the key is the one the step's env: sets.
      const setUp = await agent.setUp(model, home, '', false)
      for (const [name, value] of Object.entries(setUp)) if (name !== AGENT_PRESETS[preset].apiKey) env[name] = value
      Object.assign(env, { PATH: `${BIN}${delimiter}${process.env.PATH}`, HOME: home })
    }
    return runAction({ gh, event, inputs, env: { ...env, GITHUB_SERVER_URL: gh.url }, timeoutMs: TIMEOUT_MS })
  }
  /** An issue with a plan in its body; `labels`: those its label events add (the emulator seeds them on the issue). */
  const newIssue = (labels: string[] = []) => gh.seed.issue({ title: 'Write the answers', labels, body: issueBodyWithPlan(answerPlan([answerTask('T1', 'src/a.txt'), answerTask('T2', 'src/b.txt', ['T1'])])) }).number
  const comment = (n: number, body: string) => runJob('comment.yml', 'converge', issueCommentEvent({ gh, issue: n, body, sender: 'alice' }))
  const label = (n: number, name: string) => runJob('label.yml', 'converge', issueLabeledEvent({ gh, issue: n, label: name, sender: 'alice' }))
  const record = async (n: number) => ExecutionRecordSchema.parse(JSON.parse((await gh.state.readFile(STATE, `.converge/issues/${n}/execution.json`))!))
  const statuses = async (n: number) => Object.fromEntries(Object.entries((await record(n)).tasks).map(([id, t]) => [id, t.status]))

  it('comment.yml (claude-code, ANTHROPIC_API_KEY): /converge plan, approve, execute converge the plan by the agent\'s edits', async () => {
    const n = newIssue()
    expect((await comment(n, '/converge plan')).outputs.status).toBe('planned')
    expect((await comment(n, '/converge approve')).outputs['quality-gate']).toBe('pass')
    const run = await comment(n, '/converge execute')
    expect(run.outputs.status).toBe('completed')
    expect(await statuses(n)).toEqual({ T1: 'completed', T2: 'completed' })
    expect(Number(run.outputs['agent-cost-usd'])).toBeGreaterThan(0)
    console.log(`example workflows: comment.yml converged ISS-${n} with claude-code: ${run.outputs['tasks-completed']} tasks, ${run.outputs['agent-tokens']} tokens, $${run.outputs['agent-cost-usd']}`)
  }, TIMEOUT_MS * 2)

  it('label.yml (codex, CODEX_API_KEY from the OPENAI_API_KEY secret): converge:plan, then converge:execute after the approval', async () => {
    const n = newIssue(['converge:plan', 'converge:execute'])
    expect((await label(n, 'converge:plan')).outputs.status).toBe('planned')
    expect((await comment(n, '/converge approve')).outputs['quality-gate']).toBe('pass')
    const run = await label(n, 'converge:execute')
    expect(run.outputs.status).toBe('completed')
    expect(await statuses(n)).toEqual({ T1: 'completed', T2: 'completed' })
    expect(Number(run.outputs['agent-tokens'])).toBeGreaterThan(0)
    console.log(`example workflows: label.yml converged ISS-${n} with codex: ${run.outputs['tasks-completed']} tasks, ${run.outputs['agent-tokens']} tokens`)
  }, TIMEOUT_MS * 2)

  it('scale-out.yml (claude-code): plan → one execute job per ready task → report, one round per dependency level', async () => {
    const n = newIssue()
    await comment(n, '/converge plan')
    await comment(n, '/converge approve')
    const dispatch = (inputs: Record<string, string>) => workflowDispatchEvent({ gh, sender: 'alice', inputs })
    for (const task of ['T1', 'T2']) {
      const plan = await runJob('scale-out.yml', 'plan', dispatch({ 'issue-number': String(n) }), { inputs: { 'issue-number': String(n) } })
      const matrix = JSON.parse(plan.outputs.matrix!) as { include: Array<{ issue: number; task: string }> }
      expect(matrix.include).toEqual([{ issue: n, task }])
      const jobs = await Promise.all(matrix.include.map((entry) =>
        runJob('scale-out.yml', 'execute', dispatch({ 'issue-number': String(n) }), { matrix: { task: entry.task, issue: String(entry.issue) } })))
      for (const job of jobs) expect(job.exitCode).toBe(0)
      await runJob('scale-out.yml', 'report', dispatch({ 'issue-number': String(n) }), { inputs: { 'issue-number': String(n) } })
    }
    expect(await statuses(n)).toEqual({ T1: 'completed', T2: 'completed' })
    console.log(`example workflows: scale-out.yml converged ISS-${n} with claude-code in 2 rounds`)
  }, TIMEOUT_MS * 3)

  it('manual.yml (no executor): status, from the Actions tab', async () => {
    const n = newIssue()
    await comment(n, '/converge plan')
    const inputs = { command: 'status', 'issue-number': String(n), 'dry-run': 'false' }
    const run = await runJob('manual.yml', 'converge', workflowDispatchEvent({ gh, sender: 'alice', inputs }), { inputs })
    expect(run.exitCode).toBe(0)
    expect(run.outputs.status).toBe('planned')
  }, TIMEOUT_MS)
})
