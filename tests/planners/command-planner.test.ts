/**
 * The agent planner (`planner: command`) with real processes: scripted planners stand in for an agent CLI, run
 * through `/bin/sh -c` in a git checkout, and the result is recorded on a local state branch.
 */
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, symlink, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../../src/cli/cli.js'
import { identityEnv, runGit } from '../../src/git/git.js'
import { IssueStateSchema, SolutionSchema } from '../../src/model/index.js'
import { analysePlan } from '../../src/plan/analyse.js'
import { approvePlan } from '../../src/pipeline/approve.js'
import { pipelinePlan } from '../../src/pipeline/plan-command.js'
import { commandPlan, PlanningCancelled, type CommandPlannerOptions } from '../../src/planners/command.js'
import { EXAMPLE_PLAN, fenced } from '../../src/planners/plan-prompt.js'
import { namedPaths, repositoryContext } from '../../src/planners/repo-context.js'
import type { IssueDocument } from '../../src/planners/types.js'
import { statePaths } from '../../src/model/state-layout.js'
import { LocalGitStore } from '../../src/state/local-git-store.js'
import { bareRepo, countCommits, type TempRepo } from '../support/temp-repos.js'

const ISSUE: IssueDocument = {
  number: 12,
  title: 'Add a truncate helper',
  labels: ['enhancement'],
  author: 'octocat',
  body: 'Add `truncate(text, max)` next to src/slug.js and document it in README.md.',
}

/** A valid plan that passes the quality gate. */
const GOOD_PLAN = {
  description: 'Add truncate and document it',
  analysis: { risk: 'low', impact: 'low', complexity: 'low' },
  tasks: [
    {
      id: 'T1', title: 'Add truncate', action: 'Create', description: 'Write the helper',
      files: [{ path: 'src/truncate.js', action: 'create', changes: ['Export truncate(text, max)'] }],
      implementation: ['Write truncate in src/truncate.js'],
      convergence: { criteria: ['truncate("abcdef", 3) returns "abc…"'] },
      test: { commands: ['node -e "process.exit(0)"'] },
      depends_on: [],
    },
    {
      id: 'T2', title: 'Document truncate', action: 'Update', description: 'Describe it in the README',
      files: [{ path: 'README.md', action: 'modify', changes: ['Add a truncate section'] }],
      implementation: ['Add a truncate section to README.md'],
      convergence: { criteria: ['README.md has a section named truncate'] },
      test: { commands: ['grep -q truncate README.md'] },
      depends_on: ['T1'],
    },
  ],
}

const CYCLE_PLAN = {
  ...GOOD_PLAN,
  tasks: [{ ...GOOD_PLAN.tasks[0], depends_on: ['T2'] }, GOOD_PLAN.tasks[1]],
}

/**
 * The scripted planner: what it writes depends on `$CONVERGE_ATTEMPT` and the `STEPS` environment variable
 * (comma-separated, one per attempt): `bad-json`, `cycle`, `good`, `weak` (fails the gate), `fenced` (the good plan
 * in a ```json block with prose around it), `none` (writes nothing, complains on stderr), `hang` (starts a
 * grandchild that records its pid, then never ends), `secret` (puts $API_KEY into the plan and its output), `edit`
 * (changes the checkout: a tracked file edited, one deleted, an untracked one added; then writes the good plan).
 * Each run appends what it saw to `$PLANNER_LOG`.
 */
const PLANNER = `
const fs = require('node:fs')
const { spawn } = require('node:child_process')
const attempt = Number(process.env.CONVERGE_ATTEMPT)
const step = (process.env.STEPS || 'good').split(',')[attempt - 1] || 'good'
const plans = ${JSON.stringify({ good: GOOD_PLAN, cycle: CYCLE_PLAN })}
fs.appendFileSync(process.env.PLANNER_LOG, JSON.stringify({
  attempt, step, argv: process.argv.slice(2),
  env: Object.keys(process.env).filter((k) => k.startsWith('CONVERGE_') || k.startsWith('INPUT_') || k === 'API_KEY' || k === 'GITHUB_TOKEN' || k === 'HOME').sort(),
  cwd: process.cwd(),
}) + '\\n')
const write = (text) => fs.writeFileSync(process.env.CONVERGE_PLAN_FILE, text)
if (step === 'bad-json') write('{\\n  "description": "Add truncate",\\n  "tasks": [\\n    { "id": "T1" "title": "x" }\\n  ]\\n}\\n')
else if (step === 'cycle') write(JSON.stringify(plans.cycle, null, 2))
else if (step === 'good') write(JSON.stringify(plans.good, null, 2))
else if (step === 'weak') write(JSON.stringify({ description: 'Do it', tasks: [{ id: 'T1', title: 'Do it', action: 'Fix' }] }))
else if (step === 'fenced') write('Here is the plan:\\n\\n\`\`\`json\\n' + JSON.stringify(plans.good, null, 2) + '\\n\`\`\`\\n')
else if (step === 'secret') { console.log('key is ' + process.env.API_KEY); write(JSON.stringify({ ...plans.good, description: 'uses ' + process.env.API_KEY })) }
else if (step === 'none') { console.error('planner: model unavailable'); process.exit(3) }
else if (step === 'plant') {
  // Leaves the repository something to run later, inside Converge's own git commands: a hook and an fsmonitor.
  const marker = process.env.PLANTED_MARKER
  fs.writeFileSync('.git/hooks/post-checkout', '#!/bin/sh\\necho hook >> ' + marker + '\\n', { mode: 0o755 })
  const fsmonitor = require('node:path').join(process.cwd(), '.git', 'fsmonitor.sh')
  fs.writeFileSync(fsmonitor, '#!/bin/sh\\necho fsmonitor >> ' + marker + '\\n', { mode: 0o755 })
  require('node:child_process').execFileSync('git', ['config', 'core.fsmonitor', fsmonitor])
  write(JSON.stringify(plans.good, null, 2))
}
else if (step === 'edit') {
  // What an agent told by the issue to "just fix it" does: edits, deletes and adds files, then writes a plan.
  fs.appendFileSync('README.md', 'planner was here\\n')
  fs.rmSync('src/other.js')
  fs.writeFileSync('src/new.js', 'export const injected = 1\\n')
  write(JSON.stringify(plans.good, null, 2))
}
else if (step === 'hang') {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  fs.writeFileSync(process.env.PID_FILE, String(child.pid))
  setInterval(() => {}, 1000)
}
`

describe('the command planner (real processes)', () => {
  let dir: string
  let repoDir: string
  let state: TempRepo
  let store: LocalGitStore
  let log: string
  let script: string

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-command-planner-'))
    repoDir = join(dir, 'repo')
    await mkdir(join(repoDir, 'src'), { recursive: true })
    await writeFile(join(repoDir, 'README.md'), '# project\n\nSlug helpers.\n')
    await writeFile(join(repoDir, 'src', 'slug.js'), 'export const slug = (s) => s.toLowerCase()\n')
    await writeFile(join(repoDir, 'src', 'other.js'), 'export const other = 1\n')
    const git = (...args: string[]) => runGit(['-c', 'commit.gpgsign=false', ...args], { cwd: repoDir, env: identityEnv({ name: 'T', email: 't@example.com' }) })
    await git('init', '-q', '-b', 'main')
    await git('add', '-A')
    await git('commit', '-q', '-m', 'initial')
    state = await bareRepo()
    store = new LocalGitStore({ repoDir: state.dir })
    log = join(dir, 'planner.log')
    script = join(dir, 'planner.cjs')
    await writeFile(script, PLANNER)
  })
  afterEach(async () => {
    await state.cleanup()
    await rm(dir, { recursive: true, force: true })
  })

  const options = (steps: string, extra: Partial<CommandPlannerOptions> = {}): CommandPlannerOptions => ({
    command: `node ${script}`,
    repoDir,
    workDir: join(dir, 'work'),
    maxIterations: 3,
    timeoutMs: 20_000,
    plannerEnv: { STEPS: steps, PLANNER_LOG: log, API_KEY: 'sk-test-0123456789abcdef' },
    baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    secrets: ['sk-test-0123456789abcdef'],
    ...extra,
  })
  const runs = async () => (await readFile(log, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { attempt: number; step: string; env: string[]; argv: string[]; cwd: string })

  it('feeds back invalid JSON, then a cycle, and commits the third plan with every attempt recorded', async () => {
    const { output, result } = await pipelinePlan(store, ISSUE, 'command', '2026-02-01T00:00:00Z', undefined, { command: options('bad-json,cycle,good') })

    expect(output.planner).toBe('command')
    expect(output.attempts!.map((a) => a.outcome)).toEqual(['invalid_json', 'dag_errors', 'accepted'])
    expect(output.attempts!.map((a) => a.attempt)).toEqual([1, 2, 3])
    expect(output.attempts![0]!.errors[0]).toMatch(/^\(root\): Not valid JSON at line 4, column 18/)
    expect(output.attempts![1]!.errors).toEqual(['tasks[0].depends_on: Circular dependency: T1 → T2 → T1'])
    expect(output.attempts![2]).toMatchObject({ errors: [], gate: 'pass', exit_code: 0, timed_out: false })

    // The third plan is committed, in one commit, with the attempts in events.md and issue.json.
    expect(result.analysis.errors).toEqual([])
    expect(result.solution!.id).toBe('SOL-ISS-12-1')
    expect(result.solution!.tasks.map((t) => [t.id, t.depends_on])).toEqual([['T1', []], ['T2', ['T1']]])
    expect(await countCommits(state, store.branch)).toBe(1)
    expect(await state.git('log', '-1', '--format=%s', store.branch)).toBe('ISS-12: planned SOL-ISS-12-1 (2 tasks, gate pass, 3 attempts)')
    const snapshot = await store.snapshot()
    const plan = SolutionSchema.parse(JSON.parse((await snapshot.read(statePaths.plan(12)))!))
    expect(plan.description).toBe(GOOD_PLAN.description)
    const issue = IssueStateSchema.parse(JSON.parse((await snapshot.read(statePaths.issue(12)))!))
    expect(issue.status).toBe('planned')
    expect(issue.plan_attempts!.map((a) => a.outcome)).toEqual(['invalid_json', 'dag_errors', 'accepted'])
    const events = (await snapshot.read(statePaths.events(12)))!
    expect(events).toContain('ISS-12: planning attempt 1 (planner command)')
    expect(events).toContain('**Outcome**: INVALID JSON')
    expect(events).toContain('ISS-12: planning attempt 2 (planner command)')
    expect(events).toContain('- `tasks[0].depends_on`: Circular dependency: T1 → T2 → T1')
    expect(events).toContain('**Outcome**: ACCEPTED | **Command**: exit code 0')
    expect(events.indexOf('planning attempt 3')).toBeLessThan(events.indexOf('plan SOL-ISS-12-1'))

    // The feedback: of attempt 2 about the JSON, of attempt 3 about the cycle, in the file and in the prompt.
    const work = output.workDir!
    const feedback = (n: number) => readFile(join(work, `attempt-${n}`, 'feedback.md'), 'utf8')
    const prompt = (n: number) => readFile(join(work, `attempt-${n}`, 'prompt.md'), 'utf8')
    expect(await feedback(1)).toBe('')
    expect(await feedback(2)).toContain('# Attempt 1 of 3 was not accepted: not valid JSON')
    expect(await feedback(2)).toContain('Not valid JSON at line 4, column 18: comma expected')
    expect(await feedback(2)).not.toContain('Circular')
    expect(await feedback(3)).toContain('# Attempt 2 of 3 was not accepted: invalid task dependencies')
    expect(await feedback(3)).toContain('Circular dependency: T1 → T2 → T1')
    expect(await prompt(2)).toContain('## Why the previous attempt was not accepted\n\nFix every point below, then write the whole plan again.\n\n### Attempt 1 of 3 was not accepted: not valid JSON')
    expect(await prompt(2)).toContain('Not valid JSON at line 4, column 18')
    expect(await prompt(3)).toContain('Circular dependency: T1 → T2 → T1')
    expect(await prompt(1)).not.toContain('## Why the previous attempt was not accepted')

    // The notes, shown in the sticky comment.
    expect(output.notes[0]).toBe('planner command: plan accepted on attempt 3 of 3')
    expect(output.notes).toContainEqual(expect.stringMatching(/^attempt 1 of 3: not valid JSON — \(root\): Not valid JSON at line 4/))
    expect(output.notes).toContainEqual(expect.stringMatching(/^attempt 2 of 3: invalid task dependencies — tasks\[0\]\.depends_on: Circular dependency/))
    expect(output.notes).toContainEqual(expect.stringMatching(/^attempt 3 of 3: accepted, gate pass \(100\/100\) \(exit 0, /))
  })

  it('gives the command the prompt files, the executor environment and the checkout, and nothing on its command line', async () => {
    const { baseEnv: _default, ...rest } = options('good')
    const saved = { token: process.env.GITHUB_TOKEN, input: process.env.INPUT_GITHUB_TOKEN }
    process.env.GITHUB_TOKEN = 'ghs_not_for_the_planner'
    process.env.INPUT_GITHUB_TOKEN = 'ghs_not_for_the_planner'
    try {
      await commandPlan(ISSUE, rest)
    } finally {
      if (saved.token === undefined) delete process.env.GITHUB_TOKEN
      else process.env.GITHUB_TOKEN = saved.token
      if (saved.input === undefined) delete process.env.INPUT_GITHUB_TOKEN
      else process.env.INPUT_GITHUB_TOKEN = saved.input
    }
    const [run] = await runs()
    expect(run!.argv).toEqual([])
    expect(run!.cwd).toBe(repoDir)
    expect(run!.env).toEqual([
      'API_KEY', 'CONVERGE_AGENT_OUTPUT_FILE', 'CONVERGE_ATTEMPT', 'CONVERGE_ISSUE', 'CONVERGE_MAX_ATTEMPTS', 'CONVERGE_PLAN_FEEDBACK_FILE', 'CONVERGE_PLAN_FILE',
      // CONVERGE_PROCESS_TAG: every process of the command carries it, so that none outlives it (processes/process-group.ts).
      'CONVERGE_PLAN_PROMPT_FILE', 'CONVERGE_PLAN_SCHEMA_FILE', 'CONVERGE_PROCESS_TAG', 'CONVERGE_PROMPT_FILE', ...(process.env.HOME ? ['HOME'] : []),
    ])
  })

  it('writes a prompt with the issue, the file list, the files the issue names, the schema and the output path', async () => {
    const output = await commandPlan(ISSUE, options('good'))
    const prompt = await readFile(join(output.workDir, 'attempt-1', 'prompt.md'), 'utf8')
    expect(prompt).toContain('# Plan issue #12: Add a truncate helper')
    expect(prompt).toContain(join(output.workDir, 'attempt-1', 'plan.json'))
    expect(prompt).toContain('- Labels: enhancement')
    expect(prompt).toContain(ISSUE.body)
    expect(prompt).toContain('### Tracked files (3)')
    expect(prompt).toContain('README.md\nsrc/other.js\nsrc/slug.js')
    expect(prompt).toContain('#### src/slug.js\n\n```js\nexport const slug = (s) => s.toLowerCase()\n```')
    expect(prompt).toContain('#### README.md')
    expect(prompt).not.toContain('#### src/other.js')
    expect(prompt).toContain('"title": "Converge solution (every accepted variant)"')
    const schema = JSON.parse(await readFile(join(output.workDir, 'attempt-1', 'solution.schema.json'), 'utf8')) as { title: string }
    expect(schema.title).toBe('Converge solution (every accepted variant)')
    expect(output.notes[1]).toBe('gave the planner the issue, the JSON Schema, the paths of 3 tracked files, and the text of src/slug.js, README.md')
  })

  it('fails the issue with the last error when the command never writes a plan', async () => {
    const { output, result } = await pipelinePlan(store, ISSUE, 'command', '2026-02-01T00:00:00Z', undefined, { command: options('none,none', { maxIterations: 2 }) })
    expect(output.attempts!.map((a) => [a.outcome, a.exit_code])).toEqual([['no_plan', 3], ['no_plan', 3]])
    expect(output.error).toMatchObject({ code: 'no_plan_file', message: expect.stringContaining('wrote no plan to $CONVERGE_PLAN_FILE (exited with code 3') })
    expect(result.issueState).toMatchObject({ status: 'failed', error: expect.stringContaining('Plan rejected: 1 error ((root): The planner command wrote no plan') })
    expect(await state.git('log', '-1', '--format=%s', store.branch)).toBe('ISS-12: plan rejected (1 error after 2 attempts)')
    const issue = IssueStateSchema.parse(JSON.parse((await (await store.snapshot()).read(statePaths.issue(12)))!))
    expect(issue.plan_attempts).toHaveLength(2)
    expect(issue.feedback).toEqual([expect.objectContaining({ source: 'validation' })])
    const events = (await (await store.snapshot()).read(statePaths.events(12)))!
    expect(events.match(/\*\*Outcome\*\*: NO PLAN/g)).toHaveLength(2)
    expect(events).toContain('plan rejected')
    // The command's own complaint is fed back.
    const feedback = await readFile(join(output.workDir!, 'attempt-2', 'feedback.md'), 'utf8')
    expect(feedback).toContain('planner: model unavailable')
    expect(output.notes[0]).toBe('planner command: no usable plan in 2 attempts; the errors of the last attempt are reported')

    // A rerun of the agent is recorded even when it fails the same way.
    await pipelinePlan(store, ISSUE, 'command', '2026-02-01T00:01:00Z', undefined, { command: options('none', { maxIterations: 1 }) })
    expect(await countCommits(state, store.branch)).toBe(2)
  })

  it('stops at the first attempt whose agent says its key was refused, with its words and the variable to set', async () => {
    // What Claude Code prints for a refused key, from a `claude` on PATH, run by the claude-code preset.
    const bin = join(dir, 'bin')
    await mkdir(bin)
    await writeFile(join(bin, 'claude'), `#!/bin/sh\necho '${JSON.stringify({ type: 'result', subtype: 'success', is_error: true, result: 'Invalid API key · Fix external API key' })}'\nexit 1\n`, { mode: 0o755 })
    const output = await commandPlan(ISSUE, options('none', { command: 'claude-code', baseEnv: { PATH: `${bin}:${process.env.PATH}` } }))
    expect(output.attempts).toHaveLength(1)
    expect(output.notes).toContain("planner command: the agent's credentials were refused: Invalid API key · Fix external API key; set ANTHROPIC_API_KEY (an Anthropic API key, from a secret in the step's `env:`); no other attempt")
  })

  it('puts back a checkout the planner changed, and stops planning with that as the error', async () => {
    // Uncommitted work of the user's is kept as it was: staged and unstaged.
    await writeFile(join(repoDir, 'src', 'slug.js'), 'export const slug = (s) => s.trim()\n')
    await runGit(['add', 'src/slug.js'], { cwd: repoDir })
    await writeFile(join(repoDir, 'src', 'slug.js'), 'export const slug = (s) => s.trim().toLowerCase()\n')
    await writeFile(join(repoDir, 'notes.txt'), 'mine\n')
    const status = async () => (await runGit(['status', '--porcelain=v1', '--untracked-files=all'], { cwd: repoDir })).stdout
    const before = await status()
    const head = (await runGit(['rev-parse', 'HEAD'], { cwd: repoDir })).stdout

    const output = await commandPlan(ISSUE, options('edit,good,good'))
    expect(output.attempts.map((a) => a.outcome)).toEqual(['changed_checkout'])
    expect(output.error).toMatchObject({ code: 'changed_checkout' })
    expect(output.error!.message).toBe('The planner command changed README.md, src/new.js, src/other.js in the checkout; Converge put the checkout back as it was and did not read its plan')
    expect(output.raw).toBeUndefined()
    expect(output.notes[0]).toBe('planner command: stopped at attempt 1, which changed the checkout (put back as it was); a planner may only write $CONVERGE_PLAN_FILE')

    expect(await status()).toBe(before)
    expect((await runGit(['rev-parse', 'HEAD'], { cwd: repoDir })).stdout).toBe(head)
    expect(await readFile(join(repoDir, 'README.md'), 'utf8')).toBe('# project\n\nSlug helpers.\n')
    expect(existsSync(join(repoDir, 'src', 'new.js'))).toBe(false)
    expect(await readFile(join(repoDir, 'src', 'slug.js'), 'utf8')).toBe('export const slug = (s) => s.trim().toLowerCase()\n')
    expect((await runGit(['show', ':src/slug.js'], { cwd: repoDir })).stdout).toBe('export const slug = (s) => s.trim()\n')
  })

  it("puts back the repository's config and hooks a planner planted, before any git command could run them", async () => {
    const marker = join(dir, 'planted.log')
    const config = await readFile(join(repoDir, '.git', 'config'), 'utf8')
    const output = await commandPlan(ISSUE, options('plant', { plannerEnv: { STEPS: 'plant', PLANNER_LOG: log, PLANTED_MARKER: marker } }))
    expect(output.attempts.map((a) => a.outcome)).toEqual(['changed_checkout'])
    expect(output.error!.message).toBe('The planner command changed .git/config, .git/hooks/post-checkout in the checkout; Converge put the checkout back as it was and did not read its plan')
    expect(await readFile(join(repoDir, '.git', 'config'), 'utf8')).toBe(config)
    expect(existsSync(join(repoDir, '.git', 'hooks', 'post-checkout'))).toBe(false)
    // Neither ran, in the guard's git commands or in a checkout made afterwards.
    await runGit(['checkout', '-q', '-b', 'after-planning'], { cwd: repoDir })
    await runGit(['status'], { cwd: repoDir })
    expect(existsSync(marker)).toBe(false)
  })

  it('puts back a commit a shell-template planner made, and records the attempt on the state branch', async () => {
    const command = `printf 'pwned\\n' >> README.md && git -c user.name=x -c user.email=x@example.com commit -qam pwned && node ${script}`
    const { output, result } = await pipelinePlan(store, ISSUE, 'command', '2026-02-01T00:00:00Z', undefined, { command: options('good', { command }) })
    expect(output.attempts!.map((a) => a.outcome)).toEqual(['changed_checkout'])
    expect(output.error!.message).toMatch(/^The planner command moved HEAD and changed README.md in the checkout/)
    expect((await runGit(['log', '--format=%s'], { cwd: repoDir })).stdout.trim()).toBe('initial')
    expect((await runGit(['status', '--porcelain'], { cwd: repoDir })).stdout).toBe('')
    expect(result.issueState.status).toBe('failed')
    expect(result.issueState.plan_attempts!.map((a) => [a.outcome, a.errors])).toEqual([['changed_checkout', [`(root): ${output.error!.message}`]]])
  })

  it('kills a hanging command and what it started at the timeout', async () => {
    const pidFile = join(dir, 'grandchild.pid')
    const started = Date.now()
    const output = await commandPlan(ISSUE, options('hang', { maxIterations: 1, timeoutMs: 1500, killGraceMs: 200, plannerEnv: { STEPS: 'hang', PLANNER_LOG: log, PID_FILE: pidFile } }))
    expect(Date.now() - started).toBeLessThan(30_000) // the planner never ends on its own
    expect(output.attempts).toEqual([expect.objectContaining({ outcome: 'no_plan', timed_out: true, exit_code: null })])
    expect(output.error!.message).toContain('was stopped at its time limit of 1.5 s')
    const pid = Number(await readFile(pidFile, 'utf8'))
    expect(isAlive(pid)).toBe(false)
  })

  it('never runs issue text: $(…) and backticks stay text in the prompt file', async () => {
    const marker = join(dir, 'pwned')
    const issue: IssueDocument = {
      number: 13,
      title: `Title $(touch ${marker}-title) and \`touch ${marker}-tick\``,
      labels: [`$(touch ${marker}-label)`],
      body: `Run \`touch ${marker}-body\` and $(touch ${marker}-dollar); also \${IFS}; rm -rf / #\n\n\`\`\`sh\ntouch ${marker}-fence\n\`\`\`\n`,
    }
    // A template that reads the prompt through the shell, as agent CLIs do: the file's text never becomes shell.
    const output = await commandPlan(issue, options('good', { command: `cat "$CONVERGE_PLAN_PROMPT_FILE" > /dev/null && node ${script} && echo "$CONVERGE_ISSUE"` }))
    expect(output.attempts!.map((a) => a.outcome)).toEqual(['accepted'])
    for (const suffix of ['title', 'tick', 'label', 'body', 'dollar', 'fence']) expect(existsSync(`${marker}-${suffix}`)).toBe(false)
    const prompt = await readFile(join(output.workDir, 'attempt-1', 'prompt.md'), 'utf8')
    expect(prompt).toContain(`$(touch ${marker}-dollar)`)
    expect(prompt).toContain(`touch ${marker}-fence`)
    // The issue's own fence cannot close the quote around it.
    expect(prompt).toContain('````markdown\nRun `touch')
  })

  it('feeds back a plan that fails the quality gate with its findings', async () => {
    const output = await commandPlan(ISSUE, options('weak,good'))
    expect(output.attempts!.map((a) => [a.outcome, a.gate])).toEqual([['gate_fail', 'fail'], ['accepted', 'pass']])
    expect(output.attempts![0]!.errors[0]).toMatch(/^quality gate: fail \(\d+\/100\)$/)
    const feedback = await readFile(join(output.workDir, 'attempt-2', 'feedback.md'), 'utf8')
    expect(feedback).toContain('fails the quality gate (a plan needs at least 60/100 and no critical finding)')
    expect(feedback).toMatch(/- \*\*\w+\*\* `tasks\[0\]/)
  })

  it('keeps the last plan when every attempt fails only the quality gate: it is stored, and cannot be approved', async () => {
    const { output, result } = await pipelinePlan(store, ISSUE, 'command', '2026-02-01T00:00:00Z', undefined, { command: options('weak,weak', { maxIterations: 2 }) })
    expect(output.notes[0]).toContain('no plan passed the quality gate in 2 attempts')
    expect(result.analysis.gate).toBe('fail')
    expect(result.issueState.status).toBe('planned')
  })

  it('reads a plan wrapped in a ```json block with prose around it', async () => {
    const output = await commandPlan(ISSUE, options('fenced'))
    expect(output.attempts!.map((a) => a.outcome)).toEqual(['accepted'])
    expect(output.notes).toContain('read the ```json block on line 4 of the plan file, which held more than JSON')
  })

  it('masks secrets in the plan, the notes and the recorded output', async () => {
    const { output } = await pipelinePlan(store, ISSUE, 'command', '2026-02-01T00:00:00Z', undefined, { command: options('secret') })
    expect(JSON.stringify(output)).not.toContain('sk-test-0123456789abcdef')
    const plan = (await (await store.snapshot()).read(statePaths.plan(12)))!
    expect(plan).toContain('uses ***')
    expect(plan).not.toContain('sk-test')
  })

  it('rejects when cancelled, recording nothing', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 500)
    await expect(pipelinePlan(store, ISSUE, 'command', '2026-02-01T00:00:00Z', undefined, {
      command: options('hang', { signal: controller.signal, killGraceMs: 200, plannerEnv: { STEPS: 'hang', PLANNER_LOG: log, PID_FILE: join(dir, 'pid') } }),
    })).rejects.toBeInstanceOf(PlanningCancelled)
    expect(await countCommits(state, store.branch)).toBe(0)
  })

  it('shows the planner the problems recorded on the issue', async () => {
    await pipelinePlan(store, ISSUE, 'command', '2026-02-01T00:00:00Z', undefined, { command: options('bad-json', { maxIterations: 1 }) })
    const { output } = await pipelinePlan(store, ISSUE, 'command', '2026-02-01T00:01:00Z', 'Please keep it to two tasks', { command: options('good') })
    const prompt = await readFile(join(output.workDir!, 'attempt-1', 'prompt.md'), 'utf8')
    expect(prompt).toContain('## Earlier problems with this issue')
    expect(prompt).toContain('(validation): Plan rejected: 1 error ((root): Not valid JSON')
    expect(prompt).toContain('## The comment that asked for this plan\n\n```markdown\nPlease keep it to two tasks\n```')
  })

  it('runs from the CLI: converge plan --planner command --planner-command', async () => {
    const issueFile = join(dir, 'issue-12.md')
    await writeFile(issueFile, `# ${ISSUE.title}\n\n${ISSUE.body}\n`)
    // The CLI keeps the state branch in --repo, the checkout the planner runs in.
    const lines: string[] = []
    const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(`ERR ${t}`) }
    const code = await runCli(['plan', '--issue-file', issueFile, '--repo', repoDir, '--planner', 'command', '--planner-command', `STEPS=cycle,good PLANNER_LOG=${log} node ${script}`, '--max-iterations', '2', '--timeout', '1'], io, process.cwd())
    expect(lines.filter((l) => l.startsWith('ERR'))).toEqual([])
    expect(code).toBe(0)
    const text = lines.join('\n')
    expect(text).toContain('planner command: plan accepted on attempt 2 of 2')
    expect(text).toContain('attempt 1 of 2: invalid task dependencies')
    expect(text).toMatch(/Planner files \(prompts, feedback, plans\): .*plan-ISS-12-/)
    expect(text).toMatch(/State: converge\/state @ [0-9a-f]{12}/)
    await expect(runCli(['plan', '--issue-file', issueFile, '--repo', repoDir, '--planner', 'command'], io, process.cwd())).rejects.toThrow('--planner command needs --planner-command')
  })

  it('records a rerun that comes back with the stored plan without touching the plan or its approval', async () => {
    await pipelinePlan(store, ISSUE, 'command', '2026-02-01T00:00:00Z', undefined, { command: options('good') })
    expect((await approvePlan(store, 12, 'alice', '2026-02-01T00:01:00Z')).ok).toBe(true)
    const { result } = await pipelinePlan(store, ISSUE, 'command', '2026-02-01T00:02:00Z', undefined, { command: options('cycle,good') })
    expect(result.unchanged).toBe(true)
    expect(await state.git('log', '-1', '--format=%s', store.branch)).toBe('ISS-12: plan unchanged SOL-ISS-12-1 (planner command, 2 attempts)')
    const snapshot = await store.snapshot()
    expect(SolutionSchema.parse(JSON.parse((await snapshot.read(statePaths.plan(12)))!)).approval).toMatchObject({ approved_by: 'alice' })
    const issue = IssueStateSchema.parse(JSON.parse((await snapshot.read(statePaths.issue(12)))!))
    expect(issue.plan_attempts!.map((a) => a.outcome)).toEqual(['dag_errors', 'accepted'])
    expect(await snapshot.read(statePaths.events(12))).toContain('plan unchanged SOL-ISS-12-1')

    // Another planner's plan leaves no attempts behind.
    await pipelinePlan(store, ISSUE, 'builtin', '2026-02-01T00:03:00Z')
    const after = IssueStateSchema.parse(JSON.parse((await (await store.snapshot()).read(statePaths.issue(12)))!))
    expect(after.plan_attempts).toBeUndefined()
  })

  it('needs a planner command', async () => {
    await expect(pipelinePlan(store, ISSUE, 'command', '2026-02-01T00:00:00Z')).rejects.toThrow('planner: command needs a planner command')
  })
})

describe('the repository context of the command planner', () => {
  it('names tracked files by path, by a unique ending, with ./, :line and #L suffixes, in order of mention', () => {
    const tracked = ['README.md', 'src/a/index.ts', 'src/b/index.ts', 'src/planners/command.ts', 'docs/guide.md']
    const text = 'See `index.ts`, then planners/command.ts:12 and ./docs/guide.md#L3-L9. Also README.md. Not src/missing.ts.'
    expect(namedPaths(text, tracked)).toEqual(['src/planners/command.ts', 'docs/guide.md', 'README.md'])
  })

  it('reads only regular files, within the limits', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'converge-context-'))
    try {
      await writeFile(join(dir, 'big.txt'), 'x'.repeat(5000))
      await writeFile(join(dir, 'bin.dat'), Buffer.from([1, 0, 2]))
      await symlink('/etc/hostname', join(dir, 'link.txt'))
      await runGit(['init', '-q'], { cwd: dir })
      await runGit(['add', '-A'], { cwd: dir })
      const context = await repositoryContext(dir, 'big.txt bin.dat link.txt', { maxListed: 2, maxNamed: 5, maxFileBytes: 1000, maxNamedBytes: 10_000 })
      expect(context.totalFiles).toBe(3)
      expect(context.files).toHaveLength(2)
      expect(context.named).toEqual([{ path: 'big.txt', text: 'x'.repeat(1000), bytes: 5000, truncated: true }])
      expect(context.skipped).toEqual(['bin.dat (binary)', 'link.txt (a symbolic link)'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('says so outside a git repository', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'converge-context-'))
    try {
      const context = await repositoryContext(dir, '')
      expect(context.problem).toMatch(/^git ls-files failed/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('the prompt of the command planner', () => {
  it('shows an example plan that passes the quality gate', () => {
    expect(analysePlan({ id: 'SOL-ISS-1-1', issue_id: 'ISS-1', ...EXAMPLE_PLAN }).gate).toBe('pass')
  })

  it('fences text in more backticks than it holds', () => {
    expect(fenced('a ```` b', 'md')).toBe('`````md\na ```` b\n`````')
    expect(fenced('plain')).toBe('```\nplain\n```')
  })
})

/** Alive means running or sleeping: an exited process nobody has reaped yet (a zombie) is dead. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))
  } catch {
    return false
  }
}
