/**
 * The real agent CLIs in the loop, one suite per preset (real-cli.<preset>.test.ts, one file each so that vitest runs
 * the three side by side: they mostly wait on the CLIs): Claude Code, Codex and Gemini CLI (each from npm, its own
 * binary or bundle) run as Converge's executor and planner, through the built action (dist/index.js against the API
 * emulator) and the built CLI, and talk to a scripted model API of ours on 127.0.0.1 that speaks their vendor's
 * protocol. The model's side is a script; the edits are the CLI's own tools, and so are its reports, usage and errors.
 *
 * Opt-in, as the CLIs are too big for `npm ci`: `node scripts/install-agents.mjs` installs them into
 * .cache/agent-clis, then `npm run test:agents` (CONVERGE_REAL_CLIS=1) runs these files; `.ci/run` does both.
 */
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AGENT_PRESETS } from '../../src/agents/presets.js'
import { ExecutionRecordSchema, SolutionSchema } from '../../src/model/index.js'
import { answerPlan, answerTask, CHECK_SCRIPT, issueBodyWithPlan, startAnswerRepo } from '../support/answer-plans.js'
import type { Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent } from '../support/events.js'
import { AGENTS, BIN, executorModel, KEYS, type AgentUnderTest } from '../support/agent-clis.js'
import type { ModelServer, ModelStep, ModelTurn, Scenario } from '../support/model-servers/types.js'
import { disposeRuns, runAction } from '../support/runner.js'

const ROOT = resolve(import.meta.dirname, '..', '..')
const ENABLED = process.env.CONVERGE_REAL_CLIS === '1'
const STATE = 'converge/state'
const TIMEOUT_MS = 300_000 // a hang guard: CI's slower machine took 140 s for gemini's 429 run with max-iterations 2


/**
 * The model of a planner: it first tries to edit README.md (a read-only planner is refused), then answers with the
 * plan as its final message, as a read-only agent must.
 */
function plannerModel(turn: ModelTurn): ModelStep {
  if (!turn.prompt.includes('You are the planner of Converge')) return { kind: 'text', text: 'Not a planning prompt.' }
  if (turn.toolResults === 0) return { kind: 'write', path: 'README.md', content: '# taken over by the planner\n' }
  return { kind: 'text', text: `Here is the plan.\n\n\`\`\`json\n${JSON.stringify(answerPlan([answerTask('T1', 'src/answer.txt')], 'Write the answer'), null, 2)}\n\`\`\`` }
}

const PLAN = answerPlan([answerTask('T1', 'src/a.txt'), answerTask('T2', 'src/b.txt'), answerTask('T3', 'src/c.txt', ['T1', 'T2'])])

/** The suite of one preset's real CLI; it prints what the CLI did, the summary line CI shows. */
export function describeRealCli(preset: AgentUnderTest['preset']): void {
  const agent = AGENTS.find((a) => a.preset === preset)!
  /** What the real CLI did, for the summary line CI prints. */
  const count = { converged: 0, planned: 0, errorsReported: 0, limitsKept: 0, keysRefused: 0 }
  afterAll(() => {
    if (!ENABLED) return
    console.log(`real agent CLIs: ${preset} ${count.converged} tasks converged by its own edits, ${count.planned} plans planned, ${count.errorsReported} model errors reported, ${count.limitsKept} limits kept, ${count.keysRefused} wrong keys stopped at once`)
  })

  describe.skipIf(!ENABLED)(`${preset} (the real CLI) as executor and planner, against a scripted model API`, () => {
    let home: string
    let model: ModelServer
    beforeAll(async () => {
      home = await mkdtemp(join(tmpdir(), `converge-${agent.preset}-home-`))
    })
    afterEach(async () => {
      await disposeRuns()
      await model?.close()
    })
    afterAll(() => rm(home, { recursive: true, force: true }))
    /** The agent's environment: its CLI on PATH, a home of its own, its API at our server, its key. */
    const agentEnv = async (options: { key?: string; fewRetries?: boolean } = {}): Promise<Record<string, string>> =>
      ({ PATH: `${BIN}${delimiter}${process.env.PATH}`, HOME: home, ...(await agent.setUp(model, home, options.key ?? KEYS[agent.preset], options.fewRetries ?? false)) })
    /** The model server, accepting only the preset's key. */
    const startModel = async (scenario: Scenario) => (model = await agent.startModel(scenario, { key: KEYS[agent.preset] }))

    describe('through dist/index.js against the API emulator', () => {
      let gh: Emulator
      beforeAll(async () => {
        gh = await startAnswerRepo('')
      })
      afterAll(() => gh?.close())

      const comment = async (n: number, body: string, inputs: Record<string, string> = {}, env?: Record<string, string>) =>
        runAction({
          gh, event: issueCommentEvent({ gh, issue: n, body, sender: 'alice' }), timeoutMs: TIMEOUT_MS,
          inputs: { 'executor-command': agent.preset, 'max-parallel': '1', 'max-iterations': '2', ...inputs },
          env: { ...(env ?? (await agentEnv())), GITHUB_SERVER_URL: gh.url },
        })
      /** A new issue with the 3-task plan, planned and approved. */
      const approvedIssue = async () => {
        // Issues and pull requests share their numbers: the emulator gives the next free one.
        const n = gh.seed.issue({ title: 'Write the answers', labels: ['converge:plan'], body: issueBodyWithPlan(PLAN) }).number
        await runAction({ gh, event: issueLabeledEvent({ gh, issue: n, label: 'converge:plan', sender: 'alice' }) })
        expect((await comment(n, '/converge approve', { 'executor-command': 'none' })).outputs['quality-gate']).toBe('pass')
        return n
      }
      const sticky = (n: number) => gh.state.comments(n).find((c) => c.body.includes(`ISS-${n} ·`))!.body
      const record = async (n: number) => ExecutionRecordSchema.parse(JSON.parse((await gh.state.readFile(STATE, `.converge/issues/${n}/execution.json`))!))

      it(`executor-command: ${agent.preset} with only ${AGENT_PRESETS[agent.preset].apiKey} converges a 3-task plan by the agent's own edits; the outputs carry its usage`, async () => {
        await startModel(executorModel)
        const n = await approvedIssue()
        const run = await comment(n, '/converge execute')
        expect(run.errors).toEqual([])
        expect(run.outputs.status).toBe('completed')
        expect(Number(run.outputs['agent-tokens'])).toBeGreaterThan(0)
        if (agent.reportsCost) expect(Number(run.outputs['agent-cost-usd'])).toBeGreaterThan(0)
        else expect(run.outputs['agent-cost-usd']).toBe('')
        const executed = await record(n)
        for (const id of ['T1', 'T2', 'T3']) {
          expect(executed.tasks[id]).toMatchObject({ status: 'completed' })
          expect(executed.tasks[id]!.executor_runs!.at(-1)!.agent).toMatchObject({ error: null })
        }
        expect(run.summary).toMatch(/agent: .*[\d,]+ tokens/)
        count.converged += 3
      }, TIMEOUT_MS)

      it.each(agent.errors)('a model answering %i: the comment and the check run say the executor failed, with the agent\'s own words', async (status, message, says) => {
        await startModel(() => ({ kind: 'error', status, message }))
        const n = await approvedIssue()
        const run = await comment(n, '/converge execute', { 'max-iterations': '1' }, await agentEnv({ fewRetries: true }))
        expect(run.outputs.status).toBe('failed')
        const failure = /the executor exited with code \d+: (.*)/.exec(sticky(n))?.[1]
        expect(failure).toMatch(says)
        expect(JSON.stringify(gh.state.checkRuns().at(-1)!.output)).toMatch(/the executor exited with code \d+/)
        count.errorsReported++
      }, TIMEOUT_MS)

      it(`a wrong ${AGENT_PRESETS[agent.preset].apiKey}: one run per task, no verification, the agent's words and the variable to set`, async () => {
        await startModel(executorModel)
        const n = await approvedIssue()
        // Claude Code retries a 401 for three minutes; CLAUDE_CODE_MAX_RETRIES, as docs/agents.md says, shortens it.
        const run = await comment(n, '/converge execute', { 'max-iterations': '3' }, await agentEnv({ key: 'wrong-key-0000000000000', fewRetries: agent.preset === 'claude-code' }))
        expect(run.outputs.status).toBe('failed')
        const executed = await record(n)
        // T1 and T2 ran (T3 waits on them and does not).
        const ran = Object.values(executed.tasks).filter((t) => t.executor_runs?.length)
        expect(ran.map((t) => t.task_id)).toEqual(['T1', 'T2'])
        for (const task of ran) {
          expect(task.executor_runs).toHaveLength(1)
          expect(task.convergence_verified).toEqual([])
          expect(task.error).toMatch(new RegExp(`^the agent's credentials were refused: .*; set ${AGENT_PRESETS[agent.preset].apiKey} \\(`))
          expect(task.error).toMatch(agent.refusedKey)
        }
        expect(sticky(n)).toMatch(new RegExp(`the agent's credentials were refused: .*; set ${AGENT_PRESETS[agent.preset].apiKey}`))
        expect(sticky(n)).toMatch(agent.refusedKey)
        console.log(`real agent CLIs: ${agent.preset} wrong key: ${ran.map((t) => `${t.task_id} ${t.executor_runs!.length} run, ${t.convergence_verified.length} checks`).join('; ')}: ${ran[0]!.error}`)
        count.keysRefused++
      }, TIMEOUT_MS)

      it(`max-turns 1 on a task that needs three model requests: ${agent.preset} stops, the task fails with the reason, unverified`, async () => {
        // Write the file, read it back, then say so: three requests of the model.
        await startModel((turn) => {
          const file = /# T\d+: Write (\S+)/.exec(turn.prompt)?.[1] ?? 'none.txt'
          if (turn.toolResults === 0) return { kind: 'write', path: file, content: '42\n' }
          if (turn.toolResults === 1) return { kind: 'read', path: file }
          return { kind: 'text', text: `Wrote 42 to ${file}.` }
        })
        const n = await approvedIssue()
        const run = await comment(n, '/converge execute', { 'max-turns': '1', 'max-iterations': '3' })
        expect(run.outputs.status).toBe('failed')
        const T1 = (await record(n)).tasks.T1!
        expect(T1.executor_runs).toHaveLength(1)
        expect(T1.convergence_verified).toEqual([])
        expect(T1.error).toMatch(/^the agent (took \d+ turns, more than max-turns 1|stopped at max-turns 1: .+): the task ends, nothing was verified \(attempt 1\)$/)
        console.log(`real agent CLIs: ${agent.preset} max-turns 1: ${T1.error}`)
        expect(sticky(n)).toContain(T1.error!.split(': the task ends')[0]!)
        count.limitsKept++
      }, TIMEOUT_MS)

      it(`planner-command: ${agent.preset} plans read-only: its edit is refused and reported, its answer is the plan that is committed`, async () => {
        await startModel(plannerModel)
        const n = gh.seed.issue({ title: 'The answer is missing', labels: ['converge:plan'], body: 'We need the answer written down somewhere in the repository.' }).number
        const env = await agentEnv()
        const run = await runAction({
          gh, event: issueLabeledEvent({ gh, issue: n, label: 'converge:plan', sender: 'alice' }), timeoutMs: TIMEOUT_MS,
          inputs: { planner: 'command', 'planner-command': agent.preset, 'planner-env': Object.keys(env).filter((k) => k !== 'PATH' && k !== 'HOME').join(',') },
          env: { ...env, GITHUB_SERVER_URL: gh.url },
        })
        expect(run.errors).toEqual([])
        expect(run.outputs.status).toBe('planned')
        const plan = SolutionSchema.parse(JSON.parse((await gh.state.readFile(STATE, `.converge/issues/${n}/plan.json`))!))
        expect(plan.tasks.map((t) => t.title)).toEqual(['Write src/answer.txt'])
        // The CLI refused the write, the checkout is as it was, and the comment says what was refused.
        expect(await readFile(join(run.workspace, 'README.md'), 'utf8')).toBe('# demo\n')
        const said = gh.state.comments(n).map((c) => c.body).join('\n')
        expect(said).toContain("read the plan from the agent's final message")
        if (agent.reportsDenials) expect(said).toMatch(/the agent was refused `[^`]*README\.md/)
        count.planned++
      }, TIMEOUT_MS)

      if (agent.preset === 'claude-code') {
        it('max-cost-usd below one task\'s cost, max-parallel 1: one task runs, the run stops and says why', async () => {
          await startModel(executorModel)
          const n = await approvedIssue()
          const run = await comment(n, '/converge execute', { 'max-cost-usd': '0.0001' })
          expect(run.outputs).toMatchObject({ status: 'failed', 'tasks-completed': '1' })
          expect(sticky(n)).toMatch(/budget reached: \$0\.\d{3} of \$0\.00010 \(max-cost-usd\); 1 of 3 tasks converged/)
          expect(Object.keys((await record(n)).tasks)).toEqual(['T1'])
          count.converged += 1
          count.limitsKept++
        }, TIMEOUT_MS)
      }
    })

    describe('through the converge CLI on a repository of ours', () => {
      let dir: string
      beforeAll(async () => {
        dir = await mkdtemp(join(tmpdir(), `converge-${agent.preset}-cli-`))
      })
      afterAll(() => rm(dir, { recursive: true, force: true }))

      it(`converge execute --executor ${agent.preset}: every task converges by the agent's edits, one commit each, and the user's branch is back`, async () => {
        await startModel(executorModel)
        const identity = { GIT_AUTHOR_NAME: 'Dev', GIT_AUTHOR_EMAIL: 'dev@example.test', GIT_COMMITTER_NAME: 'Dev', GIT_COMMITTER_EMAIL: 'dev@example.test' }
        const env = { ...(await agentEnv()), ...identity }
        const run = (args: string[]) => promisify(execFile)(process.execPath, [join(ROOT, 'dist', 'cli', 'index.js'), ...args], { cwd: dir, env, timeout: TIMEOUT_MS })
        const git = (...args: string[]) => promisify(execFile)('git', args, { cwd: dir, env: { ...process.env, ...identity } })
        await git('init', '-q', '-b', 'main')
        await writeFile(join(dir, 'README.md'), '# mine\n')
        await mkdir(join(dir, 'tools'))
        await writeFile(join(dir, 'tools', 'check.js'), CHECK_SCRIPT)
        await git('add', '-A')
        await git('commit', '-qm', 'init')
        const issue = join(dir, '..', `issue-${agent.preset}-${Date.now()}.md`)
        await writeFile(issue, `---\nnumber: 5\ntitle: Write the answers\n---\n\n${issueBodyWithPlan(PLAN)}`)
        await run(['plan', '--issue-file', issue, '--repo', dir])
        await run(['approve', '--number', '5', '--repo', dir])
        const executed = await run(['execute', '--number', '5', '--repo', dir, '--executor', agent.preset, '--max-parallel', '1'])
        expect(executed.stdout).toMatch(/3\/3 tasks converged|Every task converged|completed/)
        expect((await git('log', '--format=%s', 'main..converge/issue-5')).stdout.trim().split('\n')).toHaveLength(3)
        for (const file of ['src/a.txt', 'src/b.txt', 'src/c.txt']) expect((await git('show', `converge/issue-5:${file}`)).stdout).toBe('42\n')
        expect((await git('symbolic-ref', '--short', 'HEAD')).stdout.trim()).toBe('main')
        count.converged += 3

        // A wrong key: the CLI exits 1 and says why, in the agent's words, with the variable to set.
        const wrong = { ...(await agentEnv({ key: 'wrong-key-0000000000000', fewRetries: agent.preset === 'claude-code' })), ...identity }
        await writeFile(issue, `---\nnumber: 6\ntitle: Write the answers\n---\n\n${issueBodyWithPlan(PLAN)}`)
        await run(['plan', '--issue-file', issue, '--repo', dir])
        await run(['approve', '--number', '6', '--repo', dir])
        const refused = await promisify(execFile)(process.execPath, [join(ROOT, 'dist', 'cli', 'index.js'), 'execute', '--number', '6', '--repo', dir, '--executor', agent.preset, '--max-parallel', '1'], { cwd: dir, env: wrong, timeout: TIMEOUT_MS })
          .then(() => ({ code: 0, stdout: '' }), (error: { code: number; stdout: string }) => error)
        expect(refused.code).toBe(1)
        const said = new RegExp(`the agent's credentials were refused: .*; set ${AGENT_PRESETS[agent.preset].apiKey} `)
        expect(refused.stdout).toMatch(said)
        expect(refused.stdout).toMatch(agent.refusedKey)
        console.log(`real agent CLIs: ${agent.preset} wrong key, converge execute: ${refused.stdout.split('\n').find((line) => said.test(line))!.trim()}`)
      }, TIMEOUT_MS * 2)
    })
  })
}
