import { describe, expect, it } from 'vitest'
import { analysePlan } from '../../src/plan/analyse.js'
import { isWholeSuite, linkCriteria, missingFileFindings, proofFindings } from '../../src/plan/proof-findings.js'
import type { Task } from '../../src/model/index.js'
import { task } from '../support/tasks.js'

const withCommands = (t: Task, commands: string[]): Task => ({ ...t, test: { ...t.test, commands } })

describe('plan-time findings about what will not prove anything', () => {
  it('knows the whole suite from a named test', () => {
    for (const c of ['npm test', 'npm run test', 'yarn test', 'pytest', 'pytest -q', 'go test ./...', 'cargo test', 'make test', 'npx vitest run', 'python -m pytest'])
      expect(isWholeSuite(c), c).toBe(true)
    for (const c of ['npm test -- test/slug.test.js', 'pytest tests/test_slug.py', 'go test ./pkg/slug', 'cargo test slug', 'npx vitest run tests/a.test.ts', 'test -f package.json'])
      expect(isWholeSuite(c), c).toBe(false)
  })

  it('a fix or feature task checked only by the whole suite is a finding; a refactor or a named test is not', () => {
    const fix = { ...withCommands(task('T1'), ['npm test']), type: 'fix' as const }
    const refactor = { ...withCommands(task('T2'), ['npm test']), type: 'refactor' as const }
    const named = { ...withCommands(task('T3'), ['npm test -- test/a.test.js']), type: 'feature' as const }
    const findings = proofFindings({ tasks: [fix, refactor, named] })
    expect(findings.filter((f) => f.rule === 'suite-only-check')).toEqual([expect.objectContaining({ path: 'tasks[0].test.commands', severity: 'medium' })])
    expect(findings[0]!.message).toContain('T1 is a fix task checked only by `npm test`')
  })

  it('criteria no command is linked to are one finding; a linked one is not counted, a link to a command the task does not run is', () => {
    const linked: Task = {
      ...withCommands(task('T1'), ['npm test -- a']),
      convergence: { criteria: ['A works', 'B works'], verification: '', definition_of_done: '', criteria_commands: [{ criterion: 'A works', command: 'npm test -- a' }, { criterion: 'B works', command: 'npm test -- b' }] },
    }
    const [finding] = proofFindings({ tasks: [linked] }).filter((f) => f.rule === 'criteria-without-command')
    expect(finding!.message).toMatch(/^1 criterion of T1 no command checks/)
  })

  it('a task that modifies a file the repository does not have, and no task creates, is a finding', () => {
    const tasks = [task('T1', [], ['src/app.ts', 'src/gone.ts']), { ...task('T2'), files: [{ path: 'src/new.ts', action: 'create' as const, target: null, changes: [] }] }, task('T3', [], ['src/new.ts'])]
    const findings = missingFileFindings({ tasks }, (path) => path === 'src/app.ts')
    expect(findings).toEqual([expect.objectContaining({ rule: 'missing-file', severity: 'high', path: 'tasks[0].files[1].path', message: 'T1 will modify `src/gone.ts`, which the repository does not have' })])
  })

  it('links a criterion to the command that holds its code word for word, and the link survives reading a plan', () => {
    const commands = ['node -e "assert.equal(slugify(\'Ça va?\'), \'ca-va\')"', 'npm test -- test/slug.test.js']
    expect(linkCriteria(["`slugify('Ça va?')` returns `'ca-va'`", '`test/slug.test.js` passes', 'Titles read well'], commands)).toEqual([
      { criterion: "`slugify('Ça va?')` returns `'ca-va'`", command: commands[0] },
      { criterion: '`test/slug.test.js` passes', command: commands[1] },
    ])
    const plan = { description: 'd', tasks: [{ ...withCommands(task('T1'), [commands[1]!]), convergence: { criteria: ['`test/slug.test.js` passes'], criteria_commands: [{ criterion: '`test/slug.test.js` passes', command: commands[1] }] } }] }
    const analysis = analysePlan(plan, 1)
    expect(analysis.warnings).toEqual([])
    expect(analysis.solution!.tasks[0]!.convergence.criteria_commands).toEqual([{ criterion: '`test/slug.test.js` passes', command: commands[1] }])
    expect(analysis.proof!.map((f) => f.rule)).not.toContain('criteria-without-command')
  })
})
