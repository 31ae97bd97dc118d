/**
 * Proof, not a green light, through the CLI: a plan whose checks already pass, executed by an executor that does
 * nothing (`--executor true`), is not reported as converged work, and `status --json` shows each task's evidence.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanRepo, converge, type CleanRepo } from './support.js'

let t: CleanRepo | undefined
afterEach(() => t?.cleanup())

/** Issue 3: T1 "fixes" the README, checked by a command that passes before any work (the form of the report in issue 24). */
async function alreadyGreen(file = 'README.md'): Promise<string> {
  const plan = {
    description: 'Fix the greeting',
    analysis: { risk: 'low', impact: 'low', complexity: 'low' },
    tasks: [{
      id: 'T1', title: 'Fix the greeting in README.md', action: 'Fix', type: 'fix', description: 'Say hello',
      files: [{ path: file, action: 'modify', changes: ['Say hello'] }], implementation: ['Say hello'],
      test: { commands: ['test -f README.md'] },
      convergence: { criteria: ['README.md greets the reader'], verification: '', definition_of_done: 'Readers are greeted' },
    }],
  }
  const issue = join(t!.dir, '3.md')
  await writeFile(issue, `# Fix the greeting\n\n\`\`\`json\n${JSON.stringify(plan)}\n\`\`\`\n`)
  return issue
}

describe('converge execute on a plan whose checks already pass', () => {
  it('an executor that changed nothing: no converged work, the last line says so, status --json shows the evidence', async () => {
    t = await cleanRepo()
    const issue = await alreadyGreen()
    expect((await converge(['plan', '--issue-file', issue, '--repo', t.repo])).code).toBe(0)
    expect((await converge(['approve', '--number', '3', '--repo', t.repo])).code).toBe(0)

    const run = await converge(['execute', '--number', '3', '--repo', t.repo, '--executor', 'true'])
    expect(run.out).not.toMatch(/T1 +converged/)
    expect(run.out).toMatch(/0\/1 converged · 1 not proven/)
    expect(run.out).toContain('T1 changed nothing: its check already passed before the change')
    expect(run.out.trimEnd().split('\n').at(-1)).toBe('Not proven: 1 task completed without proof (T1 changed nothing): nothing shows its change did what it asks.')

    const status = JSON.parse((await converge(['status', '--number', '3', '--repo', t.repo, '--json'])).out)
    expect(status.tasks[0]).toMatchObject({
      id: 'T1', status: 'completed', proof: 'T1 changed nothing: its check already passed before the change',
      evidence: { kind: 'no-change', before: [{ command: 'test -f README.md', exit_code: 0 }], after: [{ command: 'test -f README.md', exit_code: 0 }] },
    })
    const text = (await converge(['status', '--number', '3', '--repo', t.repo])).out
    expect(text).toMatch(/T1 +changed nothing/)
  })

  it('a fix that changed a file its already-green check does not test: unproven; a bad --evidence is a usage error', async () => {
    t = await cleanRepo()
    await writeFile(join(t.repo, 'greet.js'), 'export const greet = () => "hi"\n')
    t.git('add', 'greet.js')
    t.git('commit', '--quiet', '-m', 'greet')
    const issue = await alreadyGreen('greet.js')
    await converge(['plan', '--issue-file', issue, '--repo', t.repo])
    await converge(['approve', '--number', '3', '--repo', t.repo])
    const run = await converge(['execute', '--number', '3', '--repo', t.repo, '--executor', 'echo "// hello" >> greet.js'])
    expect(run.out).toContain('T1: `test -f README.md` already passed before the change: nothing shows the change did what the task asks')
    expect(run.out.trimEnd().split('\n').at(-1)).toMatch(/^Not proven: 1 task completed without proof \(T1 unproven\)/)

    await expect(converge(['execute', '--number', '3', '--repo', t.repo, '--executor', 'true', '--evidence', 'maybe'])).rejects.toThrow('--evidence takes on or off, not "maybe"')
  })

  it('--evidence off records the task as not measured', async () => {
    t = await cleanRepo()
    const issue = await alreadyGreen()
    await converge(['plan', '--issue-file', issue, '--repo', t.repo])
    await converge(['approve', '--number', '3', '--repo', t.repo])
    const run = JSON.parse((await converge(['execute', '--number', '3', '--repo', t.repo, '--executor', 'echo hello >> README.md', '--evidence', 'off', '--json'])).out)
    expect(run.tasks[0].evidence).toMatchObject({ kind: 'not-measured', before: [] })
    expect(run.tasks[0].proof).toBe('T1: not measured (evidence: off): `test -f README.md` ran after the change only')
  })
})
