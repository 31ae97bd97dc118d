/**
 * Plans of user size: a 100 000-task dependency chain ended in "Maximum call stack size exceeded" (the report's
 * lines spread into `push(...)`, one call argument a task). The chain is planned, rendered and scheduled in a child
 * process: by default 6 000 tasks on a call stack of 75 kB (the same ratio of tasks to stack as 100 000 tasks on
 * node's default 984 kB, in a few seconds), and with `CONVERGE_SUITE_SIZE=3` (CI) 50 000 tasks on half the default stack
 * (the ratio of 100 000 on all of it; the 100 000 themselves took 110 s of CI's last minutes).
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { SUITE_SIZE } from '../support/suite-size.js'

const SIZE = SUITE_SIZE
const FULL = SIZE >= 3
const TASKS = FULL ? 50_000 : 6_000
const STACK = FULL ? ['--stack-size=492'] : ['--stack-size=75']
const SCRIPT = fileURLToPath(new URL('./support/render-chain.ts', import.meta.url))

describe('plans of user size never exhaust the call stack', () => {
  it(`a ${TASKS}-task chain is read, analysed, rendered (execution.md, the comment) and its failures skipped`, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [...STACK, '--import', 'tsx', SCRIPT, String(TASKS)], { maxBuffer: 1 << 20 })
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, number>
    expect(result.waves).toBe(TASKS)
    expect(result.skipped).toBe(TASKS - 1)
    expect(result.comment).toBeGreaterThan(1000)
    expect(result.markdown).toBeGreaterThan(TASKS * 100)
  }, FULL ? 600_000 : 120_000)
})
