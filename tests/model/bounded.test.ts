import { describe, expect, it } from 'vitest'
import { boundTaskResult, capText, MAX_RECORDED_CHARACTERS, type TaskResult } from '../../src/model/index.js'

describe('what an executor can write into the state branch is bounded', () => {
  it('cuts a long text to its start and end and says how much was cut', () => {
    const text = `start${'e'.repeat(40_000_000)}end`
    const cut = capText(text)
    expect(cut.length).toBeLessThanOrEqual(MAX_RECORDED_CHARACTERS)
    expect(cut.startsWith('start')).toBe(true)
    expect(cut.endsWith('end')).toBe(true)
    expect(cut).toMatch(/\[Converge cut 39,98\d,\d{3} characters here: the text was 40,000,008 long\]/)
    expect(capText('short')).toBe('short')
  })

  it('bounds every text of a task result: evidence in the checks, output tails, the error', () => {
    const huge = 'e'.repeat(1_000_000)
    const result: TaskResult = {
      task_id: 'T1', status: 'failed', started_at: null, executed_at: null, duration_ms: 1, files_modified: [], commit_hash: null, tests_passed: null, attempts: 1, error: huge,
      convergence_verified: [{ kind: 'criterion', text: 'done', verdict: 'pass', verified_by: 'agent', output_tail: huge }],
      executor_runs: [{ attempt: 1, exit_code: 0, signal: null, timed_out: false, duration_ms: 1, output_tail: huge, agent: null }],
    }
    const bounded = boundTaskResult(result)
    expect(JSON.stringify(bounded).length).toBeLessThan(4 * MAX_RECORDED_CHARACTERS)
    expect(bounded.convergence_verified[0]!.output_tail).toContain('[Converge cut')
    expect(bounded).toMatchObject({ task_id: 'T1', status: 'failed', attempts: 1 })
  })
})
