import { execFile, execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InputError, UsageError } from '../../src/cli/usage-error.js'
import { syntheticPlan } from '../../bench/synthetic.js'
import { FULL_SUITE } from '../support/suite-size.js'
import { busyWorkingRepo, countCommits } from '../support/temp-repos.js'

import { cli, greetingsRepo, ROOT } from './support.js'

describe('converge validate', () => {
  let dir: string
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'converge-cli-')) })
  afterAll(() => rm(dir, { recursive: true, force: true }))
  const file = async (name: string, content: string) => {
    const path = join(dir, name)
    await writeFile(path, content)
    return path
  }

  it('accepts a good plan with exit 0 and prints the gate and waves', async () => {
    const { code, out } = await cli('validate', 'tests/fixtures/plans/well-formed.json')
    expect(code).toBe(0)
    expect(out).toContain('gate PASS')
    expect(out).toContain('Waves (tasks in a wave run in parallel)')
  })

  it('exits 1 with every error, each with its path and a fix', async () => {
    const { code, out } = await cli('validate', 'tests/fixtures/plans/cycle-3.json')
    expect(code).toBe(1)
    expect(out).toContain('Circular dependency: T1 → T3 → T2 → T1')
    expect(out).toContain('fix: Remove one of these dependencies')
  })

  it('prints a JSON report with --json', async () => {
    const { code, out } = await cli('validate', '--json', 'tests/fixtures/plans/unknown-dependency.json')
    expect(code).toBe(1)
    const report = JSON.parse(out)
    expect(report.errors).toContainEqual(expect.objectContaining({ code: 'unknown_dependency', path: 'tasks[1].depends_on[1]' }))
  })

  // Plans of 10,000 tasks: CI's (tests/plan has the DAG at that size in `npm test`).
  it.runIf(FULL_SUITE)('answers for a 10,000-task plan', async () => {
    const path = await file('big.json', JSON.stringify(syntheticPlan(10_000, 'minimal')))
    const { code, out } = await cli('validate', path)
    expect(code).toBe(0)
    expect(out).toMatch(/10000 tasks in \d+ waves/)
  })

  it.runIf(FULL_SUITE)('answers for a cycle deep inside a 10,000-task chain', async () => {
    const tasks = Array.from({ length: 10_000 }, (_, i) => ({
      id: `T${i + 1}`, title: `Step ${i + 1}`, action: 'Implement',
      depends_on: i === 0 ? [] : i === 6_000 ? [`T${i}`, 'T9000'] : [`T${i}`],
    }))
    const path = await file('deep-cycle.json', JSON.stringify({ id: 'SOL-ISS-1-1', issue_id: 'ISS-1', description: 'Deep cycle', tasks }))
    const { code, out } = await cli('validate', path)
    expect(code).toBe(1)
    expect(out).toMatch(/Circular dependency: T6001 → T9000 → T8999 → .* → T6001/)
  })

  it('answers for a 5 MB malformed file with the line and column', async () => {
    const good = JSON.stringify(syntheticPlan(8_000), null, 1)
    const broken = `${good.slice(0, 5_000_000)},,${good.slice(5_000_000)}`
    expect(broken.length).toBeGreaterThan(5_000_000)
    const path = await file('broken.json', broken)
    const { code, out } = await cli('validate', path)
    expect(code).toBe(1)
    expect(out).toMatch(/Not valid JSON at line \d+, column \d+/)
  })

  it('reports a missing file and usage mistakes clearly', async () => {
    await expect(cli('validate')).rejects.toThrow(UsageError)
    await expect(cli('frobnicate')).rejects.toThrow('Unknown command "frobnicate"')
    await expect(cli('validate', join(dir, 'missing.json'))).rejects.toThrow(/missing\.json: no such file/)
  })
})

describe('converge plan', () => {
  it('plans an issue file into the local state branch, then finds nothing to change on a rerun', async () => {
    const repo = await busyWorkingRepo()
    try {
      const status = await repo.git('status', '--porcelain')
      const first = await cli('plan', '--issue-file', 'examples/demo/issue.md', '--repo', repo.dir)
      expect(first.code).toBe(0)
      expect(first.out).toContain('Plan SOL-ISS-42-1 for ISS-42: 4 tasks in 2 waves')
      expect(first.out).toMatch(/State: converge\/state @ [0-9a-f]{12} \(\.converge\/issues\/42\/plan\.json\)/)
      const second = await cli('plan', '--issue-file', 'examples/demo/issue.md', '--repo', repo.dir)
      expect(second.out).toContain('State: unchanged on converge/state')
      expect(await countCommits(repo, 'converge/state')).toBe(1)
      expect(await repo.git('status', '--porcelain')).toBe(status)
    } finally {
      await repo.cleanup()
    }
  })

  it('exits 1 and says what is missing for a vague issue', async () => {
    const repo = await busyWorkingRepo()
    const dir = await mkdtemp(join(tmpdir(), 'converge-cli-'))
    try {
      const issue = join(dir, '12.md')
      await writeFile(issue, '# Make the app faster\n\nIt is slow.\n')
      const { code, out } = await cli('plan', '--issue-file', issue, '--repo', repo.dir)
      expect(code).toBe(1)
      expect(out).toContain('no Acceptance criteria section: tasks have no criteria')
      expect(out).toMatch(/critical\s+tasks\[0\]\.convergence\.criteria/)
    } finally {
      await repo.cleanup()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('converge approve and verify', () => {
  it('verifies only an approved plan, and reports each task', async () => {
    const repo = await busyWorkingRepo()
    try {
      await cli('plan', '--issue-file', 'examples/demo/issue.md', '--repo', repo.dir)
      await expect(cli('verify', '--repo', repo.dir)).rejects.toThrow('verify needs the issue')
      const refused = await cli('verify', '--number', '42', '--repo', repo.dir)
      expect(refused).toEqual({ code: 1, out: 'SOL-ISS-42-1 is not approved: its commands run only after `converge approve --number 42`' })
      expect((await cli('approve', '--number', '42', '--repo', repo.dir)).out).toMatch(/^Approved SOL-ISS-42-1 \(sha256:[0-9a-f]{64}\)$/)
      const verified = await cli('verify', '--number', '42', '--repo', repo.dir, '--timeout', '1')
      expect(verified.code).toBe(1)
      expect(verified.out).toMatch(/^ISS-42 · .* · failed$/m)
      expect(verified.out).not.toContain('<details>')
      await expect(cli('verify', '--number', '42', '--repo', repo.dir, '--max-parallel', '0')).rejects.toThrow('--max-parallel must be a positive whole number')
    } finally {
      await repo.cleanup()
    }
  })
})

describe('converge demo', () => {
  // The same demo in process; `npm test` runs it through the bundle (below). CI runs both.
  it.runIf(FULL_SUITE)('verifies the unchanged example (every task fails), then executes it: every task converges, one commit each', async () => {
    const { code, out } = await cli('demo', '--keep')
    const dir = /^Kept (\S+):/m.exec(out)?.[1]
    try {
      // The whole output on failure: this runs beside the heaviest suites in CI, and a bare exit code says nothing.
      expect(code, out).toBe(0)
      for (const id of ['T1', 'T2', 'T3', 'T4']) expect(out).toMatch(new RegExp(`^ {2}${id} {2}FAIL {2}`, 'm'))
      expect(out).toContain('Executing with examples/demo/executor.mjs, a scripted stand-in for an agent CLI such as Claude Code')
      // The deliberate first-attempt mistake on T1, fed back, fixed on the second attempt.
      expect(out).toMatch(/^ {2}T1 {2}converged {2}2 attempts {2}[0-9a-f]{7} {2}Fix src\/slugify\.js/m)
      expect(out).toMatch(/attempt 1 failed, fed back to attempt 2: `node --input-type=module .*` exited with code 1: got 'cre-me-bru-le-e', expected 'creme-brulee'/)
      // The others converge too. Usually at once; a command that races another task's commit (`node --test`
      // walks .git and may meet git's index.lock) is debugged like any other failure.
      for (const id of ['T2', 'T3', 'T4']) expect(out).toMatch(new RegExp(`^ {2}${id} {2}converged {2}\\d attempts? +[0-9a-f]{7} {2}`, 'm'))
      expect(out).toContain('git log --oneline main..converge/issue-42')
      expect(out).toContain('ISS-42: execution completed (4/4 tasks converged)')
      expect(out).toMatch(/main untouched \(still [0-9a-f]{7}\): yes; working tree clean: yes/)
      expect(out).toContain('Every task converged')
      // T3 writes only tests: its checks passed before its change, so it is a regression guard, never called proven.
      expect(out).toContain('(T1, T2 and T4 proven by a command that failed before the change and passes after it; T3 a regression guard: its checks passed before the change and still pass)')
      expect(out).not.toContain('do not converge yet')

      // The work branch: one commit per task, each with the task's own files, and the code does what the issue asked.
      expect(dir).toBeDefined()
      const repo = join(dir!, 'repo')
      const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args]).toString().trim()
      const subjects = git('log', '--format=%s', 'main..converge/issue-42').split('\n').sort()
      expect(subjects.map((s) => s.slice(0, 3))).toEqual(['T1:', 'T2:', 'T3:', 'T4:'])
      const filesOf = (id: string) => {
        const commit = git('log', '--format=%H', `--grep=^${id}: `, 'main..converge/issue-42')
        return git('show', '--format=', '--name-only', commit).split('\n').sort()
      }
      expect(filesOf('T1')).toEqual(['src/slugify.js'])
      expect(filesOf('T2')).toEqual(['src/truncate.js'])
      expect(filesOf('T3')).toEqual(['test/slugify.test.js', 'test/truncate.test.js'])
      expect(filesOf('T4')).toEqual(['README.md'])
      expect(git('show', 'converge/issue-42:src/slugify.js')).toContain("replace(/[\\u0300-\\u036f]/g, '')")
      expect(execFileSync(process.execPath, ['--test'], { cwd: repo }).toString()).toMatch(/\bfail 0\b/)
    } finally {
      if (dir) await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('converge execute', () => {
  const setUp = greetingsRepo

  it('runs the executor per task and commits each converged task to converge/issue-<n>', async () => {
    const t = await setUp()
    try {
      expect((await cli('plan', '--issue-file', t.issue, '--repo', t.repo)).code).toBe(0)
      expect((await cli('approve', '--number', '7', '--repo', t.repo)).code).toBe(0)
      const main = t.git('rev-parse', 'main')
      const { code, out } = await cli('execute', '--number', '7', '--repo', t.repo, '--executor', t.executor, '--timeout', '1')
      expect(code).toBe(0)
      expect(out).toContain('ISS-7 · Greetings · completed')
      expect(out).toMatch(/^  ▸ T1 Write hello.txt$/m)
      expect(out).toMatch(/^  ✓ T1 converged \(1 attempt, .*, [0-9a-f]{7}\)$/m)
      expect(out).toMatch(/^  T2    converged  1 attempt   [0-9a-f]{7}  Write world.txt$/m)
      expect(out).toContain(`The commits of 2 completed tasks are on converge/issue-7 in ${t.repo}.`)
      expect(t.git('log', '--format=%s', 'main..converge/issue-7').split('\n')).toEqual(['T2: Write world.txt (ISS-7)', 'T1: Write hello.txt (ISS-7)'])
      expect(t.git('show', 'converge/issue-7:hello.txt')).toBe('hello')
      expect(t.git('show', 'converge/issue-7:world.txt')).toBe('world')
      expect(t.git('rev-parse', 'main')).toBe(main)
      // The user's branch is checked out again, as it was.
      expect(t.git('symbolic-ref', '--short', 'HEAD')).toBe('main')
      expect(t.git('status', '--porcelain')).toBe('')
    } finally {
      await t.cleanup()
    }
  })

  it("never commits the user's uncommitted work: refused with the files named, or kept out with --allow-dirty", async () => {
    const t = await setUp()
    try {
      await cli('plan', '--issue-file', t.issue, '--repo', t.repo)
      await cli('approve', '--number', '7', '--repo', t.repo)
      await writeFile(join(t.repo, 'README.md'), '# greetings\n\nmy unsaved edit\n')
      await writeFile(join(t.repo, 'notes.txt'), 'my notes\n')
      const execute = (...more: string[]) => cli('execute', '--number', '7', '--repo', t.repo, '--executor', t.executor, '--timeout', '1', ...more)

      const refused = await execute()
      expect(refused.code).toBe(1)
      expect(refused.out).toContain("the working tree has changes that are not Converge's: README.md, notes.txt.")
      expect(refused.out).toContain('--allow-dirty')
      expect(t.git('branch', '--list', 'converge/issue-7')).toBe('')
      expect(t.git('symbolic-ref', '--short', 'HEAD')).toBe('main')

      const allowed = await execute('--allow-dirty')
      expect(allowed.code).toBe(0)
      for (const commit of t.git('log', '--format=%H', 'main..converge/issue-7').split('\n'))
        expect(t.git('show', '--format=', '--name-only', commit)).toMatch(/^(hello|world)\.txt$/)
      expect(t.git('symbolic-ref', '--short', 'HEAD')).toBe('main')
      expect(t.git('status', '--porcelain', '--untracked-files=all').split('\n').map((l) => l.trim()).sort()).toEqual(['?? notes.txt', 'M README.md'])
      expect(await readFile(join(t.repo, 'README.md'), 'utf8')).toBe('# greetings\n\nmy unsaved edit\n')
    } finally {
      await t.cleanup()
    }
  })

  it('status, pause, resume, retry and stop: the action\'s commands on a local repository, in terminal words', async () => {
    const t = await setUp()
    try {
      expect(await cli('status', '--repo', t.repo)).toEqual({ code: 0, out: 'No issue on converge/state yet: converge plan --issue-file <issue.md>, or converge sync --issues <folder>' })
      await cli('plan', '--issue-file', t.issue, '--repo', t.repo)
      await cli('approve', '--number', '7', '--repo', t.repo)
      const planned = await cli('status', '--number', '7', '--repo', t.repo)
      expect(planned.out.split('\n')).toEqual([
        'ISS-7 · Greetings · planned',
        expect.stringMatching(/^ {2}Plan SOL-ISS-7-1: 2 tasks, approved by \S+$/),
        '  T1    pending                –        Write hello.txt',
        '  T2    pending                –        Write world.txt',
        '  Next: converge execute --number 7 --executor <agent>',
      ])

      expect(await cli('pause', '--number', '7', '--repo', t.repo)).toEqual({
        code: 0, out: 'ISS-7: paused: a running execute finishes the tasks it is running, records them and starts no other\n  Next: converge resume --number 7  (paused)',
      })
      const refused = await cli('execute', '--number', '7', '--repo', t.repo, '--executor', t.executor)
      expect(refused).toEqual({ code: 1, out: 'ISS-7 is paused: run `converge resume --number 7` first' })
      expect(await cli('resume', '--number', '7', '--repo', t.repo)).toEqual({
        code: 0, out: 'ISS-7: resumed: nothing runs until an execute does, which goes on where the last one stopped\n  Next: converge execute --number 7 --executor <agent>',
      })

      // Without an executor every task fails; retry runs the failed ones with one.
      expect((await cli('execute', '--number', '7', '--repo', t.repo, '--executor', 'none', '--on-failure', 'skip')).code).toBe(1)
      expect((await cli('status', '--number', '7', '--repo', t.repo)).out).toMatch(/^ {2}T1 {4}failed/m)
      expect((await cli('retry', '--number', '7', '--repo', t.repo, '--executor', t.executor)).code).toBe(0)
      const done = await cli('status', '--number', '7', '--repo', t.repo)
      expect(done.out).toMatch(/^ {2}T1 {4}converged {2}\d attempts? +[0-9a-f]{7} {2}Write hello\.txt$/m)
      expect(done.out).toMatch(/^ {2}Next: converge verify --number 7 {2}\(every task converged; review converge\/issue-7, and verify runs every check again\)$/m)
      expect(await cli('status', '--repo', t.repo)).toEqual({ code: 0, out: 'ISS-7  completed   SOL-ISS-7-1       Greetings' })
      expect(await cli('stop', '--number', '7', '--repo', t.repo)).toEqual({ code: 1, out: 'ISS-7 is completed: nothing to stop' })
      await expect(cli('pause', '--repo', t.repo)).rejects.toThrow('pause needs the issue')
    } finally {
      await t.cleanup()
    }
  })

  it('needs --executor, and refuses to retry a task the plan does not have', async () => {
    const t = await setUp()
    try {
      await cli('plan', '--issue-file', t.issue, '--repo', t.repo)
      await cli('approve', '--number', '7', '--repo', t.repo)
      await expect(cli('execute', '--number', '7', '--repo', t.repo)).rejects.toThrow(UsageError)
      await expect(cli('execute', '--number', '7', '--repo', t.repo)).rejects.toThrow("execute needs --executor '<command>'")
      const refused = await cli('execute', '--number', '7', '--repo', t.repo, '--executor', t.executor, '--retry', 'T9')
      expect(refused).toEqual({ code: 1, out: 'T9 is not a task of SOL-ISS-7-1 (tasks: T1, T2)' })
      expect(t.git('branch', '--list', 'converge/issue-7')).toBe('')
    } finally {
      await t.cleanup()
    }
  })
})

describe('the bundled CLI (dist/cli/index.js)', () => {
  it('runs the demo end to end as a separate process', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'dist/cli/index.js'), 'demo'], { cwd: tmpdir() })
    expect(stdout).toContain('Plan SOL-ISS-42-1 for ISS-42: 4 tasks in 2 waves')
    expect(stdout).toContain('gate PASS')
    expect(stdout).toContain('.converge/issues/42/plan.json')
    expect(stdout).toMatch(/T2 {2}FAIL {2}node --input-type=module .* \(exit 1\): Error \[ERR_MODULE_NOT_FOUND\]/)
    expect(stdout).toContain('ISS-42: verification failed (0/4 tasks converged)')
    // The scripted executor (Node built-ins only: no node_modules next to the bundle) converges every task.
    expect(stdout).toMatch(/T1 {2}converged {2}2 attempts {2}[0-9a-f]{7} {2}Fix src\/slugify\.js/)
    expect(stdout).toContain("got 'cre-me-bru-le-e', expected 'creme-brulee'")
    expect(stdout).toContain('ISS-42: execution completed (4/4 tasks converged)')
    expect(stdout).toMatch(/main untouched \(still [0-9a-f]{7}\): yes; working tree clean: yes/)
  }, 180_000) // about 4 s alone; over a minute at a load average of 20

  it('ends the running commands on Ctrl-C during verify, and leaves no process behind', async () => {
    const repo = await busyWorkingRepo()
    const dir = await mkdtemp(join(tmpdir(), 'converge-cli-'))
    try {
      const plan = {
        description: 'Wait',
        analysis: { risk: 'low', impact: 'low', complexity: 'low' },
        tasks: [{
          id: 'T1', title: 'Wait a long time', action: 'Test', description: 'Waits',
          files: [{ path: 'README.md', action: 'modify', changes: ['Nothing'] }], implementation: ['Wait'],
          test: { commands: ['sleep 31.4159'] },
          convergence: { criteria: ['The wait ends within the limit'], verification: '', definition_of_done: 'Users wait' },
        }],
      }
      const issue = join(dir, '5.md')
      await writeFile(issue, `# Wait\n\n\`\`\`json\n${JSON.stringify(plan)}\n\`\`\`\n`)
      await cli('plan', '--issue-file', issue, '--repo', repo.dir)
      await cli('approve', '--number', '5', '--repo', repo.dir)
      const child = spawn(process.execPath, [join(ROOT, 'dist/cli/index.js'), 'verify', '--number', '5', '--repo', repo.dir])
      let stderr = ''
      child.stderr.on('data', (chunk) => { stderr += chunk })
      const sleeping = () => execFileSync('ps', ['-eo', 'args']).toString().split('\n').some((l) => l.startsWith('sleep 31.4159'))
      for (let i = 0; i < 100 && !sleeping(); i++) await new Promise((r) => setTimeout(r, 50))
      expect(sleeping()).toBe(true)
      const started = Date.now()
      child.kill('SIGINT')
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
      expect(Date.now() - started).toBeLessThan(30_000) // it did not wait for the 31 s sleep
      expect(code).toBe(1)
      expect(stderr).toContain('stopping the running commands')
      expect(sleeping()).toBe(false)
    } finally {
      await repo.cleanup()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('exits 2 with a pointer to --help on a usage mistake', async () => {
    const run = promisify(execFile)(process.execPath, [join(ROOT, 'dist/cli/index.js'), 'nope'])
    await expect(run).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Run converge --help for usage.') })
  })
})

describe('bad input, said precisely (usage: exit 2; content: exit 1; nothing written)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-cli-bad-'))
    await mkdir(join(dir, 'not-git'))
    await writeFile(join(dir, 'empty.md'), '\n  \n')
    await writeFile(join(dir, 'binary.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff, 0xfe]))
    await writeFile(join(dir, 'list.json'), '[]\n')
    await writeFile(join(dir, 'one.json'), '{}\n')
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))
  const issue = join(ROOT, 'examples', 'demo', 'issue.md')

  it.each([
    [['plan', '--issue-file', issue, '--repo', '/nonexistent/converge-repo'], UsageError, '--repo /nonexistent/converge-repo: no such folder'],
    [['approve', '--number', '1', '--repo', '/nonexistent/converge-repo'], UsageError, '--repo /nonexistent/converge-repo: no such folder'],
    [['plan', '--issue-file', issue, '--repo', 'NOT_GIT'], UsageError, 'is not a git repository: run `git init` there, or point --repo at one'],
    [['plan', '--issue-file', 'MISSING.md', '--repo', 'NOT_GIT'], UsageError, 'missing.md: no such file'],
    [['plan', '--issue-file', 'EMPTY', '--repo', 'NOT_GIT'], InputError, 'is empty: write the issue (a # title, then what should change) and plan it again'],
    [['plan', '--issue-file', 'BINARY', '--repo', 'NOT_GIT'], InputError, 'is not a text file: an issue file is markdown (UTF-8)'],
    [['validate', 'ONE', 'LIST'], UsageError, 'validate takes one plan file, got 2'],
    [['validate', 'MISSING.json'], UsageError, 'missing.json: no such file'],
    [['execute', '--numbr', '3'], UsageError, 'unknown option --numbr (did you mean --number?)'],
    [['execute', '--alow-dirty'], UsageError, 'unknown option --alow-dirty (did you mean --allow-dirty?)'],
    [['exectue'], UsageError, 'Unknown command "exectue" (did you mean execute?)'],
  ] as const)('%j', async (args, kind, message) => {
    const paths: Record<string, string> = {
      NOT_GIT: join(dir, 'not-git'), 'MISSING.md': join(dir, 'missing.md'), EMPTY: join(dir, 'empty.md'), BINARY: join(dir, 'binary.md'),
      ONE: join(dir, 'one.json'), LIST: join(dir, 'list.json'), 'MISSING.json': join(dir, 'missing.json'),
    }
    const real = args.map((a) => paths[a] ?? a)
    const run = cli(...real)
    await expect(run).rejects.toThrow(kind)
    await expect(run).rejects.toThrow(message)
    // Nothing written: the folder that is not a repository is still not one.
    expect(existsSync(join(dir, 'not-git', '.git'))).toBe(false)
  })

  it('a JSON list where a plan should be: the fix says what a plan is', async () => {
    const { code, out } = await cli('validate', join(dir, 'list.json'))
    expect(code).toBe(1)
    expect(out).toContain('A plan is one JSON object (a solution with its tasks), not a list')
  })

  it('exit codes of the binary: 2 for usage, 1 for content; --version prints the version', async () => {
    const run = (...args: string[]) => new Promise<{ code: number | null; out: string }>((done) => {
      execFile(process.execPath, [join(ROOT, 'dist/cli/index.js'), ...args], (error, stdout, stderr) => done({ code: error ? (error.code as number) : 0, out: stdout + stderr }))
    })
    expect(await run('plan', '--issue-file', join(dir, 'empty.md'), '--repo', dir)).toMatchObject({ code: 1 })
    const usage = await run('plan', '--issue-file', issue, '--repo', join(dir, 'nope'))
    expect(usage.code).toBe(2)
    expect(usage.out).toContain('Run converge --help for usage.')
    const version = await run('--version')
    expect(version).toEqual({ code: 0, out: `${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n` })
  })
})

describe('the package (npm pack), as a user installs it for a repository of their own', () => {
  // npm pack and an install of the package: CI's (the bundle's demo runs in `npm test`, above).
  it.runIf(FULL_SUITE)('holds a converge that runs on its own: --version, and the demo from its bundled example', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'converge-pack-'))
    try {
      const run = promisify(execFile)
      const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT })
      await run('tar', ['-xzf', join(dir, stdout.trim().split('\n').at(-1)!), '-C', dir])
      const converge = join(dir, 'package', 'dist', 'cli', 'index.js')
      const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version
      expect((await run(process.execPath, [converge, '--version'], { cwd: dir })).stdout.trim()).toBe(version)
      const demo = await run(process.execPath, [converge, 'demo'], { cwd: dir, timeout: 120_000 })
      expect(demo.stdout).toContain('Every task converged')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 150_000)
})

describe('converge plan on an epic', () => {
  it('records the epic and says what each child is and waits for, instead of "Plan could not be read"', async () => {
    const t = await greetingsRepo()
    try {
      const epic = join(t.dir, '11.md')
      await writeFile(epic, '# Offline mode\n\n1. #12 Cache the notes\n2. #13 Sync queue\n')
      const { code, out } = await cli('plan', '--issue-file', epic, '--repo', t.repo)
      expect(code).toBe(0)
      expect(out).toContain('ISS-11 is an epic (planned): each child is planned as its own issue')
      expect(out).toContain('  #13 Sync queue: not planned yet, waits for #12')
      expect(out).not.toContain('Plan could not be read')
    } finally {
      await t.cleanup()
    }
  })
})
