/**
 * The loop on a real project (issue 34): bytes.js 3.1.2 with mocha in its node_modules (vendored in
 * tests/fixtures/projects/bytes, mocha installed from the registry once: tests/support/real-project.ts), taken
 * through plan, approve and execute, then through the CLI's own hints as a user follows them: verify (where the
 * dependencies are), a retry whose executor fails, two executes started at once, and a start refused for the
 * user's own changes. The check is the project's own `npm test` (mocha from node_modules/.bin).
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { bytesRepository, realProjectModules, type RealProject } from '../support/real-project.js'
import { converge, ROOT } from './support.js'

const N = '101'
const FIX = `node '${join(ROOT, 'tests/fixtures/executors/bytes-fix.mjs')}'`
const failing = (code: number) => `node '${join(ROOT, 'tests/fixtures/executors/exit-with.mjs')}' ${code}`
const CRITERION = "bytes('foobar') is null"

function issueText(): string {
  const plan = {
    description: 'bytes() returns NaN for un-parsable strings',
    analysis: { risk: 'low', impact: 'low', complexity: 'low' },
    tasks: [{
      id: 'T1', title: 'Return null for un-parsable strings', action: 'Fix', type: 'fix', description: "bytes('foobar') returns null, not NaN",
      depends_on: [], files: [{ path: 'index.js', action: 'modify', changes: ['Return null when the number is NaN'] }],
      implementation: ['Return null when parseFloat gives NaN'],
      test: { commands: ['npm test'] },
      convergence: {
        criteria: [CRITERION, 'The README says so'], verification: '', definition_of_done: 'Un-parsable strings give null',
        criteria_commands: [{ criterion: CRITERION, command: 'npm test' }],
      },
    }],
  }
  return `# bytes() returns NaN for un-parsable strings\n\n\`\`\`json\n${JSON.stringify(plan)}\n\`\`\`\n`
}

describe('the loop on a real project (bytes.js with mocha), following the hints', () => {
  let project: RealProject
  let scratch: string
  const git = (...args: string[]) => execFileSync('git', ['-C', project.dir, ...args]).toString().trim()
  const run = (...args: string[]) => converge([...args, '--repo', project.dir])
  const json = async (...args: string[]) => JSON.parse((await run(...args, '--json')).out) as Record<string, any>
  /** The Next: hint `status` prints. */
  const hint = async () => /^ {2}Next: (converge [^ ].*?)(?: {2}\(.*\))?$/m.exec((await run('status', '--number', N)).out)?.[1]
  const t1 = async () => (await json('status', '--number', N)).tasks[0]

  beforeEach(async () => {
    project = await bytesRepository({ tests: 'maintainers' })
    scratch = await mkdtemp(join(tmpdir(), 'converge-issue-'))
    const issue = join(scratch, `${N}.md`)
    await writeFile(issue, issueText())
    expect((await run('plan', '--issue-file', issue, '--number', N)).code).toBe(0)
    expect((await run('approve', '--number', N)).code).toBe(0)
  }, 240_000)
  afterEach(async () => {
    await project.dispose()
    await rm(scratch, { recursive: true, force: true })
  })

  it('plan and show say per criterion the command the plan links to it', async () => {
    const shown = (await run('show', '--number', N)).out
    expect(shown).toContain(`        - ${CRITERION}  [checked by: \`npm test\`]`)
    expect(shown).toContain("        - The README says so  [checked by: the agent's report, else a person]")
  })

  it('after a proven execute, the hinted verify passes where the dependencies are, and the task stays proven', async () => {
    const executed = await run('execute', '--number', N, '--executor', FIX)
    expect(executed.code, executed.out + executed.err).toBe(0)
    expect(await hint()).toBe(`converge verify --number ${N}`)
    expect((await t1()).evidence.kind).toBe('proven')

    const verified = await run(...(await hint())!.split(' ').slice(1))
    expect(verified.code, verified.out + verified.err).toBe(0)
    expect(verified.out).toMatch(/T1 {4}verified/)
    expect(verified.out).toMatch(/^Checked converge\/issue-101 at [0-9a-f]{7} in your working tree/m)
    expect(git('branch', '--show-current')).toBe('master')
    expect(git('status', '--porcelain')).toBe('')
    expect(await t1()).toMatchObject({ status: 'completed', evidence: { kind: 'proven' } })
    expect((await json('status', '--number', N)).issue.status).toBe('completed')
  })

  it('a verify that cannot start the check names the program and the fix, and changes no result; --setup prepares its checkout', async () => {
    expect((await run('execute', '--number', N, '--executor', FIX)).code).toBe(0)
    // The user's own change in the working tree: verify checks the work branch in a checkout of its own, which has
    // no node_modules.
    await writeFile(join(project.dir, 'notes.txt'), 'mine\n')
    const without = await run('verify', '--number', N)
    expect(without.code).toBe(1)
    expect(without.err).toMatch(/T1 could not be checked: `mocha` was not found where `npm test` ran/)
    expect(without.err).toMatch(/--setup '<command>'/)
    expect(without.out + without.err).not.toMatch(/pull request/)
    const after = await json('status', '--number', N)
    expect(after.issue.status).toBe('completed')
    expect(after.tasks[0]).toMatchObject({ status: 'completed', evidence: { kind: 'proven' } })

    const modules = join(await realProjectModules(), 'node_modules')
    const setup = await run('verify', '--number', N, '--setup', `cp -R '${modules}' node_modules`)
    expect(setup.code, setup.out + setup.err).toBe(0)
    expect(setup.out).toMatch(/T1 {4}verified/)
    // Given once, recorded: the next verify prepares its checkout the same way.
    const again = await run('verify', '--number', N)
    expect(again.code, again.out + again.err).toBe(0)
    expect(again.out).toMatch(/prepared with `cp -R/)
    expect(git('branch', '--show-current')).toBe('master')
  })

  it('a retry whose executor fails keeps the proven result and says what the executor did', async () => {
    expect((await run('execute', '--number', N, '--executor', FIX)).code).toBe(0)
    const proven = await t1()
    expect(proven.evidence.kind).toBe('proven')

    const retried = await run('retry', 'T1', '--number', N, '--executor', failing(3))
    expect(retried.out + retried.err).toMatch(/exited with code 3/)
    expect(retried.out + retried.err).toMatch(/giving up: no API key/)
    const kept = await t1()
    expect(kept).toMatchObject({ status: 'completed', commit: proven.commit, evidence: { kind: 'proven' } })
    const status = (await run('status', '--number', N)).out
    expect(status).toMatch(/exit code 3/)
    expect(status).toMatch(/T1 {4}converged/)
    expect(status).not.toMatch(/<agent>/)
    expect(git('branch', '--show-current')).toBe('master')
  })

  it('of two executes started at once, one is refused naming the process that holds the plan; master is untouched and checked out', async () => {
    const slow = `${FIX} 1500`
    const first = run('execute', '--number', N, '--executor', slow)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const second = await run('execute', '--number', N, '--executor', slow)
    const done = await first
    expect(done.code, done.out + done.err).toBe(0)
    expect(second.code).toBe(1)
    expect(second.err).toMatch(/ISS-101 is being executed by another run, process \d+ on .+ \(started \d{4}-\d\d-\d\dT/)
    expect(git('rev-parse', 'master')).toBe(project.start)
    expect(git('branch', '--show-current')).toBe('master')
    expect(git('log', '--format=%s', 'master..converge/issue-101').split('\n')).toEqual(['T1: Return null for un-parsable strings (ISS-101)'])
    expect((await t1()).evidence.kind).toBe('proven')
  })

  it('a start refused for the user\'s own changes leaves the issue as it was', async () => {
    const before = (await json('status', '--number', N)).issue
    await writeFile(join(project.dir, 'index.js'), '// mine\n', { flag: 'a' })
    const refused = await run('execute', '--number', N, '--executor', FIX)
    expect(refused.code).toBe(1)
    expect(refused.out + refused.err).toMatch(/changes that are not Converge's: index\.js/)
    const after = (await json('status', '--number', N)).issue
    expect(after).toEqual(before)
    expect(await hint()).toBe(`converge execute --number ${N} --executor <agent>`)
    expect(git('branch', '--show-current')).toBe('master')
  })
})
