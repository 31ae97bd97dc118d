/**
 * A command run on checkout content it already ran on in the run is not run again (execute/check-memo.ts): each
 * task's baseline on the tree the task before it left takes that task's checks, and the run of the whole chain
 * runs its shared command once per task instead of twice.
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
})
