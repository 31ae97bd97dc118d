import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { cli } from './support.js'

/** A CCW solution as `ccw issue` stores it: its own id style, no issue_id, a two-command verification array. */
const task = (id: string, title: string, path: string, verification: string[], extra: Record<string, unknown> = {}) => ({
  id, title, type: 'feature', description: `${title} in ${path}`,
  implementation: [{ step: '1', description: `Change ${path}`, actions: ['Edit the module'] }],
  files: [{ path, action: 'modify', changes: [`${title} in ${path}`] }],
  convergence: { criteria: [`${title} works`], verification, definition_of_done: `${title} is done for users` },
  ...extra,
})
const ccwSolution = (issue: number, uid: string) => ({
  id: `SOL-GH-${issue}-${uid}`, description: 'Refresh the token before it expires',
  analysis: { risk: 'low', impact: 'medium', complexity: 'low' },
  tasks: [
    task('IMPL-001', 'Add token refresh', 'src/auth/token.ts', ['npm test -- token', 'npx tsc --noEmit']),
    task('IMPL-002', 'Use the refresh in the client', 'src/client.ts', ['npm test -- client'], { dependencies: ['IMPL-001'] }),
  ],
})

describe('converge validate reads the plan forms people bring', () => {
  let dir: string
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'converge-forms-')) })
  afterAll(() => rm(dir, { recursive: true, force: true }))
  const file = async (name: string, content: string) => {
    const path = join(dir, name)
    await writeFile(path, content)
    return path
  }

  it('a CCW solution passes', async () => {
    const { code, out } = await cli('validate', await file('sol.json', JSON.stringify(ccwSolution(123, 'a7x9'))))
    expect(out).toContain('gate PASS')
    expect(out).toMatch(/1\. T1 Add token refresh\n\s+2\. T2 Use the refresh/)
    expect(code).toBe(0)
  })

  it('a .jsonl of solutions asks for one, or --all, which validates each line', async () => {
    const path = await file('solutions.jsonl', `${JSON.stringify(ccwSolution(1, 'a1b2'))}\n${JSON.stringify(ccwSolution(2, 'c3d4'))}\n`)
    await expect(cli('validate', path)).rejects.toThrow('holds 2 solutions, one per line: pass one, or use --all')
    const { code, out } = await cli('validate', '--all', path)
    expect(out).toContain(`${path}:1`)
    expect(out).toContain(`${path}:2`)
    expect(code).toBe(0)
    // --json: one document, a report per line
    const json = await cli('validate', '--all', '--json', path)
    expect(JSON.parse(json.out).map((r: { plan: string; gate: string }) => [r.plan, r.gate])).toEqual([[`${path}:1`, 'pass'], [`${path}:2`, 'pass']])
  })

  it('Markdown: its ```json block is validated; without one, a clear message', async () => {
    const md = `# Plan\n\nSome words.\n\n\`\`\`json\n${JSON.stringify(ccwSolution(5, 'e5f6'), null, 2)}\n\`\`\`\n`
    expect((await cli('validate', await file('plan.md', md))).code).toBe(0)
    await expect(cli('validate', await file('notes.md', '# Notes\n\n- do the thing\n'))).rejects.toThrow('is Markdown with no ```json block')
  })

  it("reads the issue from the file's name when the plan names none it can use", async () => {
    const dated = { ...ccwSolution(1, 'b2k4'), id: 'SOL-ISS-20251229-001-b2k4' }
    const { code, out } = await cli('validate', await file('ISS-88.json', JSON.stringify(dated)))
    expect(out).toContain('Plan SOL-ISS-88-1 for ISS-88')
    expect(code).toBe(0)
    expect((await cli('validate', '--number', '9', await file('GH-88-solution.json', JSON.stringify(dated)))).out).toContain('Plan SOL-ISS-9-1 for ISS-9')
  })

  it('a .md file of prose is Markdown without a plan, not "Not valid JSON"', async () => {
    await expect(cli('validate', await file('plan-notes.md', 'We will add the parser first, then the printer.\n')))
      .rejects.toThrow('plan-notes.md is Markdown with no ```json block')
  })

  it('a Taskmaster tasks.json', async () => {
    const { code } = await cli('validate', '--number', '7', 'tests/fixtures/ccw-compat/taskmaster-tagged.json')
    expect(code).toBe(0)
  })
})

describe('converge plan with a rejected plan', () => {
  it('does not name a plan.json it did not write', async () => {
    const { busyWorkingRepo } = await import('../support/temp-repos.js')
    const repo = await busyWorkingRepo()
    const dir = await mkdtemp(join(tmpdir(), 'converge-rejected-'))
    try {
      const issue = join(dir, 'issue-9.md')
      await writeFile(issue, '# Broken plan\n\n```json\n{ "id": "SOL-ISS-9-1", "description": "x", "tasks": [ { "id": "T1" } ] }\n```\n')
      const { out } = await cli('plan', '--issue-file', issue, '--number', '9', '--repo', repo.dir, '--planner', 'explicit')
      expect(out).toMatch(/State: converge\/state @ [0-9a-f]{12} \(plan rejected, not written/)
      expect(out).not.toContain('plan.json')
    } finally {
      await rm(dir, { recursive: true, force: true })
      await repo.cleanup()
    }
  })
})
