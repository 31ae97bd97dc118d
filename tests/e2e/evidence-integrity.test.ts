/**
 * Proof an executor cannot fake (SPEC §7 "Evidence integrity"), through dist/index.js against the API emulator, as
 * a runner runs it, on a real project: bytes.js 3.1.2 with mocha in the workspace's node_modules. Each cheat of
 * tests/fixtures/executors/cheats.mjs is neither proven nor a `success` check run, and the check run, the sticky
 * comment and the job summary name the check files the task wrote; the honest fixes are proven and `success`.
 * The same cheats through the CLI: tests/security/evidence-integrity.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { ExecutionRecordSchema } from '../../src/model/index.js'
import { issueBodyWithPlan } from '../support/answer-plans.js'
import { startEmulator } from '../support/emulator/index.js'
import { issueLabeledEvent } from '../support/events.js'
import { bytesFiles, installModules } from '../support/real-project.js'
import { runAction } from '../support/runner.js'
import { executorCommand, planOf, SCENARIOS, type Scenario } from '../security/support/cheats.js'
import { FULL_SUITE } from '../support/suite-size.js'

/**
 * `npm test` runs the honest fixes and one cheat of each class (a new vacuous test, an edited existing test hidden
 * by an index flag, an ignored shim, a config kept out of git); CI (`CONVERGE_SUITE_SIZE` ≥ 2) runs every cheat.
 */
const EVERY_CHEAT = FULL_SUITE
const DEFAULT_WAYS = new Set(['honest', 'honest-new-test', 'empty-test', 'skip-worktree', 'shim', 'npmrc-excluded', 'test-script-exit-0'])
const scenarios = EVERY_CHEAT ? SCENARIOS : SCENARIOS.filter((s) => DEFAULT_WAYS.has(s.way))

const table: string[] = []
afterAll(() => console.log(`evidence integrity through dist/index.js (bytes.js 3.1.2, mocha):\n${table.sort().join('\n')}`))

async function execute(scenario: Scenario) {
  const files = await bytesFiles({ tests: scenario.checks === 'new-test' ? 'none' : 'maintainers' })
  if (scenario.checks === 'check-script') files['scripts/check.sh'] = '#!/bin/sh\nexec ./node_modules/.bin/mocha --check-leaks --reporter dot\n'
  const gh = await startEmulator({ owner: 'visionmedia', repo: 'bytes.js', files })
  gh.seed.user({ login: 'dougwilson' })
  gh.seed.permission('dougwilson', 'admin')
  gh.seed.issue({ number: 61, title: "bytes('foobar') returns NaN instead of null", labels: ['converge:execute'], body: issueBodyWithPlan(planOf(scenario.checks)) })
  const run = await runAction({
    gh, event: issueLabeledEvent({ gh, issue: 61, label: 'converge:execute', sender: 'dougwilson' }),
    inputs: { 'executor-command': executorCommand(scenario.way), 'auto-approve': 'true', 'max-iterations': '1', 'max-parallel': '1' },
    env: { GITHUB_SERVER_URL: gh.url },
    prepare: (paths) => installModules(paths.workspace),
    timeoutMs: 120_000,
  })
  const record = ExecutionRecordSchema.parse(JSON.parse((await gh.state.readFile('converge/state', '.converge/issues/61/execution.json'))!))
  const check = gh.state.checkRuns().find((c) => c.id === Number(run.outputs['check-run-id']))
  const sticky = gh.state.comments(61).find((c) => c.body.startsWith('<!-- converge:ISS-61 -->'))?.body ?? ''
  return { gh, run, record, check, sticky }
}

describe.concurrent('through the action, a task proves itself only with checks that fail without its change', () => {
  for (const scenario of scenarios) {
    it(`${scenario.honest ? 'honest' : 'cheat'}: ${scenario.way}`, async () => {
      const { gh, run, record, check, sticky } = await execute(scenario)
      try {
        const t1 = record.tasks.T1!
        table.push(`  ${scenario.way.padEnd(20)} ${(t1.evidence?.kind ?? 'none').padEnd(10)} check run: ${check?.conclusion} · ${check?.output.title}`)
        expect((t1.evidence?.check_files ?? []).map((f) => f.path).sort(), run.stderr).toEqual(scenario.checkFiles)
        if (scenario.honest) {
          expect(t1.evidence?.kind).toBe('proven')
          expect(check?.conclusion).toBe('success')
        } else {
          expect(t1.evidence?.kind).not.toBe('proven')
          expect(check?.conclusion).not.toBe('success')
          // The title says why, naming the check files; each one the task wrote is annotated for the reviewer.
          expect(check?.output.title).toMatch(/^0\/1 tasks converged · 1 not proven \(T1 unproven: (?:passes without its change|changed an existing check) \(/)
          expect(check?.output.title).toContain(scenario.checkFiles[0])
          const annotated = check!.annotations.filter((a) => a.title?.startsWith('T1 ')).map((a) => a.path).sort()
          expect(annotated).toEqual(scenario.checkFiles.filter((f) => !f.startsWith('node_modules/')))
          for (const text of [check!.output.summary, sticky, run.summary]) {
            for (const file of scenario.checkFiles) expect(text).toContain(file)
            expect(text).toMatch(scenario.why.source.startsWith('^') ? new RegExp(scenario.why.source.slice(1)) : scenario.why)
          }
        }
      } finally {
        await run.dispose()
        await gh.close()
      }
    }, 180_000)
  }
})
