/**
 * The walk of every state's "Next:" hint: an issue is taken through each state the CLI can record (registered,
 * planned, approved, paused, resumed, stopped, failed tasks, completed, verified, a verification that fails on a
 * completed execution, a plan that fails its gate), and in each one the hint `status` prints is run as printed
 * (placeholders filled in) and must be accepted: no usage error, no refusal. The walk is printed (CI output).
 */
import { existsSync } from 'node:fs'
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { converge, greetingsRepo, issueText, ROOT, type GreetingsRepo } from './support.js'

/** The Next: command `status --number <n>` prints, or null. */
async function hintOf(t: GreetingsRepo, n: number): Promise<string | null> {
  const { out } = await converge(['status', '--number', String(n), '--repo', t.repo])
  return /^ {2}Next: (converge [^ ].*?)(?: {2}\(.*\))?$/m.exec(out)?.[1] ?? null
}

/** Runs a hint as a user would, with their issue file and agent for the placeholders; returns its JSON document. */
async function runHint(t: GreetingsRepo, hint: string, fill: { issueFile: string; agent: string }): Promise<Record<string, unknown>> {
  const words = shellWords(hint).slice(1).map((word) => (word === '<issue.md>' ? fill.issueFile : word === '<agent>' ? fill.agent : word))
  expect(words.some((word) => /^<.*>$/.test(word)), `${hint} leaves a placeholder unfilled`).toBe(false)
  const run = await converge([...words, '--repo', t.repo, '--json'])
  const document = JSON.parse(run.out) as Record<string, unknown>
  // A refusal is the error document `{ error: { message, kind } }` (a run's own `error` is the issue's, a string).
  expect(run.code, `${hint} was refused: ${run.out}`).not.toBe(2)
  expect((document.error as { kind?: string } | null)?.kind, `${hint} was refused: ${run.out}`).toBeUndefined()
  return document
}

/** A command line split as a shell splits it: spaces outside quotes, `'…'` and `"…"` kept whole. */
function shellWords(line: string): string[] {
  const words: string[] = []
  for (const [, single, double, bare] of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) words.push(single ?? double ?? bare!)
  return words
}

describe('every state\'s "Next:" hint is a command the CLI accepts', () => {
  it('walks the states of an issue, running each hint', async () => {
    const t = await greetingsRepo()
    const walk: string[] = []
    const step = async (state: string, expected: RegExp, fill: { issueFile?: string; agent?: string } = {}, n = 7) => {
      const hint = await hintOf(t, n)
      walk.push(`${state.padEnd(44)} Next: ${hint}`)
      expect(hint, state).toMatch(expected)
      return runHint(t, hint!, { issueFile: fill.issueFile ?? t.issue, agent: fill.agent ?? t.executor })
    }
    try {
      const folder = join(t.dir, 'issues')
      await mkdir(folder)
      await copyFile(t.issue, join(folder, '7.md'))
      await converge(['sync', '--issues', folder, '--repo', t.repo])

      await step('registered (synced, no plan)', /^converge plan --issue-file <issue\.md> --number 7$/)
      await step('planned, not approved', /^converge approve --number 7$/)
      await converge(['pause', '--number', '7', '--repo', t.repo])
      await step('paused', /^converge resume --number 7$/)
      await converge(['stop', '--number', '7', '--repo', t.repo])
      await step('stopped', /^converge resume --number 7$/)
      // Without an agent (none) every task fails its commands.
      await step('approved, not executed', /^converge execute --number 7 --executor <agent>$/, { agent: 'none' })
      await step('executed, tasks failed', /^converge retry --number 7 --executor <agent>$/)
      const verified = await step('executed, every task converged', /^converge verify --number 7$/)
      expect(verified).toMatchObject({ mode: 'verify', status: 'completed', issue_status: 'completed', branch: 'converge/issue-7' })

      // The work branch no longer passes T1's check: verify says so, and the execution stays completed.
      t.git('checkout', '--quiet', 'converge/issue-7')
      await writeFile(join(t.repo, 'hello.txt'), 'changed\n')
      t.git('commit', '--quiet', '-am', 'Change hello')
      t.git('checkout', '--quiet', 'main')
      const failedVerify = await converge(['verify', '--number', '7', '--repo', t.repo, '--json'])
      expect(JSON.parse(failedVerify.out)).toMatchObject({ mode: 'verify', status: 'failed', issue_status: 'completed', branch: 'converge/issue-7' })
      expect((await converge(['verify', '--number', '7', '--repo', t.repo])).out).toMatch(/^Checked converge\/issue-7 at [0-9a-f]{7} in your working tree \(checked out for the checks, then your branch again\)\.$/m)
      // The hint names the executor the last execute ran.
      await step('completed, its verification failed', /^converge retry T1 --number 7 --executor "node '.*executor\.mjs'"$/)
      expect(await hintOf(t, 7)).toBe('converge verify --number 7')

      const vague = join(t.dir, '8.md')
      await writeFile(vague, '# Make it faster\n\nIt is slow.\n')
      await converge(['plan', '--issue-file', vague, '--repo', t.repo])
      await step('planned, the plan fails its gate', /^converge plan --issue-file <issue\.md> --number 8$/, { issueFile: vague }, 8)
    } finally {
      console.log(`The walk of the "Next:" hints (state, then the hint that was run and accepted):\n${walk.join('\n')}`)
      await t.cleanup()
    }
  }, 240_000)
})

describe('the hints of the loop after a proven execute (issue 34)', () => {
  it('walks a refused start, a proven execute, its verify, a failing retry, a plan held by a running retry (stopped), and a task that changed nothing', async () => {
    const t = await greetingsRepo()
    const walk: string[] = []
    const run = (...args: string[]) => converge([...args, '--repo', t.repo])
    const status = async (n = 7) => JSON.parse((await run('status', '--number', String(n), '--json')).out) as { issue: Record<string, unknown>; tasks: Array<Record<string, any>> }
    const step = async (state: string, expected: RegExp, n = 7) => {
      const hint = await hintOf(t, n)
      walk.push(`${state.padEnd(44)} Next: ${hint}`)
      expect(hint, state).toMatch(expected)
      expect(hint, `${state}: a hint after a run names its executor`).not.toContain('<agent>')
      return runHint(t, hint!, { issueFile: t.issue, agent: t.executor })
    }
    try {
      await run('plan', '--issue-file', t.issue, '--number', '7')
      await run('approve', '--number', '7')

      // The user's own change: the start is refused, and the issue is as it was (its hint too).
      const before = { hint: await hintOf(t, 7), issue: (await status()).issue }
      await writeFile(join(t.repo, 'README.md'), '# greetings, mine\n')
      expect((await run('execute', '--number', '7', '--executor', t.executor)).code).toBe(1)
      expect({ hint: await hintOf(t, 7), issue: (await status()).issue }).toEqual(before)
      walk.push(`${'refused start (the user\'s changes)'.padEnd(44)} Next: ${before.hint}`)
      t.git('checkout', '--', 'README.md')

      expect((await run('execute', '--number', '7', '--executor', t.executor)).code).toBe(0)
      const verified = await step('executed, every task proven', /^converge verify --number 7$/)
      expect(verified).toMatchObject({ mode: 'verify', status: 'completed' })
      expect((await status()).tasks.map((task) => task.evidence?.kind)).toEqual(['proven', 'proven'])

      // A retry whose executor fails: the proof stays, the exit code is shown, and the hint still says verify.
      const failing = `node '${join(ROOT, 'tests/fixtures/executors/exit-with.mjs')}' 3`
      expect((await run('retry', 'T1', '--number', '7', '--executor', failing)).out).toMatch(/executor exit code 3/)
      expect((await status()).tasks[0]).toMatchObject({ status: 'completed', evidence: { kind: 'proven' }, later_retry: { executor_exit_codes: [3] } })
      await step('a retry failed, the proof kept', /^converge verify --number 7$/)

      // A retry running: the plan is held, and the hint says by whom; stop is accepted, then resume.
      // The executor marks its start: the stop must come while the task runs (a loaded machine can hold the plan
      // for seconds before the task starts, and a stop then ends the retry before it, as it should).
      const started = join(t.dir, 'retry-started')
      const slow = `node -e 'require("fs").writeFileSync("${started}", ""); setTimeout(() => {}, 2500)'`
      const holding = run('retry', 'T2', '--number', '7', '--executor', slow)
      await until(async () => existsSync(started) && (await hintOf(t, 7))?.startsWith('converge stop'))
      expect((await converge(['status', '--number', '7', '--repo', t.repo])).out).toMatch(/being executed by process \d+ on .+ since \d{4}-/)
      await step('a retry running (the plan held)', /^converge stop --number 7$/)
      await holding
      // The stop came while its last task ran: that task finished (its proof kept) and the retry ended with it.
      await step('the held retry ended', /^converge verify --number 7$/)
      expect((await status()).tasks[1]).toMatchObject({ status: 'completed', evidence: { kind: 'proven' } })

      // A task that changed nothing completed without proof: the hint names it, to be done again.
      await writeFile(join(t.dir, '9.md'), issueText('Greet', [['T1', 'README.md', 'greetings', []]]))
      await run('plan', '--issue-file', join(t.dir, '9.md'), '--number', '9')
      await run('approve', '--number', '9')
      await run('execute', '--number', '9', '--executor', 'true')
      await step('completed without proof', /^converge retry T1 --number 9 --executor true$/, 9)
    } finally {
      console.log(`The walk of the loop's hints:\n${walk.join('\n')}`)
      await t.cleanup()
    }
  }, 240_000) // a walk of many commands: over a minute when CI runs the agent CLIs beside it
})

describe('resume after a stopped execute (issue 34)', () => {
  it('leaves the issue planned, not executing, while nothing runs; the next execute goes on where the stop left it', async () => {
    const t = await greetingsRepo()
    const run = (...args: string[]) => converge([...args, '--repo', t.repo])
    const status = async () => JSON.parse((await run('status', '--number', '7', '--json')).out) as { issue: { status: string }; tasks: Array<Record<string, any>> }
    try {
      await run('plan', '--issue-file', t.issue, '--number', '7')
      await run('approve', '--number', '7')
      // An executor that marks its start, waits for the stop to be recorded, then does the work: the stop lands
      // while T1 runs, however slowly a loaded machine starts the stop command.
      const started = join(t.dir, 'execute-started')
      const stopRecorded = join(t.dir, 'stop-recorded')
      const slow = join(t.dir, 'slow-executor.mjs')
      await writeFile(slow, [
        "import { existsSync, readFileSync, writeFileSync } from 'node:fs'",
        `writeFileSync(${JSON.stringify(started)}, '')`,
        `while (!existsSync(${JSON.stringify(stopRecorded)})) await new Promise((resolve) => setTimeout(resolve, 50))`,
        "const task = JSON.parse(readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))",
        "for (const file of task.files) writeFileSync(file.path, task.description.split(' ')[1] + '\\n')",
      ].join('\n'))
      const executing = run('execute', '--number', '7', '--executor', `node '${slow}'`)
      await until(async () => existsSync(started))
      expect((await run('stop', '--number', '7')).code).toBe(0)
      await writeFile(stopRecorded, '')
      await executing
      expect((await status()).tasks.map((task) => task.status)).toEqual(['completed', 'pending'])

      const resumed = await run('resume', '--number', '7')
      expect(resumed.out).toMatch(/resumed: nothing runs until an execute does/)
      const after = await status()
      expect(after.issue.status).toBe('planned')
      const text = (await run('status', '--number', '7')).out
      expect(text).not.toMatch(/executing|being executed/)
      expect(await hintOf(t, 7)).toMatch(/^converge execute --number 7 --executor /)

      expect((await run('execute', '--number', '7', '--executor', t.executor)).code).toBe(0)
      const done = await status()
      expect(done.issue.status).toBe('completed')
      expect(done.tasks.map((task) => task.evidence?.kind)).toEqual(['proven', 'proven'])
    } finally {
      await t.cleanup()
    }
  }, 120_000)
})

async function until(condition: () => Promise<boolean | undefined>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
