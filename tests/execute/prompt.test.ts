import { describe, expect, it } from 'vitest'
import { ExecutorReportSchema, taskPrompt } from '../../src/execute/prompt.js'
import type { Task } from '../../src/model/index.js'
import { task as baseTask } from '../support/tasks.js'

const context = { issue: { number: 42, title: 'Token refresh fails silently' }, solutionId: 'SOL-ISS-42-1' }

const fullTask: Task = {
  ...baseTask('T2'),
  title: 'Await the token refresh',
  action: 'Fix',
  type: 'fix',
  priority: 'high',
  scope: 'src/auth',
  description: 'Token refresh fails silently when the call is not awaited.',
  files: [
    { path: 'src/auth/token.ts', action: 'modify', target: 'refreshToken', changes: ['Add await to refreshToken() at line 89'] },
    { path: 'tests/token.test.ts', action: 'create', target: null, changes: [] },
  ],
  implementation: [
    { step: '1', description: 'Await the refresh in token.ts', actions: ['Read token.ts', 'Add await keyword at line 89'] },
    { step: '2', description: 'Cover it with a test', actions: [] },
  ],
  test: { commands: ['npm test -- token'], unit: [], integration: [] },
  convergence: {
    criteria: ['refreshToken() is awaited', 'A failed refresh is reported'],
    verification: 'Run: npx tsc --noEmit\nManual: log in and wait an hour',
    definition_of_done: 'Users stay logged in',
  },
}

describe('taskPrompt', () => {
  it('orders guidance from the most concrete: file changes, step actions, step descriptions, description', () => {
    const prompt = taskPrompt(fullTask, context)
    const at = (text: string) => {
      const index = prompt.indexOf(text)
      expect(index, text).toBeGreaterThan(-1)
      return index
    }
    expect(at('Add await to refreshToken() at line 89')).toBeLessThan(at('Add await keyword at line 89'))
    expect(at('Add await keyword at line 89')).toBeLessThan(at('2. Cover it with a test'))
    expect(at('2. Cover it with a test')).toBeLessThan(at('Token refresh fails silently when'))
    expect(prompt).toContain('- `src/auth/token.ts` (modify, target `refreshToken`)\n  - Add await to refreshToken() at line 89')
    expect(prompt).toContain('- `tests/token.test.ts` (create)')
    expect(prompt).toContain('1. Await the refresh in token.ts\n   - Read token.ts\n   - Add await keyword at line 89')
  })

  it('names the issue, solution and task facts', () => {
    const prompt = taskPrompt(fullTask, context)
    expect(prompt.startsWith('# T2: Await the token refresh\n\nIssue #42: Token refresh fails silently\n')).toBe(true)
    expect(prompt).toContain('Solution SOL-ISS-42-1 · Type: fix · Action: Fix · Priority: high · Effort: small · Scope: src/auth')
  })

  it('lists the criteria, the commands it is judged by, the manual checks and the report format', () => {
    const prompt = taskPrompt(fullTask, context)
    expect(prompt).toContain('## Done when\n\n- [ ] refreshToken() is awaited\n- [ ] A failed refresh is reported')
    expect(prompt).toContain('Definition of done: Users stay logged in')
    expect(prompt).toContain('```sh\nnpm test -- token\nnpx tsc --noEmit\n```')
    expect(prompt).toContain('- Manual: log in and wait an hour')
    expect(prompt).toContain('$CONVERGE_RESULT_FILE')
    expect(prompt).not.toContain('The previous attempt')
  })

  it('says how a task without commands converges', () => {
    const prompt = taskPrompt({ ...fullTask, test: { commands: [], unit: [], integration: [] }, convergence: { ...fullTask.convergence, verification: '' } }, context)
    expect(prompt).toContain('This task has no verification command')
    expect(prompt).not.toContain('```sh')
  })

  it('puts the previous attempt’s failures before the guidance', () => {
    const prompt = taskPrompt(fullTask, { ...context, feedback: '## `npm test` exited with code 1\n' })
    expect(prompt.indexOf('## The previous attempt did not converge')).toBeLessThan(prompt.indexOf('## What to do'))
    expect(prompt).toContain('## `npm test` exited with code 1\n\n## What to do')
  })

  it('leaves out the sections a sparse task has nothing for', () => {
    const prompt = taskPrompt({ ...baseTask('T1'), files: [] }, context)
    expect(prompt).not.toMatch(/### Files|### Implementation steps|### Background|## Done when/)
  })
})

describe('ExecutorReportSchema', () => {
  it('reads a report, defaulting missing criteria', () => {
    expect(ExecutorReportSchema.parse({ summary: 'done', extra: 1 })).toEqual({ criteria: [], summary: 'done' })
    expect(ExecutorReportSchema.parse({ criteria: [{ text: 'x', met: true }] }).criteria).toEqual([{ text: 'x', met: true }])
    expect(ExecutorReportSchema.safeParse({ criteria: [{ text: 'x', met: 'yes' }] }).success).toBe(false)
  })
})
