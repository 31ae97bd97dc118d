/**
 * The CLI as one product with the action: one command table (every action command exists, with help made from the
 * table and options checked against it), `--json` on every command, and `sync`, `matrix`, `execute-task` and
 * `report` against a local repository with the action's state files.
 */
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CLI_COMMANDS } from '../../src/cli/command-table.js'
import { InputError, UsageError } from '../../src/cli/usage-error.js'
import { COMMANDS } from '../../src/model/commands.js'
import { runGit } from '../../src/git/git.js'
import { startEmulator } from '../support/emulator/index.js'
import { FULL_SUITE } from '../support/suite-size.js'
import { converge, greetingsRepo, issueText, ROOT, type GreetingsRepo } from './support.js'

const state = (t: GreetingsRepo, path: string) => JSON.parse(t.git('show', `converge/state:.converge/${path}`))

describe('one command table, two hosts', () => {
  it('has every command of the action, and the CLI\'s own', () => {
    const names = CLI_COMMANDS.map((c) => c.name)
    for (const command of Object.keys(COMMANDS)) expect(names).toContain(command)
    expect(names).toEqual(expect.arrayContaining(['demo', 'validate']))
    expect(new Set(names).size).toBe(names.length)
  })

  it('help and --help print the general help made from the table', async () => {
    for (const args of [['help'], ['--help'], ['-h']]) {
      const { code, out } = await converge(args)
      expect(code).toBe(0)
      for (const command of CLI_COMMANDS) expect(out).toContain(`  ${command.name.padEnd(14)}${command.summary}`)
    }
  })

  it('help <command> and <command> --help print its synopsis, options with defaults, and an example', async () => {
    const help = await converge(['help', 'execute'])
    expect(help.code).toBe(0)
    expect(help.out).toMatch(/^Usage: converge execute --number <n> --executor <command> \[options\]$/m)
    expect(help.out).toMatch(/^ {2}--timeout <minutes> +time limit of each command \(default: 15\)$/m)
    expect(help.out).toMatch(/^ {2}--json +print one JSON document on stdout: \{ issue, mode, status/m)
    expect(help.out).toContain('Example:\n  converge execute --number 42 --executor claude-code')
    expect(help.out).not.toContain('--keep')
    expect(await converge(['execute', '--help'])).toEqual(help)
    expect((await converge(['status', '--help'])).out).toMatch(/^Usage: converge status \[--number <n>\]/)
    // --json: the same as data
    const data = JSON.parse((await converge(['help', 'execute', '--json'])).out)
    expect(data.commands).toHaveLength(1)
    expect(data.commands[0]).toMatchObject({ name: 'execute', example: 'converge execute --number 42 --executor claude-code' })
    expect(data.commands[0].options).toContainEqual({ name: '--timeout', value: '<minutes>', default: '15', help: 'time limit of each command' })
    expect(JSON.parse((await converge(['help', '--json'])).out).commands.map((c: { name: string }) => c.name)).toContain('sync')
  })

  it('help of an unknown command, an option the command does not take, and an extra argument are usage errors', async () => {
    await expect(converge(['help', 'exectue'])).rejects.toThrow('Unknown command "exectue" (did you mean execute?)')
    await expect(converge(['status', '--keep'])).rejects.toThrow(new UsageError('status does not take --keep: converge help status lists its options'))
    await expect(converge(['approve', '7', '--number', '7'])).rejects.toThrow('approve takes no argument, got "7": converge approve --number <n>')
    await expect(converge(['execute-task', 'T1', 'T2', '--number', '7'])).rejects.toThrow('execute-task takes one argument, got "T1", "T2"')
  })

  it('max-turns with a preset that can neither keep a turn limit nor report its turns is refused before anything runs', async () => {
    await expect(converge(['execute', '--number', '7', '--executor', 'aider', '--max-turns', '3']))
      .rejects.toThrow(new UsageError('max-turns cannot be held with the aider preset: aider reports no turns and takes no turn limit; remove max-turns (the task timeout bounds each of its runs)'))
  })
})

describe('--json: one document on stdout', () => {
  it('errors are a document too: usage (exit 2) and input (exit 1)', async () => {
    const usage = await converge(['approve', '7', '--json'])
    expect(usage.code).toBe(2)
    expect(JSON.parse(usage.out)).toEqual({ error: { message: 'approve takes no argument, got "7": converge approve --number <n>', kind: 'usage' } })
    const t = await greetingsRepo()
    try {
      await writeFile(join(t.dir, 'empty.md'), '\n')
      const input = await converge(['plan', '--issue-file', join(t.dir, 'empty.md'), '--repo', t.repo, '--json'])
      expect(input.code).toBe(1)
      expect(JSON.parse(input.out).error).toMatchObject({ kind: 'input', message: expect.stringContaining('is empty') })
      const unknown = await converge(['status', '--number', '9', '--repo', t.repo, '--json'])
      expect(unknown.code).toBe(1)
      expect(JSON.parse(unknown.out)).toEqual({ error: { kind: 'input', message: 'ISS-9 is not known to Converge yet: converge plan --issue-file <issue.md> --number 9' } })
    } finally {
      await t.cleanup()
    }
  })

  it('plan, approve, status, pause/resume, execute: each its document, progress on stderr only', async () => {
    const t = await greetingsRepo()
    try {
      const plan = await converge(['plan', '--issue-file', t.issue, '--repo', t.repo, '--json'])
      expect(plan.code).toBe(0)
      const planned = JSON.parse(plan.out)
      expect(planned).toMatchObject({ issue: 7, solution_id: 'SOL-ISS-7-1', plan_hash: expect.stringMatching(/^sha256:/), gate: 'pass', errors: [], state: { branch: 'converge/state' } })
      expect(typeof planned.score).toBe('number')
      expect(planned.state.paths).toEqual(expect.arrayContaining(['.converge/issues/7/issue.json', '.converge/issues/7/plan.json', '.converge/state.json']))
      expect(planned.state.commit).toBe(t.git('rev-parse', 'converge/state'))

      expect(JSON.parse((await converge(['approve', '--number', '7', '--repo', t.repo, '--json'])).out))
        .toEqual({ issue: 7, solution_id: 'SOL-ISS-7-1', plan_hash: planned.plan_hash, approved_by: expect.any(String), already_approved: false, accepted: null })
      expect(JSON.parse((await converge(['pause', '--number', '7', '--repo', t.repo, '--json'])).out)).toEqual({ issue: 7, signal: 'pause', status: 'paused', changed: true })
      expect(JSON.parse((await converge(['resume', '--number', '7', '--repo', t.repo, '--json'])).out)).toEqual({ issue: 7, signal: 'resume', status: 'planned', changed: true })

      // The run's work folder (briefs, agent outputs) is its own under the temporary folder, and gone once it ends.
      const temporary = join(t.dir, 'tmp')
      await mkdir(temporary)
      vi.stubEnv('TMPDIR', temporary)
      const executed = await converge(['execute', '--number', '7', '--repo', t.repo, '--executor', t.executor, '--json']).finally(() => vi.unstubAllEnvs())
      expect(executed.code).toBe(0)
      expect(await readdir(temporary)).toEqual([])
      const run = JSON.parse(executed.out)
      expect(run).toMatchObject({ issue: 7, mode: 'execute', status: 'completed', issue_status: 'completed', error: null, branch: 'converge/issue-7', ran: ['T1', 'T2'] })
      expect(run.tasks).toEqual([
        { id: 'T1', title: 'Write hello.txt', status: 'completed', attempts: 1, commit: expect.stringMatching(/^[0-9a-f]{40}$/), error: null, evidence: expect.objectContaining({ kind: 'proven' }), proof: 'T1: `grep -q hello hello.txt` failed before the change (exit 2) and passes after', executor_exit_codes: [0], later_retry: null },
        { id: 'T2', title: 'Write world.txt', status: 'completed', attempts: 1, commit: expect.stringMatching(/^[0-9a-f]{40}$/), error: null, evidence: expect.objectContaining({ kind: 'proven' }), proof: expect.stringContaining('failed before the change'), executor_exit_codes: [0], later_retry: null },
      ])
      expect(executed.err).toMatch(/^ {2}▸ T1 Write hello.txt$/m)

      const status = JSON.parse((await converge(['status', '--number', '7', '--repo', t.repo, '--json'])).out)
      expect(status).toMatchObject({ issue: { number: 7, status: 'completed', error: null }, plan: { solution_id: 'SOL-ISS-7-1', approved: true }, execution: { status: 'completed' } })
      expect(status.tasks.map((task: { status: string }) => task.status)).toEqual(['completed', 'completed'])
      // status --json shows each task's evidence: the baseline's failing run, then the passing one.
      expect(status.tasks[0].evidence).toMatchObject({ kind: 'proven', before: [{ command: 'grep -q hello hello.txt', exit_code: 2 }], after: [{ command: 'grep -q hello hello.txt', exit_code: 0 }] })
      const all = JSON.parse((await converge(['status', '--repo', t.repo, '--json'])).out)
      expect(all.issues).toEqual([expect.objectContaining({ number: 7, status: 'completed', solution_id: 'SOL-ISS-7-1' })])
    } finally {
      await t.cleanup()
    }
  })

  // A third whole demo (tests/cli/cli.test.ts runs the bundle's in `npm test`): CI's.
  it.runIf(FULL_SUITE)('demo --json: the walk-through on stderr, the summary on stdout', async () => {
    const { code, out, err } = await converge(['demo', '--json'])
    expect(code, err).toBe(0)
    const demo = JSON.parse(out)
    expect(demo).toMatchObject({ issue: 42, solution_id: 'SOL-ISS-42-1', converged: true, main_untouched: true, working_tree_clean: true, kept: null })
    expect(demo.verification.map((t: { status: string }) => t.status)).toEqual(['failed', 'failed', 'failed', 'failed'])
    expect(err).toContain('Converge demo: issue #42')
  })
})

describe('converge sync --issues <folder>', () => {
  it('reads the issue files into the run state and queues the planned ones; a file removed leaves the queue', async () => {
    const t = await greetingsRepo()
    try {
      const folder = join(t.dir, 'issues')
      await mkdir(folder)
      await writeFile(join(folder, '7.md'), issueText('Greetings', [['T1', 'hello.txt', 'hello', []]], 'labels: [priority high]'))
      await writeFile(join(folder, 'issue-8.md'), issueText('Farewells', [['T1', 'bye.txt', 'bye', []]]))
      await writeFile(join(folder, 'ideas.md'), '---\nnumber: 9\n---\n# Someday\n\nNot planned yet.\n')
      await writeFile(join(folder, 'notes.txt'), 'not an issue\n')
      for (const name of ['7.md', 'issue-8.md']) expect((await converge(['plan', '--issue-file', join(folder, name), '--repo', t.repo])).code).toBe(0)

      const first = await converge(['sync', '--issues', folder, '--repo', t.repo])
      expect(first.code).toBe(0)
      expect(first.out).toMatch(new RegExp(`^Sync: 3 issue files in ${folder} \\(\\+1 new, 0 updated, -0 removed\\); converge/state @ [0-9a-f]{12}$`, 'm'))
      expect(first.out).toContain('Queue: 2 solutions in 1 group (2 newly queued)')
      const run = state(t, 'state.json')
      expect(run.queue.map((i: { item_id: string; issue_id: string; priority: string }) => `${i.item_id} ${i.issue_id} ${i.priority}`)).toEqual(['S-1 ISS-7 high', 'S-2 ISS-8 medium'])
      expect(Object.keys(run.issues).sort()).toEqual(['ISS-7', 'ISS-8', 'ISS-9'])
      expect(state(t, 'issues/8/issue.json').status).toBe('queued')

      const status = await converge(['status', '--repo', t.repo])
      expect(status.out).toMatch(/^Queue: 2 solutions in 1 group \(built by sync at .+\)$/m)
      expect(status.out).toMatch(/^ {4}S-1 +#7 +queued +high +SOL-ISS-7-1 +Greetings$/m)
      expect(status.out).toMatch(/^ISS-9 +registered +– +Someday$/m)

      expect((await converge(['sync', '--issues', folder, '--repo', t.repo])).out).toMatch(/^Sync: nothing changed \(3 issue files in /)
      await rm(join(folder, 'issue-8.md'))
      await rm(join(folder, 'ideas.md'))
      const after = JSON.parse((await converge(['sync', '--issues', folder, '--repo', t.repo, '--json'])).out)
      expect(after).toMatchObject({ source: { issues: folder, files: 1 }, unchanged: false, added: 0, removed: 1, updated: 1, total: 2, queue: { items: 1, left: 1 } })
      expect(after.queue.order.map((i: { issue_id: string }) => i.issue_id)).toEqual(['ISS-7'])
      const closed = state(t, 'state.json').issues
      expect(closed['ISS-8']).toMatchObject({ closed: true })
      expect(closed['ISS-9']).toBeUndefined()
      // Gone from the folder is not closed: status says which (a GitHub sync says "closed on GitHub").
      const listed = (await converge(['status', '--repo', t.repo])).out
      expect(listed).toMatch(/^ISS-8 .* Farewells \(not in the issue folder at the last sync\)$/m)
      expect(listed).not.toContain('(closed')
    } finally {
      await t.cleanup()
    }
  })

  it('refuses a missing folder, two files of one issue, and a call without a source, writing nothing', async () => {
    const t = await greetingsRepo()
    try {
      const folder = join(t.dir, 'issues')
      await mkdir(folder)
      await writeFile(join(folder, '1.md'), '# One\n\nText.\n')
      await writeFile(join(folder, 'b.md'), '---\nnumber: 1\n---\n# Also one\n\nText.\n')
      await expect(converge(['sync', '--issues', join(t.dir, 'nope'), '--repo', t.repo])).rejects.toThrow(new UsageError(`--issues ${join(t.dir, 'nope')}: no such folder`))
      await expect(converge(['sync', '--issues', folder, '--repo', t.repo])).rejects.toThrow(InputError)
      await expect(converge(['sync', '--issues', folder, '--repo', t.repo])).rejects.toThrow(`${join(folder, '1.md')} and ${join(folder, 'b.md')} are both issue 1`)
      await expect(converge(['sync', '--repo', t.repo])).rejects.toThrow('sync needs one source: converge sync --issues <folder> (issue files), or converge sync --github <owner/repo>')
      expect(t.git('branch', '--list', 'converge/state')).toBe('')
    } finally {
      await t.cleanup()
    }
  })
})

describe('converge sync --github owner/repo (through the API emulator)', () => {
  afterEach(() => vi.unstubAllEnvs())

  it("runs the action's sync into the local state branch; without a token it names GITHUB_TOKEN", async () => {
    const gh = await startEmulator({ owner: 'octo-org', repo: 'greetings', files: { 'README.md': '# greetings\n' } })
    const t = await greetingsRepo()
    try {
      gh.seed.issue({ number: 7, title: 'Greetings' })
      gh.seed.issue({ number: 8, title: 'Unplanned' })
      vi.stubEnv('GITHUB_TOKEN', '')
      vi.stubEnv('GH_TOKEN', '')
      await expect(converge(['sync', '--github', 'octo-org/greetings', '--repo', t.repo]))
        .rejects.toThrow(new UsageError('sync --github needs a token that can read the issues: set GITHUB_TOKEN (or GH_TOKEN)'))

      expect((await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])).code).toBe(0)
      vi.stubEnv('GH_TOKEN', gh.token)
      vi.stubEnv('GITHUB_API_URL', gh.url)
      vi.stubEnv('GITHUB_GRAPHQL_URL', gh.graphqlUrl)
      const synced = await converge(['sync', '--github', 'octo-org/greetings', '--repo', t.repo, '--json'])
      expect(synced.code, synced.out).toBe(0)
      expect(JSON.parse(synced.out)).toMatchObject({ source: { github: 'octo-org/greetings', label: null }, added: 1, total: 2, queue: { items: 1, queued: 1 } })
      expect(state(t, 'state.json').sync).toMatchObject({ label: null })
      expect((await converge(['status', '--repo', t.repo])).out).toMatch(/^ {4}S-1 +#7 +queued/m)
      gh.expectNoViolations()
    } finally {
      await t.cleanup()
      await gh.close()
    }
  })
})

describe('converge matrix, execute-task, report: the scale-out on a local repository', () => {
  // Whole matrix runs (tests/pipeline/scale-out.test.ts has them in `npm test`): CI's.
  it.runIf(FULL_SUITE)('runs the ready tasks one by one as matrix jobs would, then reports the issue completed', async () => {
    const t = await greetingsRepo()
    try {
      await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
      const unapproved = await converge(['matrix', '--number', '7', '--repo', t.repo])
      expect(unapproved).toMatchObject({ code: 1, out: '', err: 'SOL-ISS-7-1 is not approved: its commands run only after `converge approve --number 7`' })
      await converge(['approve', '--number', '7', '--repo', t.repo])

      const matrix = await converge(['matrix', '--number', '7', '--repo', t.repo])
      expect(matrix.code).toBe(0)
      expect(matrix.out).toBe('{"include":[{"issue":7,"task":"T1"}]}')
      expect(matrix.err).toContain('ISS-7 · Greetings: 0/2 converged; ready: T1')
      expect(matrix.err).toContain('waiting for dependencies: T2')

      const early = await converge(['execute-task', 'T2', '--number', '7', '--repo', t.repo, '--executor', t.executor])
      expect(early.code).toBe(1)
      expect(early.err).toContain('T2 depends on T1, which has not converged (T1 has not run yet)')
      await expect(converge(['execute-task', '--number', '7', '--repo', t.repo, '--executor', t.executor])).rejects.toThrow('execute-task needs a task id')

      const first = await converge(['execute-task', 'T1', '--number', '7', '--repo', t.repo, '--executor', t.executor])
      expect(first.code, first.err).toBe(0)
      expect(first.out).toMatch(/^ISS-7 · T1: Write hello.txt — converged \(commit [0-9a-f]{7} on converge\/issue-7\)$/m)
      expect(first.out).toContain('Next: converge matrix --number 7 (the tasks ready now), then converge report --number 7')
      expect(t.git('symbolic-ref', '--short', 'HEAD')).toBe('main')
      expect(state(t, 'issues/7/execution.json')).toMatchObject({ status: 'running', tasks: { T1: { status: 'completed' } } })

      expect(JSON.parse((await converge(['matrix', '--number', '7', '--repo', t.repo, '--json'])).out))
        .toMatchObject({ matrix: { include: [{ issue: 7, task: 'T2' }] }, issues: [{ issue: 7, ready: ['T2'], completed: ['T1'], waiting: [] }] })
      const second = JSON.parse((await converge(['execute-task', 'T2', '--number', '7', '--repo', t.repo, '--executor', t.executor, '--json'])).out)
      expect(second).toMatchObject({ issue: 7, task: 'T2', ran: true, status: 'completed', error: null, branch: 'converge/issue-7' })
      expect(t.git('log', '--format=%s', 'main..converge/issue-7').split('\n')).toEqual(['T2: Write world.txt (ISS-7)', 'T1: Write hello.txt (ISS-7)'])
      const again = await converge(['execute-task', 'T1', '--number', '7', '--repo', t.repo, '--executor', t.executor])
      expect(again.out).toContain('converged already: not run again')

      const report = await converge(['report', '--number', '7', '--repo', t.repo])
      expect(report.code).toBe(0)
      expect(report.out).toMatch(/^2\/2 tasks converged\.$/m)
      expect(report.out).toMatch(/^ISS-7 · Greetings · completed$/m)
      // The same state files as the action's report job: the issue, its execution and its loop agree.
      expect(state(t, 'issues/7/issue.json').status).toBe('completed')
      expect(state(t, 'issues/7/execution.json').status).toBe('completed')
      expect(state(t, 'issues/7/loop.json').status).toBe('completed')
      expect(state(t, 'state.json').issues['ISS-7'].status).toBe('completed')

      const markdown = await converge(['report', '--number', '7', '--repo', t.repo, '--markdown'])
      expect(markdown.out).toContain('<!-- converge:ISS-7 -->')
      expect(markdown.out).toContain('Executed in matrix jobs: 2/2 tasks converged.')
      const json = JSON.parse((await converge(['report', '--number', '7', '--repo', t.repo, '--json'])).out)
      expect(json).toMatchObject({ issue: 7, status: 'completed', changed: false, error: null })
      expect(JSON.parse((await converge(['matrix', '--repo', t.repo, '--json'])).out).matrix).toEqual({ include: [] })
    } finally {
      await t.cleanup()
    }
  })
})

describe('nothing left behind', () => {
  it('a JSON error writes nothing either', async () => {
    const t = await greetingsRepo()
    try {
      const run = await converge(['plan', '--issue-file', join(t.dir, 'missing.md'), '--repo', t.repo, '--json'])
      expect(run.code).toBe(2)
      expect(JSON.parse(run.out).error.kind).toBe('usage')
      expect((await runGit(['branch', '--list', 'converge/state'], { cwd: t.repo })).stdout).toBe('')
      expect(existsSync(join(t.repo, '.converge'))).toBe(false)
    } finally {
      await t.cleanup()
    }
  })
})

describe('docs/cli.md', () => {
  it("lists the CLI's commands and shows converge help execute, as the table makes them", async () => {
    const readme = await readFile(join(ROOT, 'docs/cli.md'), 'utf8')
    const block = readme.slice(readme.indexOf('<!-- cli-commands:start -->'), readme.indexOf('<!-- cli-commands:end -->'))
    for (const command of CLI_COMMANDS) expect(block).toContain(`| \`converge ${command.synopsis.replaceAll('|', '\\|')}\` | ${command.summary} |`)
    expect(block).toContain(`$ converge help execute\n${(await converge(['help', 'execute'])).out}\n\`\`\``)
  })
})
