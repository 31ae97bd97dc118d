/**
 * The real agent CLIs in the loop: Claude Code (npm @anthropic-ai/claude-code, its own binary) runs as Converge's
 * executor and planner, through the built action (dist/index.js against the API emulator) and the built CLI, and
 * talks to a scripted Anthropic API of ours on 127.0.0.1 (ANTHROPIC_BASE_URL). The model's side is a script; the
 * edits are the CLI's own (its Write tool), and so are its JSON report, usage and errors.
 *
 * Opt-in, as the CLIs are too big for `npm ci`: `node scripts/install-agents.mjs` installs them into
 * .cache/agent-clis, then `npm run test:agents` (CONVERGE_REAL_CLIS=1) runs this file; `.ci/run` does both.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ExecutionRecordSchema, SolutionSchema } from '../../src/model/index.js'
import { answerPlan, answerTask, issueBodyWithPlan, startAnswerRepo } from '../support/answer-plans.js'
import type { Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent } from '../support/events.js'
import { startAnthropicServer } from '../support/model-servers/anthropic.js'
import type { ModelServer, ModelStep, ModelTurn } from '../support/model-servers/types.js'
import { disposeRuns, runAction } from '../support/runner.js'

const ROOT = resolve(import.meta.dirname, '..', '..')
const BIN = resolve(process.env.CONVERGE_AGENT_CLIS_DIR ?? join(ROOT, '.cache', 'agent-clis'), 'node_modules', '.bin')
const ENABLED = process.env.CONVERGE_REAL_CLIS === '1'
const STATE = 'converge/state'
const TIMEOUT_MS = 180_000

/** Counts for the summary line CI prints: what each preset did with the real CLI. */
const counts = { converged: 0, planned: 0, errorsReported: 0, budgetsKept: 0 }

/**
 * The model of an executor: for a task "Write <file>" it calls Write with 42, then says it is done. For the
 * planner prompt it first tries to edit README.md (a read-only planner must be refused), then answers the plan.
 */
function executorModel(turn: ModelTurn): ModelStep {
  const file = /# T\d+: Write (\S+)/.exec(turn.prompt)?.[1]
  if (!file) return { kind: 'text', text: 'I do not know this task.' }
  return turn.toolResults === 0 ? { kind: 'write', path: file, content: '42\n' } : { kind: 'text', text: `Wrote 42 to ${file}.` }
}

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

/** The environment of the agent: its CLI on PATH, its API at our server, a home of its own. */
function agentEnv(model: ModelServer, home: string): Record<string, string> {
  return {
    PATH: `${BIN}${delimiter}${process.env.PATH}`,
    HOME: home,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'sk-ant-scripted-0123456789',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    // Claude Code retries a refused request ten times with a growing delay (minutes); once is enough here.
    CLAUDE_CODE_MAX_RETRIES: '1',
  }
}

describe.skipIf(!ENABLED)('Claude Code (the real CLI) as executor and planner, against a scripted Anthropic API', () => {
  let home: string
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'converge-agent-home-'))
  })
  afterAll(async () => {
    console.log(`real agent CLIs: claude-code ${counts.converged} tasks converged by its own edits, ${counts.planned} plans planned, ${counts.errorsReported} model errors reported, ${counts.budgetsKept} limits kept`)
    await rm(home, { recursive: true, force: true })
  })

  describe('through dist/index.js against the API emulator', () => {
    let gh: Emulator
    let model: ModelServer
    beforeAll(async () => {
      gh = await startAnswerRepo('')
    })
    afterEach(async () => {
      await disposeRuns()
      await model?.close()
    })
    afterAll(() => gh?.close())

    const comment = (n: number, body: string, inputs: Record<string, string> = {}) =>
      runAction({
        gh, event: issueCommentEvent({ gh, issue: n, body, sender: 'alice' }), timeoutMs: TIMEOUT_MS,
        inputs: { 'executor-command': 'claude-code', 'max-parallel': '1', 'max-iterations': '2', ...inputs },
        env: { ...agentEnv(model, home), GITHUB_SERVER_URL: gh.url },
      })
    /** A new issue with the 3-task plan, planned and approved. */
    const approvedIssue = async () => {
      // Issues and pull requests share their numbers: the emulator gives the next free one.
      const n = gh.seed.issue({ title: 'Write the answers', labels: ['converge:plan'], body: issueBodyWithPlan(PLAN) }).number
      await runAction({ gh, event: issueLabeledEvent({ gh, issue: n, label: 'converge:plan', sender: 'alice' }) })
      expect((await comment(n, '/converge approve', { 'executor-command': 'none' })).outputs['quality-gate']).toBe('pass')
      return n
    }

    it('a model that refuses the key: the comment and the check run say the executor failed, with its own words', async () => {
      model = await startAnthropicServer(() => ({ kind: 'error', status: 401, message: 'invalid x-api-key' }))
      const n = await approvedIssue()
      const run = await comment(n, '/converge execute')
      const sticky = gh.state.comments(n).find((c) => c.body.includes(`ISS-${n} ·`))!.body
      const check = gh.state.checkRuns().at(-1)!
      expect(sticky).toMatch(/the executor exited with code 1: .*(401|invalid x-api-key|API key)/i)
      expect(JSON.stringify(check)).toMatch(/the executor exited with code 1/)
      expect(run.outputs.status).toBe('failed')
      counts.errorsReported++
    }, TIMEOUT_MS)

    it('executor-command: claude-code converges a 3-task plan by the agent\'s own edits; the outputs carry its cost and tokens', async () => {
      model = await startAnthropicServer(executorModel)
      const n = await approvedIssue()
      const run = await comment(n, '/converge execute')
      expect(run.errors).toEqual([])
      expect(run.outputs.status).toBe('completed')
      expect(Number(run.outputs['agent-cost-usd'])).toBeGreaterThan(0)
      expect(Number(run.outputs['agent-tokens'])).toBeGreaterThan(0)
      expect(Number(run.outputs['agent-turns'])).toBeGreaterThanOrEqual(3)
      const record = ExecutionRecordSchema.parse(JSON.parse((await gh.state.readFile(STATE, `.converge/issues/${n}/execution.json`))!))
      for (const id of ['T1', 'T2', 'T3']) {
        expect(record.tasks[id]).toMatchObject({ status: 'completed' })
        expect(record.tasks[id]!.executor_runs!.at(-1)!.agent).toMatchObject({ format: 'claude-json', error: null })
      }
      expect(run.summary).toMatch(/agent: \$0\.\d{4} · [\d,]+ tokens · \d+ turns/)
      counts.converged += 3
    }, TIMEOUT_MS)

    it('max-cost-usd below one task\'s cost, max-parallel 1: one task runs, the run stops and says why', async () => {
      model = await startAnthropicServer(executorModel)
      const n = await approvedIssue()
      const run = await comment(n, '/converge execute', { 'max-cost-usd': '0.0001' })
      expect(run.outputs).toMatchObject({ status: 'failed', 'tasks-completed': '1' })
      const sticky = gh.state.comments(n).find((c) => c.body.includes(`ISS-${n} ·`))!.body
      expect(sticky).toMatch(/budget reached: \$0\.\d{3} of \$0\.00010 \(max-cost-usd\); 1 of 3 tasks converged/)
      const record = ExecutionRecordSchema.parse(JSON.parse((await gh.state.readFile(STATE, `.converge/issues/${n}/execution.json`))!))
      expect(Object.keys(record.tasks)).toEqual(['T1'])
      counts.converged += 1
      counts.budgetsKept++
    }, TIMEOUT_MS)

    it('max-turns reaches Claude Code as --max-turns: a task that needs more turns stops there and is reported', async () => {
      model = await startAnthropicServer(executorModel)
      const n = await approvedIssue()
      await comment(n, '/converge execute', { 'max-turns': '1', 'max-iterations': '1' })
      const record = ExecutionRecordSchema.parse(JSON.parse((await gh.state.readFile(STATE, `.converge/issues/${n}/execution.json`))!))
      const agent = record.tasks.T1!.executor_runs![0]!.agent!
      expect(agent.usage.turns).toBeLessThanOrEqual(2)
      expect(`${agent.error} ${record.tasks.T1!.error}`).toMatch(/max.turns/i)
      counts.budgetsKept++
    }, TIMEOUT_MS)

    it.each([
      [429, 'rate_limit_error: too many requests'],
      [529, 'Overloaded'],
    ])('a model answering %i: the executor failure and its message reach the comment', async (status, message) => {
      model = await startAnthropicServer(() => ({ kind: 'error', status, message }))
      const n = await approvedIssue()
      await comment(n, '/converge execute')
      const sticky = gh.state.comments(n).find((c) => c.body.includes(`ISS-${n} ·`))!.body
      expect(sticky).toMatch(/the executor exited with code 1: \S/)
      counts.errorsReported++
    }, TIMEOUT_MS)

    it("planner-command: claude-code plans read-only: its edit is refused, its answer is the plan that is committed", async () => {
      model = await startAnthropicServer(plannerModel)
      const n = gh.seed.issue({ title: 'The answer is missing', labels: ['converge:plan'], body: 'We need the answer written down somewhere in the repository.' }).number
      const run = await runAction({
        gh, event: issueLabeledEvent({ gh, issue: n, label: 'converge:plan', sender: 'alice' }), timeoutMs: TIMEOUT_MS,
        inputs: { planner: 'command', 'planner-command': 'claude-code', 'planner-env': 'ANTHROPIC_BASE_URL,ANTHROPIC_API_KEY,CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC,CLAUDE_CODE_MAX_RETRIES,DISABLE_AUTOUPDATER' },
        env: { ...agentEnv(model, home), GITHUB_SERVER_URL: gh.url },
      })
      expect(run.errors).toEqual([])
      expect(run.outputs.status).toBe('planned')
      const plan = SolutionSchema.parse(JSON.parse((await gh.state.readFile(STATE, `.converge/issues/${n}/plan.json`))!))
      expect(plan.tasks.map((t) => t.title)).toEqual(['Write src/answer.txt'])
      // The CLI refused the write (plan mode), and the checkout is as it was.
      const refused = model.requests.flatMap((r) => JSON.stringify(r.body).match(/tool_result[^}]*README\.md[^}]*/g) ?? [])
      expect(refused.join('\n')).not.toMatch(/File created successfully|updated successfully/)
      expect(await readFile(join(run.workspace, 'README.md'), 'utf8')).toBe('# demo\n')
      expect(gh.state.comments(n).map((c) => c.body).join('\n')).toContain("read the plan from the agent's final message")
      counts.planned++
    }, TIMEOUT_MS)
  })

  describe('through the converge CLI on a repository of ours', () => {
    let dir: string
    let model: ModelServer
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'converge-agent-cli-'))
    })
    afterAll(async () => {
      await model?.close()
      await rm(dir, { recursive: true, force: true })
    })

    it('converge execute --executor claude-code: every task converges by the agent\'s edits, one commit each', async () => {
      model = await startAnthropicServer(executorModel)
      const run = (args: string[]) => promisify(execFile)(process.execPath, [join(ROOT, 'dist', 'cli', 'index.js'), ...args], {
        cwd: dir, env: { ...agentEnv(model, home), GIT_AUTHOR_NAME: 'Dev', GIT_AUTHOR_EMAIL: 'dev@example.test', GIT_COMMITTER_NAME: 'Dev', GIT_COMMITTER_EMAIL: 'dev@example.test' },
        timeout: TIMEOUT_MS,
      })
      const git = (...args: string[]) => promisify(execFile)('git', args, { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: 'Dev', GIT_AUTHOR_EMAIL: 'dev@example.test', GIT_COMMITTER_NAME: 'Dev', GIT_COMMITTER_EMAIL: 'dev@example.test' } })
      await git('init', '-q', '-b', 'main')
      await writeFile(join(dir, 'README.md'), '# mine\n')
      await git('add', '-A')
      await git('commit', '-qm', 'init')
      const { mkdir } = await import('node:fs/promises')
      await mkdir(join(dir, 'tools'))
      await writeFile(join(dir, 'tools', 'check.js'), (await import('../support/answer-plans.js')).CHECK_SCRIPT)
      await git('add', '-A')
      await git('commit', '-qm', 'check')
      const issue = join(dir, '..', `issue-${Date.now()}.md`)
      await writeFile(issue, `---\nnumber: 5\ntitle: Write the answers\n---\n\n${issueBodyWithPlan(PLAN)}`)
      await run(['plan', '--issue-file', issue, '--repo', dir])
      await run(['approve', '--number', '5', '--repo', dir])
      const executed = await run(['execute', '--number', '5', '--repo', dir, '--executor', 'claude-code', '--max-parallel', '1'])
      expect(executed.stdout).toMatch(/3\/3 tasks converged|Every task converged|completed/)
      const log = (await git('log', '--format=%s', 'main..converge/issue-5')).stdout.trim().split('\n')
      expect(log).toHaveLength(3)
      for (const file of ['src/a.txt', 'src/b.txt', 'src/c.txt']) expect((await git('show', `converge/issue-5:${file}`)).stdout).toBe('42\n')
      counts.converged += 3
    }, TIMEOUT_MS)
  })
})
