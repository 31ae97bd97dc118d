/**
 * A command run on checkout content it already ran on in the run is not run again (execute/check-memo.ts): each
 * task's baseline on the tree the task before it left takes that task's checks, and the run of the whole chain
 * runs its shared command once per task instead of twice. A task that wrote only its checks has a forward run
 * whose tree is what its checks ran on: it takes their results.
 */
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanRepo, converge, type CleanRepo } from '../cli/support.js'

let t: CleanRepo | undefined
let scratch: string | undefined
afterEach(async () => {
  await t?.cleanup()
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

const task = (id: string, file: string, command: string, depends: string[]) => ({
  id, title: `Write ${file}`, action: 'Create', type: 'feature', description: `Write ${file}`,
  files: [{ path: file, action: 'create', changes: ['Write it'] }], implementation: ['Write it'],
  test: { commands: [command, `test -f ${file}`] },
  convergence: { criteria: [`${file} is there`], verification: '', definition_of_done: 'Written' },
  depends_on: depends,
})

describe('results known by checkout content', () => {
  it("a task's baseline on the tree the task before it left is that task's checks, not run again", async () => {
    t = await cleanRepo()
    scratch = await mkdtemp(join(tmpdir(), 'converge-memo-'))
    // Counts its runs outside the checkout, so that counting changes no content it is keyed by.
    const counter = join(scratch, 'runs.log')
    await writeFile(join(scratch, 'count.cjs'), `require('node:fs').appendFileSync(${JSON.stringify(counter)}, 'run\\n')\n`)
    await appendFile(counter, '')
    const shared = `node ${join(scratch, 'count.cjs')}`
    const plan = {
      description: 'Three files', analysis: { risk: 'low', impact: 'low', complexity: 'low' },
      tasks: [task('T1', 'a.txt', shared, []), task('T2', 'b.txt', shared, ['T1']), task('T3', 'c.txt', shared, ['T2'])],
    }
    const issue = join(scratch, '5.md')
    await writeFile(issue, `# Three files\n\n\`\`\`json\n${JSON.stringify(plan)}\n\`\`\`\n`)
    expect((await converge(['plan', '--issue-file', issue, '--number', '5', '--repo', t.repo])).code).toBe(0)
    expect((await converge(['approve', '--number', '5', '--repo', t.repo])).code).toBe(0)
    const executor = `node -e "const t = JSON.parse(require('fs').readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8')); for (const f of t.files) require('fs').writeFileSync(f.path, 'x')"`
    const run = await converge(['execute', '--number', '5', '--repo', t.repo, '--executor', executor, '--max-parallel', '1', '--json'])
    const document = JSON.parse(run.out) as { tasks: Array<{ id: string; status: string; evidence: { before: Array<{ command: string; exit_code: number }> } }> }
    expect(document.tasks.map((task) => task.status)).toEqual(['completed', 'completed', 'completed'])
    // T1's baseline and the three tasks' checks: T2's and T3's baselines are the checks of the task before them.
    const runs = (await readFile(counter, 'utf8')).split('\n').filter(Boolean).length
    expect(runs).toBe(4)
    for (const task of document.tasks) expect(task.evidence.before.find((r) => r.command === shared)?.exit_code).toBe(0)
  }, 120_000)

  it("a forward run on exactly what the task's checks ran on takes their results; one without the code runs", async () => {
    t = await cleanRepo()
    scratch = await mkdtemp(join(tmpdir(), 'converge-memo-'))
    const counter = join(scratch, 'runs.log')
    await writeFile(join(scratch, 'count.cjs'), `require('node:fs').appendFileSync(${JSON.stringify(counter)}, process.argv[2] + '\\n')\n`)
    await appendFile(counter, '')
    const count = `node ${join(scratch, 'count.cjs')}`
    // Each file's content is its one change; the executor writes it as it is.
    const file = (path: string, content: string) => ({ path, action: 'create', changes: [content] })
    const plan = {
      description: 'A test, then code and its test', analysis: { risk: 'low', impact: 'low', complexity: 'low' },
      tasks: [
        { ...task('T1', 'test/one.test.cjs', `${count} T1 && node test/one.test.cjs`, []), type: 'testing',
          files: [file('test/one.test.cjs', "process.exit(require('fs').existsSync('README.md') ? 0 : 1)")] },
        { ...task('T2', 'two.txt', `${count} T2 && node test/two.test.cjs`, ['T1']),
          files: [file('two.txt', 'two'), file('test/two.test.cjs', "process.exit(require('fs').existsSync('two.txt') ? 0 : 1)")] },
      ].map((t) => ({ ...t, test: { commands: [t.test.commands[0]!] } })),
    }
    const issue = join(scratch, '4701.md')
    await writeFile(issue, `# A test, then code\n\n\`\`\`json\n${JSON.stringify(plan)}\n\`\`\`\n`)
    expect((await converge(['plan', '--issue-file', issue, '--number', '4701', '--repo', t.repo])).code).toBe(0)
    expect((await converge(['approve', '--number', '4701', '--repo', t.repo])).code).toBe(0)
    const executor = `node -e "const fs = require('fs'); const t = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8')); for (const f of t.files) { fs.mkdirSync(require('path').dirname(f.path), { recursive: true }); fs.writeFileSync(f.path, f.changes[0]) }"`
    const run = await converge(['execute', '--number', '4701', '--repo', t.repo, '--executor', executor, '--max-parallel', '1', '--json'])
    const document = JSON.parse(run.out) as { tasks: Array<{ id: string; status: string; evidence: { kind: string; forward?: Array<{ exit_code: number }> } }> }
    const byId = Object.fromEntries(document.tasks.map((task) => [task.id, task]))
    expect(document.tasks.map((task) => task.status)).toEqual(['completed', 'completed'])
    // T1's forward tree is its end state: recorded, passing (a test that passes on the code as it was), not run again.
    expect(byId.T1!.evidence.forward?.map((r) => r.exit_code)).toEqual([0])
    expect(byId.T1!.evidence.kind).toBe('regression-guard')
    // T2's forward tree lacks two.txt: it runs, and fails.
    expect(byId.T2!.evidence.forward?.[0]?.exit_code).not.toBe(0)
    expect(byId.T2!.evidence.kind).toBe('proven')
    const runs = (await readFile(counter, 'utf8')).split('\n').filter(Boolean)
    // Baseline and checks each; T2's forward run besides.
    expect(runs.filter((r) => r === 'T1')).toHaveLength(2)
    expect(runs.filter((r) => r === 'T2')).toHaveLength(3)
  }, 120_000)
})
