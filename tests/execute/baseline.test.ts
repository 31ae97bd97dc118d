import { access, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runBaseline, taskEvidence } from '../../src/execute/baseline.js'
import { classifyEvidence, integrityProblem, TaskEvidenceSchema, type ConvergenceCheck, type EvidenceFacts, type EvidenceRun } from '../../src/model/index.js'
import { task } from '../support/tasks.js'

const run = (exit: number | null, command = 'npm test'): EvidenceRun => ({ command, exit_code: exit, duration_ms: 5, output_tail: '' })
const facts = (overrides: Partial<EvidenceFacts>): EvidenceFacts => ({
  type: 'fix', paths: ['src/a.ts'], changed: true, before: [run(1)], after: [run(0)], ...overrides,
})

describe('classifyEvidence', () => {
  it('proven: a command failed before and every command passes after', () => {
    expect(classifyEvidence(facts({}))).toBe('proven')
    expect(classifyEvidence(facts({ before: [run(0, 'a'), run(127, 'b')], after: [run(0, 'a'), run(0, 'b')] }))).toBe('proven')
  })

  it('a baseline killed or timed out is inconclusive, never "failed before" (SPEC §7 evidence integrity)', () => {
    expect(classifyEvidence(facts({ before: [run(null)] }))).toBe('unproven')
    for (const killed of [130, 137, 143]) expect(classifyEvidence(facts({ before: [run(killed)] }))).toBe('unproven')
    // One red run does not make up for a killed one beside it.
    expect(classifyEvidence(facts({ before: [run(1, 'a'), run(null, 'b')], after: [run(0, 'a'), run(0, 'b')] }))).toBe('unproven')
  })

  it('the forward run: checks the task wrote that pass with its code put back prove nothing', () => {
    expect(classifyEvidence(facts({ forward: [run(0)] }))).toBe('unproven')
    expect(classifyEvidence(facts({ forward: [run(1)] }))).toBe('proven')
    expect(classifyEvidence(facts({ forward: [run(null)] }))).toBe('unproven')
    // A test task whose new test passes on the code as it was guards it: that is what it was for.
    expect(classifyEvidence(facts({ type: 'testing', forward: [run(0)] }))).toBe('regression-guard')
    expect(integrityProblem({ before: [run(1)], forward: [run(0)] })).toBe('passes-without-change')
  })

  it('the reverse run: checks that existed before, put back, must still pass', () => {
    expect(classifyEvidence(facts({ forward: [run(1)], reverse: [run(1)] }))).toBe('unproven')
    expect(classifyEvidence(facts({ type: 'testing', before: [run(0)], forward: [run(0)], reverse: [run(1)] }))).toBe('unproven')
    expect(classifyEvidence(facts({ forward: [run(1)], reverse: [run(0)] }))).toBe('proven')
    expect(integrityProblem({ before: [run(1)], forward: [run(1)], reverse: [run(1)] })).toBe('changed-expectations')
  })

  it('unproven: a fix or feature task whose checks passed before and after', () => {
    for (const type of ['fix', 'feature', 'enhancement']) expect(classifyEvidence(facts({ type, before: [run(0)] }))).toBe('unproven')
  })

  it('regression-guard: a refactor, test or docs task green before and after, with a change', () => {
    expect(classifyEvidence(facts({ type: 'refactor', before: [run(0)] }))).toBe('regression-guard')
    expect(classifyEvidence(facts({ type: 'testing', before: [run(0)] }))).toBe('regression-guard')
    expect(classifyEvidence(facts({ type: 'feature', paths: ['README.md', 'docs/usage.md'], before: [run(0)] }))).toBe('regression-guard')
    // Documentation beside code is not a docs task.
    expect(classifyEvidence(facts({ type: 'feature', paths: ['README.md', 'src/a.ts'], before: [run(0)] }))).toBe('unproven')
  })

  it('no-change wins over whatever the commands say', () => {
    expect(classifyEvidence(facts({ changed: false }))).toBe('no-change')
    expect(classifyEvidence(facts({ changed: false, type: 'refactor', before: [run(0)] }))).toBe('no-change')
    expect(classifyEvidence(facts({ changed: false, after: [] }))).toBe('no-change')
  })

  it('manual: no command to run', () => {
    expect(classifyEvidence(facts({ before: [], after: [] }))).toBe('manual')
  })

  it('not-measured: no baseline', () => {
    expect(classifyEvidence(facts({ before: undefined }))).toBe('not-measured')
  })

  it('a command failing after the change proves nothing, whatever the baseline', () => {
    expect(classifyEvidence(facts({ after: [run(1)] }))).toBe('unproven')
    expect(classifyEvidence(facts({ before: undefined, after: [run(0, 'a'), run(2, 'b')] }))).toBe('unproven')
  })
})

describe('runBaseline and taskEvidence', () => {
  let repo: string
  beforeAll(async () => {
    repo = await mkdtemp(join(tmpdir(), 'converge-evidence-'))
    await writeFile(join(repo, 'state.txt'), 'broken\n')
  })
  afterAll(() => rm(repo, { recursive: true, force: true }))

  it('runs every command on the tree as it is, and a command that cannot run is a failing baseline', async () => {
    const t = { ...task('T1'), test: { commands: ['grep -q fixed state.txt', 'test -f state.txt', './missing-script.sh'], unit: [], integration: [] } }
    const before = await runBaseline(t, { repoDir: repo, timeoutMs: 10_000, secrets: [], issue: 7 })
    expect(before.map((r) => [r.command, r.exit_code])).toEqual([['grep -q fixed state.txt', 1], ['test -f state.txt', 0], ['./missing-script.sh', 127]])
    expect(before[2]!.output_tail).toMatch(/not found|No such file/)
  })

  it('gets the environment of a verification, attempt 0, and masks secrets', async () => {
    const t = { ...task('T4'), test: { commands: ['echo "$CONVERGE_TASK_ID/$CONVERGE_ATTEMPT/$CONVERGE_ISSUE s3cr3t-value"'], unit: [], integration: [] } }
    const [only] = await runBaseline(t, { repoDir: repo, timeoutMs: 10_000, secrets: ['s3cr3t-value'], issue: 9 })
    expect(only!.output_tail).toContain('T4/0/9')
    expect(only!.output_tail).not.toContain('s3cr3t-value')
  })

  it('a cancelled run records no baseline and starts no further command', async () => {
    const t = { ...task('T5'), test: { commands: ['touch first.txt', 'touch second.txt'], unit: [], integration: [] } }
    const cancelled = new AbortController()
    cancelled.abort()
    expect(await runBaseline(t, { repoDir: repo, timeoutMs: 10_000, secrets: [], issue: 7, signal: cancelled.signal })).toEqual([])
    await expect(access(join(repo, 'first.txt'))).rejects.toThrow()
    await expect(access(join(repo, 'second.txt'))).rejects.toThrow()
  })

  it('records the evidence in the shape execution.json keeps', () => {
    const t = { ...task('T2'), type: 'fix' as const, test: { commands: ['npm test'], unit: [], integration: [] } }
    const after: ConvergenceCheck[] = [
      { kind: 'command', text: 'npm test', verdict: 'pass', verified_by: 'command', exit_code: 0, duration_ms: 12, output_tail: 'ok' },
      { kind: 'criterion', text: 'It works', verdict: 'pending', verified_by: 'manual' },
    ]
    const evidence = taskEvidence(t, [run(1)], after, true)
    expect(TaskEvidenceSchema.parse(evidence)).toEqual({
      kind: 'proven', before: [run(1)], after: [{ command: 'npm test', exit_code: 0, duration_ms: 12, output_tail: 'ok' }],
    })
    expect(taskEvidence(t, undefined, after, true)).toMatchObject({ kind: 'not-measured', before: [] })
  })
})
