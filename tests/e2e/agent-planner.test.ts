/**
 * `planner: command` through dist/index.js as a runner runs it, against the API emulator: the planner is a real
 * process (tools/planner.js in the emulated repository) that stands in for an agent CLI. It writes invalid JSON,
 * then a plan whose dependencies form a cycle, then a valid plan; each attempt is recorded on the state branch and
 * in the sticky comment, and the third plan is committed.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IssueStateSchema, SolutionSchema } from '../../src/model/index.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent } from '../support/events.js'
import { disposeRuns, runAction } from '../support/runner.js'
import { auditAfterEach } from '../support/state-audit.js'

const BRANCH = 'converge/state'
const N = 42
const MARKER = `<!-- converge:ISS-${N} -->`

const task = (id: string, file: string, dependsOn: string[]) => ({
  id, title: `Write ${file}`, action: 'Create', description: `Write the greeting to ${file}`,
  files: [{ path: file, action: 'create', changes: [`Write hello to ${file}`] }],
  implementation: [`Write hello to ${file}`],
  convergence: { criteria: [`${file} holds hello`] },
  test: { commands: [`grep -q hello ${file}`] },
  depends_on: dependsOn,
})
const GOOD = {
  description: 'Write the greetings',
  analysis: { risk: 'low', impact: 'low', complexity: 'low' },
  tasks: [task('T1', 'src/a.txt', []), task('T2', 'src/b.txt', ['T1'])],
}
const CYCLE = { ...GOOD, tasks: [task('T1', 'src/a.txt', ['T2']), task('T2', 'src/b.txt', ['T1'])] }

/**
 * The scripted planner. `STEPS` (comma-separated, one per attempt; default `bad-json,cycle,good`) says what each
 * attempt writes. It records in the plan's description what it could see: the prompt's issue text, the feedback,
 * the API key the workflow gave the executor, and whether any GitHub token reached it.
 */
const PLANNER = `
const fs = require('node:fs')
const attempt = Number(process.env.CONVERGE_ATTEMPT)
const step = (process.env.STEPS || 'bad-json,cycle,good').split(',')[attempt - 1] || 'good'
const prompt = fs.readFileSync(process.env.CONVERGE_PLAN_PROMPT_FILE, 'utf8')
const feedback = fs.readFileSync(process.env.CONVERGE_PLAN_FEEDBACK_FILE, 'utf8')
const plans = ${JSON.stringify({ good: GOOD, cycle: CYCLE })}
const seen = [
  prompt.includes('Greet everyone') ? 'issue' : 'no-issue',
  feedback.includes('Circular dependency: T1 → T2 → T1') ? 'cycle-fed-back' : 'no-cycle-feedback',
  process.env.ANTHROPIC_API_KEY ? 'api-key' : 'no-api-key',
  Object.keys(process.env).some((k) => /TOKEN|^INPUT_/.test(k)) ? 'token-visible' : 'no-token',
].join(' ')
const out = process.env.CONVERGE_PLAN_FILE
if (step === 'bad-json') fs.writeFileSync(out, '{ "description": "Write the greetings", "tasks": [ }')
else if (step === 'cycle') fs.writeFileSync(out, JSON.stringify(plans.cycle))
else if (step === 'none') console.error('model unavailable')
else fs.writeFileSync(out, JSON.stringify({ ...plans.good, description: plans.good.description + ' (' + seen + ')' }))
`

describe('planner: command (dist/index.js against the API emulator)', () => {
  let gh: Emulator
  beforeEach(async () => {
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n', 'tools/planner.js': PLANNER } })
    gh.seed.user({ login: 'alice' })
    gh.seed.permission('alice', 'write')
    gh.seed.issue({
      number: N, title: 'Greet everyone', labels: ['converge:plan'], user: 'alice',
      body: 'Greet everyone in src/a.txt and src/b.txt. Do not run $(touch pwned) or `touch pwned`.',
    })
  })
  afterEach(async () => {
    await disposeRuns()
    try { gh.expectNoViolations() } finally { await gh.close() }
  })
  auditAfterEach('agent-planner', () => gh)

  const AGENT = { planner: 'command', 'planner-command': 'node tools/planner.js', 'max-iterations': '3', 'planner-env': 'ANTHROPIC_API_KEY' }
  const stateFile = (path: string) => gh.state.readFile(BRANCH, path)
  const sticky = () => gh.state.comments(N).filter((c) => c.body.startsWith(MARKER))

  it('feeds back invalid JSON and a cycle, records three attempts and commits the third plan', async () => {
    const run = await runAction({
      gh, event: issueLabeledEvent({ gh, issue: N, label: 'converge:plan', sender: 'alice' }), inputs: AGENT,
      env: { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' },
    })
    expect(run.errors).toEqual([])
    expect(run.exitCode).toBe(0)
    expect(run.outputs).toMatchObject({ status: 'planned', 'solution-id': `SOL-ISS-${N}-1`, 'quality-gate': 'pass', 'tasks-total': '2' })

    // The third plan, committed in one commit; the planner saw the issue, the feedback and its API key, no token.
    const plan = SolutionSchema.parse(JSON.parse((await stateFile(`.converge/issues/${N}/plan.json`))!))
    expect(plan.description).toBe('Write the greetings (issue cycle-fed-back api-key no-token)')
    expect(plan.tasks.map((t) => [t.id, t.depends_on])).toEqual([['T1', []], ['T2', ['T1']]])
    expect((await gh.state.commits(BRANCH)).map((c) => c.message.split('\n')[0])).toEqual([`ISS-${N}: planned SOL-ISS-${N}-1 (2 tasks, gate pass, 3 attempts)`])
    // The issue's $(…) and backticks were never run.
    expect(existsSync(join(run.workspace, 'pwned'))).toBe(false)

    // Every attempt in events.md and issue.json.
    const events = (await stateFile(`.converge/issues/${N}/events.md`))!
    expect(events.match(/planning attempt \d \(planner command\)/g)).toEqual([1, 2, 3].map((k) => `planning attempt ${k} (planner command)`))
    expect(events).toContain('**Outcome**: INVALID JSON')
    expect(events).toContain('Not valid JSON at line 1, column')
    expect(events).toContain('**Outcome**: DEPENDENCY ERRORS')
    expect(events).toContain('- `tasks[0].depends_on`: Circular dependency: T1 → T2 → T1')
    expect(events).toContain('**Outcome**: ACCEPTED')
    expect(events).toContain(`ISS-${N}: plan SOL-ISS-${N}-1`)
    const issue = IssueStateSchema.parse(JSON.parse((await stateFile(`.converge/issues/${N}/issue.json`))!))
    expect(issue).toMatchObject({ status: 'planned', solution_id: `SOL-ISS-${N}-1` })
    expect(issue.plan_attempts!.map((a) => [a.attempt, a.outcome])).toEqual([[1, 'invalid_json'], [2, 'dag_errors'], [3, 'accepted']])

    // The sticky comment says how the plan came about.
    const [comment] = sticky()
    expect(sticky()).toHaveLength(1)
    expect(comment!.body).toContain('Planned with the command planner from the issue as last edited (attempt 3 of 3).')
    expect(comment!.body).toContain('planner command: plan accepted on attempt 3 of 3')
    expect(comment!.body).toContain('attempt 1 of 3: not valid JSON')
    expect(comment!.body).toContain('attempt 2 of 3: invalid task dependencies')
    expect(comment!.body).toContain('Circular dependency: T1 → T2 → T1')
    expect(comment!.body).toContain('attempt 3 of 3: accepted, gate pass (100/100)')
    expect(comment!.body).not.toContain('sk-ant-test')
  })

  it('fails the issue with the last errors when no attempt gives a usable plan', async () => {
    const run = await runAction({
      gh, event: issueCommentEvent({ gh, issue: N, body: '/converge plan', sender: 'alice' }),
      inputs: { ...AGENT, 'max-iterations': '2', 'planner-env': 'STEPS' }, env: { STEPS: 'bad-json,cycle' },
    })
    expect(run.exitCode).toBe(0)
    expect(run.outputs).toMatchObject({ status: 'failed', 'quality-gate': 'fail', 'solution-id': '' })
    expect(run.warnings).toEqual([`ISS-${N}: the plan was rejected (1 errors after 2 attempts); see the issue comment`])
    expect(await gh.state.listFiles(BRANCH)).toEqual([`.converge/issues/${N}/events.md`, `.converge/issues/${N}/issue.json`, '.converge/state.json'])
    const issue = IssueStateSchema.parse(JSON.parse((await stateFile(`.converge/issues/${N}/issue.json`))!))
    expect(issue).toMatchObject({ status: 'failed', error: expect.stringContaining('Circular dependency: T1 → T2 → T1') })
    expect(issue.plan_attempts!.map((a) => a.outcome)).toEqual(['invalid_json', 'dag_errors'])
    const body = sticky()[0]!.body
    expect(body).toContain('Planning failed: the planner command wrote no usable plan in 2 attempts; the last one has 1 error.')
    expect(body).toContain('**The plan cannot be used**: 1 error.')
    expect(body).toContain('attempt 1 of 2: not valid JSON')
  })

  it('fails the step, changing nothing, when planner-command is empty', async () => {
    const run = await runAction({ gh, event: issueLabeledEvent({ gh, issue: N, label: 'converge:plan', sender: 'alice' }), inputs: { planner: 'command' } })
    expect(run.exitCode).toBe(1)
    expect(run.errors).toEqual([expect.stringContaining('planner: command needs planner-command')])
    expect(await gh.state.branchHead(BRANCH)).toBeNull()
  })
})
