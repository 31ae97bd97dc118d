/**
 * Proof an executor cannot fake (SPEC §7 "Evidence integrity"), through the CLI, on a real project: bytes.js 3.1.2
 * with its maintainers' mocha tests and mocha in node_modules (tests/support/real-project.ts). Each cheat of an
 * executor under pressure (tests/fixtures/executors/cheats.mjs) makes the task's checks pass without fixing the
 * bug; none may be reported proven, and the task's proof names the check files it wrote and the run that failed.
 * The honest fixes — with the maintainers' failing test, and with a new test of its own — stay proven.
 * The same cheats through dist/index.js: tests/e2e/evidence-integrity.test.ts.
 */
import { readdir, readlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runGit } from '../../src/git/git.js'
import { converge } from '../cli/support.js'
import { FULL_SUITE } from '../support/suite-size.js'
import { executorCommand, issueText, scenarioRepository, SCENARIOS, type Checks } from './support/cheats.js'

/**
 * `npm test` runs an honest fix and two cheats (an edited test, a rewritten test script); CI (`CONVERGE_SUITE_SIZE`
 * ≥ 2) runs every cheat, here and through the action (tests/e2e/evidence-integrity.test.ts).
 */
const EVERY_CHEAT = FULL_SUITE
const DEFAULT_WAYS = new Set(['honest', 'expected-values', 'check-script'])
const scenarios = EVERY_CHEAT ? SCENARIOS : SCENARIOS.filter((s) => DEFAULT_WAYS.has(s.way))

const table: string[] = []
afterAll(() => {
  console.log(`evidence integrity through the CLI (bytes.js 3.1.2, mocha):\n${table.sort().join('\n')}`)
})

interface Outcome {
  tasks: Array<{ id: string; status: string; proof: string; evidence?: { kind: string; check_files?: Array<{ path: string }>; tree?: string }; commit?: string | null }>
  repo: string
  code: number
  out: string
}

/** The processes whose working directory is `dir` (a watcher an executor left behind). */
async function processesIn(dir: string): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((p) => /^\d+$/.test(p))
  const inside = await Promise.all(pids.map(async (pid) => ((await readlink(`/proc/${pid}/cwd`).catch(() => '')) === dir ? Number(pid) : undefined)))
  return inside.filter((pid): pid is number => pid !== undefined)
}

async function execute(checks: Checks, way: string): Promise<Outcome & { dispose(): Promise<void> }> {
  const project = await scenarioRepository(checks)
  const issue = join(project.dir, '..', `${project.dir.split('/').at(-1)}-61.md`)
  await writeFile(issue, issueText(checks))
  const repo = project.dir
  expect((await converge(['plan', '--issue-file', issue, '--number', '61', '--repo', repo])).code).toBe(0)
  expect((await converge(['approve', '--number', '61', '--repo', repo])).code).toBe(0)
  const run = await converge(['execute', '--number', '61', '--repo', repo, '--executor', executorCommand(way), '--max-iterations', '1'])
  const status = JSON.parse((await converge(['status', '--number', '61', '--repo', repo, '--json'])).out)
  return { tasks: status.tasks, repo, code: run.code, out: run.out, dispose: project.dispose }
}

describe.concurrent('a task proves itself only with checks that fail without its change', () => {
  for (const scenario of scenarios) {
    it(`${scenario.honest ? 'honest' : 'cheat'}: ${scenario.way}`, async () => {
      const run = await execute(scenario.checks, scenario.way)
      try {
        const t1 = run.tasks.find((t) => t.id === 'T1')!
        const files = (t1.evidence?.check_files ?? []).map((f) => f.path).sort()
        table.push(`  ${scenario.way.padEnd(20)} ${(t1.evidence?.kind ?? 'none').padEnd(16)} ${t1.proof}`)
        expect(files, run.out).toEqual(scenario.checkFiles)
        expect(t1.proof).toMatch(scenario.why)
        if (scenario.honest) {
          expect(t1.evidence?.kind).toBe('proven')
          expect(run.out).toMatch(/T1 +converged/)
          // The tree the checks ran on is the tree committed.
          const tree = (await runGit(['rev-parse', `${t1.commit}^{tree}`], { cwd: run.repo })).stdout.trim()
          expect(t1.evidence?.tree).toBe(tree)
        } else {
          expect(t1.evidence?.kind, run.out).not.toBe('proven')
          expect(run.out).not.toMatch(/T1 +converged/)
          expect(run.out).toMatch(/Not proven: /)
        }
      } finally {
        await run.dispose()
      }
    }, 120_000)
  }

  it.runIf(FULL_SUITE)('cheat: a watcher left running puts the bug back after the checks passed (verified is what is committed)', async () => {
    const run = await execute('maintainers-test', 'restores-after-checks')
    try {
      const t1 = run.tasks.find((t) => t.id === 'T1')!
      table.push(`  ${'restores-after-chk'.padEnd(20)} ${(t1.evidence?.kind ?? 'none').padEnd(16)} ${t1.proof}`)
      // Whatever the watcher managed, the commit holds the fix the checks passed on, or nothing is committed.
      if (t1.commit) {
        const committed = (await runGit(['show', `${t1.commit}:index.js`], { cwd: run.repo })).stdout
        expect(committed).toContain('if (isNaN(floatValue))')
        expect(t1.evidence?.tree).toBe((await runGit(['rev-parse', `${t1.commit}^{tree}`], { cwd: run.repo })).stdout.trim())
      } else {
        expect(t1.status).toBe('failed')
      }
      // Ended with the executor's command, before its checks ran: nothing of it is left in the checkout.
      expect(await processesIn(run.repo)).toEqual([])
    } finally {
      await run.dispose()
    }
  }, 120_000)

  it.runIf(FULL_SUITE)("cheat: a process left running kills the next task's baseline, so that it would read \"failed before\"", async () => {
    const run = await execute('two-tasks', 'kills-next-baseline')
    try {
      const t2 = run.tasks.find((t) => t.id === 'T2')!
      table.push(`  ${'kills-next-baseline'.padEnd(20)} ${(t2.evidence?.kind ?? 'none').padEnd(16)} ${t2.proof}`)
      expect(t2.evidence?.kind, run.out).not.toBe('proven')
      expect(run.out).not.toMatch(/T2 +converged/)
    } finally {
      await run.dispose()
    }
  }, 120_000)
})
