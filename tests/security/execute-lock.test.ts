/**
 * One execute at a time per plan: two runs starting the same plan at once both ran every task and both ended
 * `completed`. Each run now records itself as the holder when it starts; the state branch's compare-and-swap lets
 * one of two simultaneous starts win, and the other reads the winner's record and is refused, naming it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { approvePlan } from '../../src/pipeline/approve.js'
import { pipelinePlan } from '../../src/pipeline/plan-command.js'
import { startRun } from '../../src/pipeline/run-start.js'
import { LocalGitStore } from '../../src/state/local-git-store.js'
import { basePlan } from '../hardening/bad-input-arbitraries.js'
import { bareRepo, type TempRepo } from '../support/temp-repos.js'

const RUN_A = 'https://github.com/octo-org/demo/actions/runs/1001'
const RUN_B = 'https://github.com/octo-org/demo/actions/runs/1002'
const HOUR = 3_600_000
const at = (ms: number) => () => new Date(Date.parse('2026-11-25T12:00:00Z') + ms).toISOString()

describe('one execute of a plan at a time', () => {
  let repo: TempRepo
  let store: LocalGitStore
  beforeEach(async () => {
    repo = await bareRepo()
    store = new LocalGitStore({ repoDir: repo.dir })
    const plan = basePlan(2, 7)
    await pipelinePlan(store, { number: 7, title: 'Refresh', body: `\`\`\`json\n${JSON.stringify(plan)}\n\`\`\``, labels: [] }, 'explicit', at(0)())
    expect(await approvePlan(store, 7, 'alice', at(0)())).toMatchObject({ ok: true })
  })
  afterEach(() => repo.cleanup())

  it('of two runs starting at once, one starts and the other is refused with the run that holds the plan', async () => {
    const starts = await Promise.all([RUN_A, RUN_B].map((run) => startRun({ store, n: 7, mode: 'execute', now: at(1000) }, { holder: { run, staleAfterMs: HOUR } })))
    expect(starts.filter((s) => s.ok)).toHaveLength(1)
    const refused = starts.find((s) => !s.ok) as { reason: string }
    const winner = starts[0]!.ok ? RUN_A : RUN_B
    expect(refused.reason).toBe(`ISS-7 is being executed by another run, ${winner} (started ${at(1000)()}): one run of a plan at a time. Wait for it to end, or \`/converge stop\` it`)
  })

  it('a re-run of the holding run goes on at once; another run takes over only once the holder shows no progress for staleAfterMs', async () => {
    expect(await startRun({ store, n: 7, mode: 'execute', now: at(1000) }, { holder: { run: RUN_A, staleAfterMs: HOUR } })).toMatchObject({ ok: true })
    expect(await startRun({ store, n: 7, mode: 'execute', now: at(2000) }, { holder: { run: RUN_A, staleAfterMs: HOUR } })).toMatchObject({ ok: true })
    expect(await startRun({ store, n: 7, mode: 'execute', now: at(HOUR / 2) }, { holder: { run: RUN_B, staleAfterMs: HOUR } })).toMatchObject({ ok: false })
    expect(await startRun({ store, n: 7, mode: 'execute', now: at(2 * HOUR) }, { holder: { run: RUN_B, staleAfterMs: HOUR } })).toMatchObject({ ok: true })
  })
})
