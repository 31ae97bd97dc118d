import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { identityEnv, runGit } from '../../src/git/git.js'
import { costBudget } from '../../src/execute/budget.js'
import { convergeTask, type ControlDecision, type TaskLoopOptions } from '../../src/execute/task-loop.js'
import { LoopStateSchema, TaskResultSchema, type LoopState, type Task } from '../../src/model/index.js'
import { task as baseTask } from '../support/tasks.js'
import { TaskInputSchema } from '../../src/model/task.js'

const EXECUTORS = resolve(import.meta.dirname, '../fixtures/executors')
const script = (name: string, ...args: string[]) =>
  ['node', JSON.stringify(join(EXECUTORS, name)), ...args].join(' ')
const CHECK = script('check-state.mjs')

let root: string
let repo: string
let work: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'converge-task-loop-'))
  repo = join(root, 'repo')
  work = join(root, 'work')
  const git = (...args: string[]) =>
    runGit(['-c', 'commit.gpgsign=false', ...args], { cwd: repo, env: identityEnv({ name: 'T', email: 't@example.com' }) })
  await runGit(['init', '--quiet', repo], { cwd: root })
  await writeFile(join(repo, 'state.txt'), 'broken\n')
  await git('add', 'state.txt')
  await git('commit', '--quiet', '-m', 'initial')
})
afterEach(() => rm(root, { recursive: true, force: true }))

function task(overrides: Partial<Task> = {}): Task {
  return {
    ...baseTask('T1'),
    title: 'Fix the state',
    files: [{ path: 'state.txt', action: 'modify', target: null, changes: ['Write "fixed"'] }],
    test: { commands: [CHECK], unit: [], integration: [] },
    convergence: { criteria: ['state.txt says fixed'], verification: '', definition_of_done: 'The state is fixed' },
    ...overrides,
  }
}

function options(overrides: Partial<TaskLoopOptions> = {}): TaskLoopOptions & { loops: LoopState[] } {
  const loops: LoopState[] = []
  return {
    issue: { number: 42, title: 'State is broken' },
    solutionId: 'SOL-ISS-42-1',
    repoDir: repo,
    workDir: work,
    executorCommand: 'none',
    maxIterations: 3,
    timeoutMs: 10_000,
    checkControl: async () => 'continue',
    onLoop: (loop) => void loops.push(loop),
    ...overrides,
    loops,
  }
}

describe('convergeTask', () => {
  it('does not run again, in the same round, an executor that changed nothing and got the same failure (issue 34)', async () => {
    const outcome = await convergeTask(task(), options({ executorCommand: 'true' }))
    expect(outcome.result.status).toBe('failed')
    expect(outcome.result.executor_runs).toHaveLength(2)
    expect(outcome.result.error).toMatch(/^Not converged after 2 attempts \(stopped: the last attempt changed nothing and failed the same way\): /)
    // An executor that changes something each time gets every attempt.
    const changing = await convergeTask(task(), options({ executorCommand: `node -e "require('fs').appendFileSync('state.txt', 'x')"` }))
    expect(changing.result.executor_runs).toHaveLength(3)
  })

  it('runs both commands of a verification written as an array (issue 17)', async () => {
    const mark = (name: string) => `node -e "require('fs').writeFileSync('${name}', 'ran')"`
    const read = TaskInputSchema.parse({
      id: 'T1', title: 'Fix the state',
      convergence: { criteria: ['state.txt says fixed'], verification: [mark('first.txt'), mark('second.txt')] },
    })
    const outcome = await convergeTask({ ...task(), test: { commands: [], unit: [], integration: [] }, convergence: read.convergence }, options())
    const commands = outcome.result.convergence_verified.filter((v) => v.kind === 'command')
    expect(commands.map((v) => [v.verdict, v.exit_code])).toEqual([['pass', 0], ['pass', 0]])
    expect(existsSync(join(work, 'first.txt')) || existsSync(join(repo, 'first.txt'))).toBe(true)
    expect(existsSync(join(work, 'second.txt')) || existsSync(join(repo, 'second.txt'))).toBe(true)
  })

  it('completes when the executor makes the commands pass on the first attempt', async () => {
    const opts = options({ executorCommand: script('write-state.mjs', 'fixed'), env: { EXTRA: 'yes' } })
    const outcome = await convergeTask(task(), opts)

    expect(outcome.status).toBe('completed')
    expect(TaskResultSchema.parse(outcome.result)).toMatchObject({
      task_id: 'T1', status: 'completed', attempts: 1, tests_passed: true, error: null, files_modified: [], commit_hash: null,
    })
    expect(outcome.result.convergence_verified).toEqual([
      expect.objectContaining({ kind: 'command', text: CHECK, verdict: 'pass', verified_by: 'command', exit_code: 0, timed_out: false, tests_passed: 1, tests_failed: 0 }),
      { kind: 'criterion', text: 'state.txt says fixed', verdict: 'pending', verified_by: 'manual' },
    ])
    expect(await readFile(join(repo, 'state.txt'), 'utf8')).toBe('fixed\n')

    const attempt = join(work, 'attempt-1')
    expect(JSON.parse(await readFile(join(attempt, 'task.json'), 'utf8'))).toEqual(task())
    expect(await readFile(join(attempt, 'prompt.md'), 'utf8')).toContain('# T1: Fix the state')
    expect(await readFile(join(attempt, 'feedback.md'), 'utf8')).toBe('')
    const env = JSON.parse(await readFile(join(attempt, 'env.json'), 'utf8'))
    expect(env.converge).toEqual({
      CONVERGE_TASK_FILE: join(attempt, 'task.json'),
      CONVERGE_PROMPT_FILE: join(attempt, 'prompt.md'),
      CONVERGE_FEEDBACK_FILE: join(attempt, 'feedback.md'),
      CONVERGE_RESULT_FILE: join(attempt, 'result.json'),
      CONVERGE_AGENT_OUTPUT_FILE: join(attempt, 'agent-output'),
      CONVERGE_ISSUE: '42',
      CONVERGE_TASK_ID: 'T1',
      CONVERGE_ATTEMPT: '1',
      // Every process of the run carries it, so that none outlives its command (process-group.ts endTagged).
      CONVERGE_PROCESS_TAG: expect.stringMatching(/^[0-9a-f]{24}$/),
    })
    expect(env.names).toContain('EXTRA')
    expect(env.names.filter((n: string) => /TOKEN|^INPUT_/.test(n))).toEqual([])

    const loop = LoopStateSchema.parse(outcome.loop)
    expect(loop).toMatchObject({ status: 'running', current_iteration: 1 })
    expect(loop.skill_state).toMatchObject({
      current_action: 'complete',
      completed_actions: ['develop', 'validate'],
      develop: { total: 1, completed: 1, tasks: [{ id: 'T1', status: 'completed', tool: 'executor' }] },
      validate: { passed: true, pass_rate: 100, failed_tests: [], test_results: [{ test_name: CHECK, suite: 'T1', status: 'passed' }] },
    })
    expect(opts.loops.map((l) => l.skill_state?.current_action)).toEqual(['init', 'develop', 'validate', 'validate', 'complete'])
  })

  it('feeds the failing command and its output back, and converges on the second attempt', async () => {
    const outcome = await convergeTask(task(), options({ executorCommand: script('learn-from-feedback.mjs') }))

    expect(outcome.status).toBe('completed')
    expect(outcome.result.attempts).toBe(2)
    const feedback = await readFile(join(work, 'attempt-2', 'feedback.md'), 'utf8')
    expect(feedback).toContain(`## \`${CHECK}\` exited with code 1`)
    expect(feedback).toContain('AssertionError: expected "first guess" to be "fixed"')
    expect(feedback).toContain('0 passed, 1 failed')
    // The error line survives even though the noise before it is cut.
    expect(feedback).not.toContain('noise line 0\n')
    expect(await readFile(join(work, 'attempt-2', 'prompt.md'), 'utf8')).toContain('## The previous attempt did not converge')
    expect(outcome.loop.current_iteration).toBe(2)
    expect(outcome.loop.skill_state).toMatchObject({
      current_action: 'complete',
      completed_actions: ['develop', 'validate', 'debug', 'validate'],
      debug: { iteration: 1, active_bug: null },
    })
  })

  it('fails after maxIterations, saying which command failed and why', async () => {
    const outcome = await convergeTask(task(), options({ executorCommand: script('write-state.mjs', 'wrong'), maxIterations: 2 }))

    expect(outcome.status).toBe('failed')
    expect(outcome.result).toMatchObject({ status: 'failed', attempts: 2, tests_passed: false })
    expect(outcome.result.error).toBe(
      `Not converged after 2 attempts: \`${CHECK}\` exited with code 1 (AssertionError: expected "wrong" to be "fixed")`,
    )
    expect(outcome.result.convergence_verified[0]).toMatchObject({ verdict: 'fail', exit_code: 1, tests_passed: 0, tests_failed: 1 })
    expect(await readdir(work)).toEqual(['attempt-1', 'attempt-2'])
    expect(outcome.loop.skill_state).toMatchObject({
      current_action: null,
      develop: { completed: 0, tasks: [{ id: 'T1', status: 'failed' }] },
      validate: { passed: false, pass_rate: 0, failed_tests: [CHECK] },
    })
    expect(outcome.loop.skill_state!.errors).toHaveLength(2)
  })

  it('kills a hanging verification command at the timeout and records it', async () => {
    const hang = `node -e "setTimeout(() => {}, 60000)"`
    const outcome = await convergeTask(
      task({ test: { commands: [hang], unit: [], integration: [] } }),
      options({ timeoutMs: 300 }),
    )

    expect(outcome.status).toBe('failed')
    expect(outcome.result.convergence_verified[0]).toMatchObject({ verdict: 'fail', timed_out: true, exit_code: null })
    expect(outcome.result.convergence_verified[0]!.duration_ms).toBeLessThan(5000)
    expect(outcome.result.error).toMatch(/^Not converged after 1 attempt: `node -e .*` timed out after [\d.]+ s$/)
  })

  it('with executor none, only verifies, once', async () => {
    await writeFile(join(repo, 'state.txt'), 'fixed\n')
    const passed = await convergeTask(task(), options({ executorCommand: '  none ' }))
    expect(passed).toMatchObject({ status: 'completed', result: { attempts: 1 } })
    expect(passed.loop.skill_state).toMatchObject({ completed_actions: ['validate'], develop: { tasks: [{ tool: 'none' }] } })
    expect(existsSync(work)).toBe(false)

    await writeFile(join(repo, 'state.txt'), 'broken\n')
    const failed = await convergeTask(task(), options({ executorCommand: '', maxIterations: 5 }))
    expect(failed).toMatchObject({ status: 'failed', result: { attempts: 1 } })
  })

  it('marks a non-command criterion met only from the executor report', async () => {
    const criteriaOnly = task({
      test: { commands: [], unit: [], integration: [] },
      convergence: { criteria: ['The greeting is friendly'], verification: 'Manual: read the greeting', definition_of_done: '' },
    })
    const met = await convergeTask(criteriaOnly, options({ executorCommand: script('report-criteria.mjs', 'met') }))
    expect(met.status).toBe('completed')
    expect(met.result.tests_passed).toBeNull()
    expect(met.result.convergence_verified).toEqual([
      { kind: 'criterion', text: 'The greeting is friendly', verdict: 'pass', verified_by: 'agent', output_tail: 'checked by met' },
      { kind: 'criterion', text: 'Manual: read the greeting', verdict: 'pending', verified_by: 'manual' },
    ])

    const unmet = await convergeTask(criteriaOnly, options({ executorCommand: script('report-criteria.mjs', 'unmet'), maxIterations: 2 }))
    expect(unmet.result).toMatchObject({ status: 'failed', attempts: 2, error: 'Not converged after 2 attempts: "The greeting is friendly" not met' })
    expect(await readFile(join(work, 'attempt-2', 'feedback.md'), 'utf8')).toContain('- The greeting is friendly — checked by unmet')

    const garbage = await convergeTask(criteriaOnly, options({ executorCommand: script('report-criteria.mjs', 'garbage'), maxIterations: 1 }))
    expect(garbage.result.error).toBe('Not converged after 1 attempt: no verification command to run and no executor report')
    expect(garbage.loop.skill_state!.errors[0]!.message).toMatch(/^T1: ignored the executor's report: /)

    const unverifiable = await convergeTask(criteriaOnly, options())
    expect(unverifiable.result.error).toBe('Not converged after 1 attempt: no verification command to run and no executor report')
  })

  it('never reads a report an earlier run left in its folder: each attempt starts in an empty one', async () => {
    const criteriaOnly = task({
      test: { commands: [], unit: [], integration: [] },
      convergence: { criteria: ['The greeting is friendly'], verification: '', definition_of_done: '' },
    })
    // An earlier run (another repository's, another user's, with the same issue and task) reported every criterion met.
    expect((await convergeTask(criteriaOnly, options({ executorCommand: script('report-criteria.mjs', 'met') }))).status).toBe('completed')
    expect(existsSync(join(work, 'attempt-1', 'result.json'))).toBe(true)
    const silent = await convergeTask(criteriaOnly, options({ executorCommand: 'true', maxIterations: 1 }))
    expect(silent.result).toMatchObject({ status: 'failed', error: 'Not converged after 1 attempt: no verification command to run and no executor report' })
  })

  it('records the report next to passing commands without letting it decide', async () => {
    const outcome = await convergeTask(
      task({ test: { commands: ['true'], unit: [], integration: [] } }),
      options({ executorCommand: script('report-criteria.mjs', 'unmet') }),
    )
    expect(outcome.status).toBe('completed')
    expect(outcome.result.convergence_verified[1]).toMatchObject({ verdict: 'fail', verified_by: 'agent' })
  })

  it('pauses before the second attempt, keeping the progress of the first', async () => {
    const decisions: ControlDecision[] = ['continue', 'continue', 'pause']
    const outcome = await convergeTask(
      task(),
      options({ executorCommand: script('write-state.mjs', 'wrong'), checkControl: async () => decisions.shift() ?? 'continue' }),
    )

    expect(outcome.status).toBe('paused')
    expect(outcome.result).toMatchObject({ attempts: 1, error: 'Paused before the executor run of attempt 2' })
    expect(outcome.result.convergence_verified[0]).toMatchObject({ verdict: 'fail', exit_code: 1 })
    expect(await readdir(work)).toEqual(['attempt-1'])
    expect(outcome.loop).toMatchObject({ status: 'paused', current_iteration: 1 })
    expect(outcome.loop.skill_state).toMatchObject({ current_action: 'paused', last_action: 'validate', develop: { tasks: [{ status: 'pending' }] } })
  })

  it('stops before a verification command and continues a loop it was given', async () => {
    const first = await convergeTask(task({ id: 'T1', test: { commands: ['true'], unit: [], integration: [] } }), options())
    const outcome = await convergeTask(task({ id: 'T2' }), options({ loop: first.loop, checkControl: async () => 'stop' }))

    expect(outcome.status).toBe('stopped')
    expect(outcome.result.error).toBe(`Stopped before \`${CHECK}\` (attempt 1)`)
    expect(outcome.loop).toMatchObject({ status: 'failed', failure_reason: `T2: Stopped before \`${CHECK}\` (attempt 1)`, current_iteration: 2 })
    expect(outcome.loop.skill_state!.develop).toMatchObject({
      total: 2, completed: 1, tasks: [{ id: 'T1', status: 'completed' }, { id: 'T2', status: 'failed' }],
    })
  })

  it('never runs issue or plan text as shell: it reaches the executor only in files', async () => {
    const hostile = 'Fix $(touch pwned) and `touch pwned2`'
    const outcome = await convergeTask(
      task({ title: hostile, test: { commands: ['true'], unit: [], integration: [] } }),
      options({ issue: { number: 42, title: hostile }, executorCommand: 'cat "$CONVERGE_PROMPT_FILE" "$CONVERGE_TASK_FILE" > /dev/null' }),
    )

    expect(outcome.status).toBe('completed')
    for (const dir of [repo, work, join(work, 'attempt-1'), process.cwd()]) {
      expect(existsSync(join(dir, 'pwned'))).toBe(false)
      expect(existsSync(join(dir, 'pwned2'))).toBe(false)
    }
    const prompt = await readFile(join(work, 'attempt-1', 'prompt.md'), 'utf8')
    expect(prompt).toContain(`# T1: ${hostile}`)
    expect(prompt).toContain(`Issue #42: ${hostile}`)
  })

  it('records a failing executor as a loop error and lets verification judge', async () => {
    const outcome = await convergeTask(task({ test: { commands: ['true'], unit: [], integration: [] } }), options({ executorCommand: 'exit 7' }))
    expect(outcome.status).toBe('completed')
    expect(outcome.loop.skill_state!.errors.map((e) => e.message)).toEqual(['T1: the executor exited with code 7'])
    expect(outcome.result.executor_runs).toEqual([
      { attempt: 1, exit_code: 7, signal: null, timed_out: false, duration_ms: expect.any(Number), output_tail: '', agent: null },
    ])
  })

  it('says first that the executor failed, with the agent\'s own error, and stops retrying a failure that repeats', async () => {
    // An agent CLI whose model is overloaded: exits 1 and reports the API error in its JSON result.
    const agent = `printf '%s' '{"type":"result","subtype":"success","is_error":true,"result":"API Error: 529 Overloaded","num_turns":1,"total_cost_usd":0,"usage":{"input_tokens":0,"output_tokens":0}}' > "$CONVERGE_AGENT_OUTPUT_FILE"; echo 'claude: request failed' >&2; exit 1`
    const outcome = await convergeTask(task({ test: { commands: ['false'], unit: [], integration: [] } }), options({ executorCommand: agent, maxIterations: 5 }))
    expect(outcome.status).toBe('failed')
    expect(outcome.result.attempts).toBe(2)
    expect(outcome.result.error).toMatch(/^the executor exited with code 1: API Error: 529 Overloaded \(stopped after 2 attempts: the executor failed the same way each time\)\. Not converged after 2 attempts: /)
    expect(outcome.result.executor_runs).toHaveLength(2)
    expect(outcome.result.executor_runs![0]).toMatchObject({
      exit_code: 1,
      output_tail: 'claude: request failed\n',
      agent: { format: 'claude-json', error: 'API Error: 529 Overloaded', usage: { input_tokens: 0, output_tokens: 0, turns: 1, cost_usd: 0 } },
    })
  })

  it('a refused key ends the task at the first run: no second attempt, no verification, the agent\'s words and what to set', async () => {
    const agent = `printf '%s' '{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key · Fix external API key","num_turns":1,"usage":{}}' > "$CONVERGE_AGENT_OUTPUT_FILE"; exit 1`
    const verified = join(work, 'verified')
    const outcome = await convergeTask(task({ test: { commands: [`touch ${verified}`], unit: [], integration: [] } }), options({ executorCommand: agent, maxIterations: 5 }))
    expect(outcome.status).toBe('failed')
    expect(outcome.result.attempts).toBe(1)
    expect(outcome.result.error).toBe("the agent's credentials were refused: Invalid API key · Fix external API key; check the agent's API key or login: the task ends, nothing was verified (attempt 1)")
    expect(outcome.result.convergence_verified).toEqual([])
    expect(existsSync(verified)).toBe(false)
    // With a preset, the variable to set: a `codex` on PATH that prints what Codex 0.169 prints for a refused key.
    const bin = join(root, 'bin')
    await mkdir(bin)
    const failed = JSON.stringify({ type: 'turn.failed', error: { message: 'unexpected status 401 Unauthorized: Incorrect API key provided: sk-wrong***6789.' } })
    await writeFile(join(bin, 'codex'), `#!/bin/sh\necho '${failed}'\nexit 1\n`, { mode: 0o755 })
    const preset = await convergeTask(task(), options({ executorCommand: 'codex', maxIterations: 5, env: { PATH: `${bin}:${process.env.PATH}` } }))
    expect(preset.result.attempts).toBe(1)
    expect(preset.result.error).toMatch(/^the agent's credentials were refused: unexpected status 401 Unauthorized: Incorrect API key provided: sk-wrong\*\*\*6789\.; set CODEX_API_KEY \(/)
  })

  it('budget: charged by every executor run, it lets the running attempt finish and starts no other, leaving the task unfinished', async () => {
    const agent = (cost: number) => `printf '%s' '{"type":"result","subtype":"success","is_error":false,"result":"done","num_turns":3,"total_cost_usd":${cost},"usage":{"input_tokens":900,"output_tokens":40}}' > "$CONVERGE_AGENT_OUTPUT_FILE"`
    const budget = costBudget(0.01)
    const outcome = await convergeTask(task({ test: { commands: ['false'], unit: [], integration: [] } }), options({ executorCommand: agent(0.031), maxIterations: 3, budget }))
    expect(outcome.status).toBe('stopped')
    expect(outcome.result.attempts).toBe(1)
    expect(outcome.result.error).toBe('budget reached: $0.031 of $0.010 (max-cost-usd): attempt 2 did not start')
    expect(outcome.loop.status).toBe('failed')
    expect(outcome.loop.skill_state!.develop.tasks[0]!.status).toBe('pending')
    expect(budget.exhausted()).toBe('budget reached: $0.031 of $0.010 (max-cost-usd)')
  })

  it('budget: an agent that reports no cost cannot be held to a budget, so no other run starts (fail closed)', async () => {
    const budget = costBudget(5)
    const outcome = await convergeTask(task({ test: { commands: ['false'], unit: [], integration: [] } }), options({ executorCommand: 'echo working', maxIterations: 3, budget }))
    expect(outcome.status).toBe('stopped')
    expect(outcome.result.error).toMatch(/^the budget cannot be kept: T1's executor reported no cost \(max-cost-usd needs an agent that reports its cost, such as claude-code\)/)
  })

  it('max-turns: given to the executor as CONVERGE_MAX_TURNS; an agent that reports more turns fails the task unverified', async () => {
    const agent = `printf '%s' "{\\"type\\":\\"result\\",\\"subtype\\":\\"success\\",\\"is_error\\":false,\\"result\\":\\"max $CONVERGE_MAX_TURNS\\",\\"num_turns\\":14}" > "$CONVERGE_AGENT_OUTPUT_FILE"`
    const outcome = await convergeTask(task({ test: { commands: ['true'], unit: [], integration: [] } }), options({ executorCommand: agent, maxTurns: 10 }))
    expect(outcome.status).toBe('failed')
    expect(outcome.result.executor_runs![0]!.agent!.message).toBe('max 10')
    expect(outcome.result.error).toBe('the agent took 14 turns, more than max-turns 10: the task ends, nothing was verified (attempt 1)')
    expect(outcome.result.convergence_verified).toEqual([])
  })

  it('rejects a maxIterations below 1', async () => {
    await expect(convergeTask(task(), options({ maxIterations: 0 }))).rejects.toThrow(RangeError)
  })
})
