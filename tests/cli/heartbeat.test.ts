/**
 * A long task in a CI log (output not a terminal) says it is alive: a heartbeat line every 30 s with its elapsed time
 * and its executor's last output line. And Ctrl-C during a task says what it discarded.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { runCli } from '../../src/cli/cli.js'
import { HEARTBEAT_MS, progressLines } from '../../src/cli/progress.js'
import type { ExecutionRecord, Task } from '../../src/model/index.js'
import { ROOT, converge, greetingsRepo } from './support.js'

describe('progress in output that is not a terminal', () => {
  afterEach(() => vi.useRealTimers())

  it('prints a heartbeat every 30 s per running task, with its elapsed time and last output line, until it ends', () => {
    vi.useFakeTimers()
    const lines: string[] = []
    const progress = progressLines({ out: (text) => lines.push(text), err: () => {}, tty: false })
    progress.onTaskStart!({ id: 'T2', title: 'Add the parser' } as Task)
    progress.onOutput!('T2', '\u001b[32m✓ 41 tests passed\u001b[0m')
    vi.advanceTimersByTime(HEARTBEAT_MS - 1)
    expect(lines).toEqual(['  ▸ T2 Add the parser'])
    vi.advanceTimersByTime(1)
    progress.onOutput!('T2', 'running test 42 of 80')
    vi.advanceTimersByTime(HEARTBEAT_MS)
    expect(lines.slice(1)).toEqual(['  … T2 running for 30.0 s; last output: ✓ 41 tests passed', '  … T2 running for 1m 00s; last output: running test 42 of 80'])
    const record = { mode: 'execute', tasks: { T2: { task_id: 'T2', status: 'completed', attempts: 1, duration_ms: 61_000, commit_hash: null } } } as unknown as ExecutionRecord
    progress.onProgress!(record, {} as never)
    vi.advanceTimersByTime(HEARTBEAT_MS * 3)
    expect(lines.slice(3)).toEqual(['  ✓ T2 converged (1 attempt, 1m 01s)'])
    progress.close()
  })
})

describe('Ctrl-C during converge execute', () => {
  it('says which running task it discarded, that nothing of it was recorded, and how to run it again', async () => {
    const t = await greetingsRepo()
    try {
      const slow = join(t.dir, 'slow.mjs')
      await writeFile(slow, "setTimeout(() => {}, 20_000)\nconsole.log('working')\n")
      await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
      await converge(['approve', '--number', '7', '--repo', t.repo])
      const cancel = new AbortController()
      const err: string[] = []
      const out: string[] = []
      const run = runCli(['execute', '--number', '7', '--repo', t.repo, '--executor', `node '${slow}'`], {
        out: (text) => {
          out.push(text)
          if (text.includes('▸ T1')) setTimeout(() => cancel.abort(), 300)
        },
        err: (text) => err.push(text),
      }, ROOT, cancel.signal)
      await run
      expect(err).toContain('Ctrl-C: T1 did not finish: its changes were put back and nothing of it was recorded; converge execute --number 7 --executor <agent> runs it again')
      expect(JSON.parse(t.git('show', 'converge/state:.converge/issues/7/execution.json')).tasks).toEqual({})
    } finally {
      await t.cleanup()
    }
  })
})
