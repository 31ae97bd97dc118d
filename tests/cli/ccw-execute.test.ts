import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ExecutionRecordSchema } from '../../src/model/index.js'
import { cleanRepo, cli, ROOT } from './support.js'

/** A command that appends `line` to `trace` (outside the repository), after `pauseMs`. */
const appends = (trace: string, line: string, pauseMs = 0) =>
  `node -e "setTimeout(() => require('fs').appendFileSync(${JSON.stringify(trace).replace(/"/g, "'")}, '${line}\\n'), ${pauseMs})"`

/**
 * A CCW solution as its issue-plan agent writes it (`SOL-GH-…` id, no issue_id, `IMPL-` task ids), with the two
 * forms that used to be lost: a verification array of two bare commands, and `dependencies`.
 */
function ccwSolution(trace: string) {
  const task = (id: string, title: string, path: string) => ({
    id, title, action: 'Add', scope: 'src', description: `${title} in ${path}`,
    files: [{ path, action: 'create', change: title }],
    implementation: [`Write ${path}`, 'Export it'],
  })
  return {
    id: 'SOL-GH-31-a7x9',
    description: 'Two steps, the second after the first',
    analysis: { risk: 'low', impact: 'low', complexity: 'low' },
    tasks: [
      {
        ...task('IMPL-001', 'Add the parser', 'src/parse.js'),
        convergence: {
          criteria: ['The parser reads the sample file'],
          // The second command waits: were the tasks in one wave, IMPL-002's line would come before it.
          verification: [appends(trace, 'IMPL-001 first'), appends(trace, 'IMPL-001 second', 400)],
          definition_of_done: 'Files can be read',
        },
      },
      {
        ...task('IMPL-002', 'Add the printer', 'src/print.js'),
        dependencies: ['IMPL-001'],
        convergence: {
          criteria: ['The printer writes the sample back'],
          verification: appends(trace, 'IMPL-002'),
          definition_of_done: 'Files can be written back',
        },
      },
    ],
  }
}

describe('a CCW plan through the CLI', () => {
  it('runs both commands of a verification array, in order, and waits for a task named in dependencies', async () => {
    const { dir, repo, git, cleanup } = await cleanRepo('# parser\n')
    const trace = join(dir, 'trace.log')
    try {
      const issue = join(dir, 'issue.md')
      await writeFile(issue, '# Parse and print\n\nThe plan is in GH-31-solution.json, as CCW wrote it.\n')
      const planFile = join(dir, 'GH-31-solution.json')
      await writeFile(planFile, JSON.stringify(ccwSolution(trace), null, 2))

      const planned = await cli('plan', '--issue-file', issue, '--number', '31', '--repo', repo, '--plan-file', planFile)
      expect(planned.out).toContain('gate PASS')
      expect(planned.code).toBe(0)
      expect((await cli('approve', '--number', '31', '--repo', repo)).code).toBe(0)
      const verified = await cli('verify', '--number', '31', '--repo', repo, '--max-parallel', '2', '--timeout', '1')
      expect(verified.code).toBe(0)

      // Both commands of the array ran, in order, and the dependent task's only after them.
      expect((await readFile(trace, 'utf8')).split('\n').filter(Boolean)).toEqual(['IMPL-001 first', 'IMPL-001 second', 'IMPL-002'])

      const record = ExecutionRecordSchema.parse(JSON.parse(git('show', 'converge/state:.converge/issues/31/execution.json')))
      const [first, second] = [record.tasks.T1!, record.tasks.T2!]
      expect(first.convergence_verified.filter((c) => c.kind === 'command').map((c) => [c.verdict, c.exit_code])).toEqual([['pass', 0], ['pass', 0]])
      expect(Date.parse(second.started_at!)).toBeGreaterThanOrEqual(Date.parse(first.executed_at!))
      const plan = JSON.parse(git('show', 'converge/state:.converge/issues/31/plan.json'))
      expect(plan).toMatchObject({ id: 'SOL-ISS-31-1', original_id: 'SOL-GH-31-a7x9', issue_id: 'ISS-31' })
      expect(plan.tasks.map((t: { id: string; depends_on: string[]; source?: { original_id?: string } }) => [t.id, t.depends_on, t.source?.original_id]))
        .toEqual([['T1', [], 'IMPL-001'], ['T2', ['T1'], 'IMPL-002']])
    } finally {
      await cleanup()
    }
  })

  it('plans a Taskmaster file given with --plan-file, and asks which solution of a .jsonl to plan', async () => {
    const { dir, repo, git, cleanup } = await cleanRepo()
    try {
      const issue = join(dir, '7.md')
      await writeFile(issue, '# Sessions\n\nPlanned in Taskmaster.\n')
      const tasks = join(ROOT, 'tests/fixtures/ccw-compat/taskmaster-tagged.json')
      const planned = await cli('plan', '--issue-file', issue, '--repo', repo, '--plan-file', tasks)
      expect(planned.code).toBe(0)
      const plan = JSON.parse(git('show', 'converge/state:.converge/issues/7/plan.json'))
      expect(plan.tasks.map((t: { id: string; depends_on: string[] }) => [t.id, t.depends_on])).toEqual([['T1', []], ['T2', ['T1']]])

      const lines = join(dir, 'solutions.jsonl')
      const one = { id: 'SOL-ISS-7-1', description: 'x', tasks: [{ id: 'T1', title: 'x', convergence: { criteria: ['x'], verification: 'npm test' } }] }
      await writeFile(lines, `${JSON.stringify(one)}\n${JSON.stringify({ ...one, id: 'SOL-ISS-7-2' })}\n`)
      await expect(cli('plan', '--issue-file', issue, '--repo', repo, '--plan-file', lines)).rejects.toThrow('2 solutions, one per line: save the one to plan in a file of its own')
      await expect(cli('plan', '--issue-file', issue, '--repo', repo, '--plan-file', tasks, '--planner', 'builtin')).rejects.toThrow('--plan-file gives the plan')
    } finally {
      await cleanup()
    }
  })
})
