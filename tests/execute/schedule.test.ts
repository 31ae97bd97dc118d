import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  PlanGraphError, runSchedule,
  type ControlSignal, type ScheduleEvent, type ScheduleOptions, type TaskOutcome,
} from '../../src/execute/schedule.js'
import { normalisePath } from '../../src/plan/dag.js'
import type { Task } from '../../src/model/index.js'
import { task } from '../support/tasks.js'

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Each task sleeps its duration (default 1 ms), then returns its outcome (default completed) or throws it. */
function scripted(script: Record<string, { ms?: number; outcome?: TaskOutcome | Error }> = {}) {
  const runs: string[] = []
  const runTask = async (t: Task): Promise<TaskOutcome> => {
    runs.push(t.id)
    const { ms = 1, outcome = 'completed' } = script[t.id] ?? {}
    await sleep(ms)
    if (outcome instanceof Error) throw outcome
    return outcome
  }
  return { runs, runTask }
}

function eventLog() {
  const log: string[] = []
  const onEvent = (e: ScheduleEvent) => log.push([e.type, e.taskId, e.status].filter(Boolean).join(' '))
  return { log, onEvent }
}

/** shouldContinue answering `signals` in turn, then `continue`. */
function controls(...signals: ControlSignal[]) {
  return async (): Promise<ControlSignal> => signals.shift() ?? 'continue'
}

const statuses = (results: Map<string, { status: string }>) =>
  Object.fromEntries([...results].map(([id, r]) => [id, r.status]))

const base = { maxParallel: 4, onFailure: 'skip' } satisfies Partial<ScheduleOptions>

describe('runSchedule', () => {
  it('starts a task as soon as its dependencies completed, without waiting for the rest of its wave', async () => {
    const { runTask } = scripted({ T1: { ms: 5 }, T2: { ms: 60 }, T3: { ms: 5 } })
    const { log, onEvent } = eventLog()
    const result = await runSchedule([task('T1'), task('T2'), task('T3', ['T1'])], { ...base, runTask, onEvent })
    expect(result.status).toBe('completed')
    expect(log).toEqual([
      'start T1', 'start T2', 'finish T1 completed', 'start T3', 'finish T3 completed', 'finish T2 completed',
    ])
  })

  it('starts ready tasks in plan order, one at a time with maxParallel 1', async () => {
    const { runs, runTask } = scripted()
    await runSchedule([task('T3'), task('T1'), task('T2', ['T3'])], { ...base, maxParallel: 1, runTask })
    expect(runs).toEqual(['T3', 'T1', 'T2'])
  })

  it('never runs two tasks touching the same (normalised) file at once, and fills the slot with a later task', async () => {
    const { runTask } = scripted({ T1: { ms: 20 } })
    const { log, onEvent } = eventLog()
    const tasks = [task('T1', [], ['a.ts']), task('T2', [], ['./a.ts']), task('T3', [], ['b.ts'])]
    await runSchedule(tasks, { ...base, runTask, onEvent })
    expect(log.slice(0, 3)).toEqual(['start T1', 'start T3', 'finish T3 completed'])
    expect(log.indexOf('start T2')).toBeGreaterThan(log.indexOf('finish T1 completed'))
  })

  it('on-failure skip: skips the transitive dependents, naming the failed task, and runs independent ones', async () => {
    const { runs, runTask } = scripted({ T1: { outcome: 'failed' } })
    const { log, onEvent } = eventLog()
    const tasks = [task('T1'), task('T2', ['T1']), task('T3', ['T2']), task('T4'), task('T5', ['T4', 'T3'])]
    const result = await runSchedule(tasks, { ...base, runTask, onEvent })
    expect(result.status).toBe('failed')
    expect(runs.sort()).toEqual(['T1', 'T4'])
    expect(statuses(result.results)).toEqual({ T1: 'failed', T2: 'skipped', T3: 'skipped', T4: 'completed', T5: 'skipped' })
    for (const id of ['T2', 'T3', 'T5']) expect(result.results.get(id)!.reason).toBe('depends on T1, which failed')
    expect(log).toEqual(expect.arrayContaining(['skip T2 skipped', 'skip T3 skipped', 'skip T5 skipped']))
  })

  it('on-failure abort: starts nothing new, lets running tasks finish, leaves the rest not run', async () => {
    const { runs, runTask } = scripted({ T1: { ms: 2, outcome: 'failed' }, T2: { ms: 30 } })
    const tasks = [task('T1'), task('T2'), task('T3'), task('T4', ['T2'])]
    const result = await runSchedule(tasks, { ...base, maxParallel: 2, onFailure: 'abort', runTask })
    expect(result.status).toBe('aborted')
    expect(runs).toEqual(['T1', 'T2'])
    expect(statuses(result.results)).toEqual({ T1: 'failed', T2: 'completed', T3: 'not-run', T4: 'not-run' })
    expect(result.results.get('T3')!.reason).toBe('not started: the run was aborted after T1 failed')
  })

  it('stops starting tasks once maxErrors tasks failed', async () => {
    const { runs, runTask } = scripted(Object.fromEntries(['T1', 'T2', 'T3', 'T4'].map((id) => [id, { outcome: 'failed' as const }])))
    const tasks = ['T1', 'T2', 'T3', 'T4'].map((id) => task(id))
    const result = await runSchedule(tasks, { ...base, maxParallel: 1, maxErrors: 2, runTask })
    expect(result.status).toBe('failed')
    expect(runs).toEqual(['T1', 'T2'])
    expect(statuses(result.results)).toEqual({ T1: 'failed', T2: 'failed', T3: 'not-run', T4: 'not-run' })
    expect(result.results.get('T3')!.reason).toBe('not started: 2 tasks failed (max-errors 2)')
  })

  it('a spent budget starts nothing new, lets running tasks finish, and ends the run failed with the reason', async () => {
    const { runs, runTask } = scripted({ T1: { ms: 20 }, T2: { ms: 40 } })
    let spent = false
    const tasks = [task('T1'), task('T2'), task('T3'), task('T4', ['T1'])]
    const result = await runSchedule(tasks, {
      ...base, maxParallel: 2, overBudget: () => (spent ? 'budget reached: $0.031 of $0.010 (max-cost-usd)' : undefined),
      runTask: async (t) => {
        const outcome = await runTask(t)
        spent = true // the first task's cost reaches the budget
        return outcome
      },
    })
    expect(runs).toEqual(['T1', 'T2'])
    expect(result.status).toBe('failed')
    expect(result.overBudget).toBe('budget reached: $0.031 of $0.010 (max-cost-usd)')
    expect(statuses(result.results)).toEqual({ T1: 'completed', T2: 'completed', T3: 'not-run', T4: 'not-run' })
    expect(result.results.get('T3')!.reason).toBe('not started: budget reached: $0.031 of $0.010 (max-cost-usd)')
  })

  it('a task that stopped itself because the budget is spent leaves it unfinished, and the budget is why the run ended', async () => {
    let spent = false
    const runTask = async (t: Task): Promise<TaskOutcome> => {
      spent = true
      return t.id === 'T1' ? 'stopped' : 'completed'
    }
    const result = await runSchedule([task('T1'), task('T2', ['T1'])], { ...base, maxParallel: 1, runTask, overBudget: () => (spent ? 'budget reached' : undefined) })
    expect(result).toEqual({
      status: 'failed', overBudget: 'budget reached',
      results: new Map([['T1', { status: 'not-run', reason: 'not started: budget reached' }], ['T2', { status: 'not-run', reason: 'not started: budget reached' }]]),
    })
  })

  it('pause: starts nothing new and waits for the running tasks', async () => {
    const { runs, runTask } = scripted({ T1: { ms: 30 } })
    const tasks = [task('T1'), task('T2'), task('T3')]
    const result = await runSchedule(tasks, { ...base, runTask, shouldContinue: controls('continue', 'continue', 'pause') })
    expect(result.status).toBe('paused')
    expect(runs).toEqual(['T1', 'T2'])
    expect(statuses(result.results)).toEqual({ T1: 'completed', T2: 'completed', T3: 'not-run' })
    expect(result.results.get('T3')!.reason).toBe('not started: the run was paused')
  })

  it('stop: asked before every start, including tasks made ready mid-run', async () => {
    const { runs, runTask } = scripted()
    const asked: number[] = []
    const shouldContinue = async (): Promise<ControlSignal> => (asked.push(asked.length), asked.length === 2 ? 'stop' : 'continue')
    const result = await runSchedule([task('T1'), task('T2', ['T1'])], { ...base, runTask, shouldContinue })
    expect(result.status).toBe('stopped')
    expect(runs).toEqual(['T1'])
    expect(asked).toHaveLength(2)
    expect(result.results.get('T2')).toEqual({ status: 'not-run', reason: 'not started: the run was stopped' })
  })

  it('cancellation: passes the signal to running tasks and starts nothing new', async () => {
    const controller = new AbortController()
    const seen: boolean[] = []
    const runTask = async (_t: Task, signal: AbortSignal): Promise<TaskOutcome> => {
      controller.abort()
      seen.push(signal.aborted)
      return 'completed'
    }
    const result = await runSchedule([task('T1'), task('T2', ['T1'])], { ...base, runTask, signal: controller.signal })
    expect(seen).toEqual([true])
    expect(result.status).toBe('stopped')
    expect(result.results.get('T2')).toEqual({ status: 'not-run', reason: 'not started: the run was cancelled' })
  })

  it('resumes: completed tasks are not run again, failed ones stay failed and their dependents skipped, skipped ones are decided afresh', async () => {
    const { runs, runTask } = scripted()
    const tasks = [task('T1'), task('T2'), task('T3', ['T2']), task('T4', ['T1']), task('T5')]
    const alreadyDone = new Map([['T1', 'completed'], ['T2', 'failed'], ['T3', 'skipped'], ['T5', 'skipped']] as const)
    const result = await runSchedule(tasks, { ...base, maxErrors: 1, runTask, alreadyDone })
    expect(runs.sort()).toEqual(['T4', 'T5']) // an earlier run's failure does not count towards maxErrors
    expect(result.status).toBe('failed')
    expect(result.results.get('T1')).toEqual({ status: 'completed', reason: 'completed in an earlier run' })
    expect(result.results.get('T2')).toEqual({ status: 'failed', reason: 'failed in an earlier run' })
    expect(result.results.get('T3')).toEqual({ status: 'skipped', reason: 'depends on T2, which failed in an earlier run' })
    expect(statuses(result.results)).toMatchObject({ T4: 'completed', T5: 'completed' })
  })

  it('runs failed tasks again when listed in retry, and their dependents after them', async () => {
    const { runs, runTask } = scripted()
    const tasks = [task('T1'), task('T2'), task('T3', ['T2'])]
    const alreadyDone = new Map([['T1', 'failed'], ['T2', 'failed'], ['T3', 'skipped']] as const)
    const result = await runSchedule(tasks, { ...base, maxParallel: 1, runTask, alreadyDone, retry: new Set(['T2']) })
    expect(runs).toEqual(['T2', 'T3'])
    expect(statuses(result.results)).toEqual({ T1: 'failed', T2: 'completed', T3: 'completed' })
  })

  it('counts a throwing or rejecting runTask as a failure with the error message, and carries on', async () => {
    const tasks = [task('T1'), task('T2'), task('T3')]
    const runTask = (t: Task): Promise<TaskOutcome> => {
      if (t.id === 'T1') throw new Error('executor not found')
      if (t.id === 'T2') return Promise.reject(new Error('timed out'))
      return Promise.resolve('completed')
    }
    const { log, onEvent } = eventLog()
    const result = await runSchedule(tasks, { ...base, runTask, onEvent })
    expect(result.results.get('T1')).toEqual({ status: 'failed', reason: 'executor not found' })
    expect(result.results.get('T2')).toEqual({ status: 'failed', reason: 'timed out' })
    expect(result.results.get('T3')).toEqual({ status: 'completed' })
    expect(log).toContain('finish T1 failed')
  })

  it('refuses a plan with DAG errors, listing them', async () => {
    const { runs, runTask } = scripted()
    const run = runSchedule([task('T1', ['T2']), task('T2', ['T1']), task('T3', ['T9'])], { ...base, runTask })
    await expect(run).rejects.toBeInstanceOf(PlanGraphError)
    await expect(run).rejects.toMatchObject({ errors: [{ code: 'unknown_dependency' }, { code: 'cycle' }] })
    expect(runs).toEqual([])
  })

  it('refuses a maxParallel below 1', async () => {
    const { runTask } = scripted()
    await expect(runSchedule([task('T1')], { ...base, maxParallel: 0, runTask })).rejects.toBeInstanceOf(RangeError)
  })

  it('when shouldContinue throws, rejects only after the running tasks settled', async () => {
    const settled: string[] = []
    const runTask = async (t: Task): Promise<TaskOutcome> => {
      await sleep(20)
      settled.push(t.id)
      return 'completed'
    }
    let calls = 0
    const shouldContinue = async (): Promise<ControlSignal> => {
      if (++calls === 2) throw new Error('state branch unreadable')
      return 'continue'
    }
    await expect(runSchedule([task('T1'), task('T2')], { ...base, runTask, shouldContinue })).rejects.toThrow('state branch unreadable')
    expect(settled).toEqual(['T1'])
  })
})

const FILES = ['a.ts', './a.ts', 'b.ts', 'c.ts', 'd.ts']

/** Random acyclic plans (shuffled out of topological order) with durations and outcomes per task. */
const scenario = fc
  .integer({ min: 1, max: 25 })
  .chain((n) =>
    fc.record({
      specs: fc.tuple(
        ...Array.from({ length: n }, (_, i) =>
          fc.record({
            deps: fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, i - 1) }), { maxLength: i === 0 ? 0 : 3 }),
            files: fc.uniqueArray(fc.constantFrom(...FILES), { maxLength: 2 }),
            ms: fc.integer({ min: 0, max: 4 }),
            fails: fc.integer({ min: 0, max: 5 }).map((k) => k === 0), // about one task in six fails
          }),
        ),
      ),
      maxParallel: fc.integer({ min: 1, max: 5 }),
      onFailure: fc.constantFrom('skip' as const, 'abort' as const),
      maxErrors: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
      order: fc.shuffledSubarray(Array.from({ length: n }, (_, i) => i), { minLength: n, maxLength: n }),
    }),
  )

describe('runSchedule properties', () => {
  it('respects dependencies, file exclusivity and maxParallel in every interleaving; every task ends in one status', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ specs, maxParallel, onFailure, maxErrors, order }) => {
        const tasks = order.map((i) => task(`T${i + 1}`, specs[i]!.deps.map((d) => `T${d + 1}`), specs[i]!.files))
        const byId = new Map(tasks.map((t, k) => [t.id, specs[order[k]!]!]))
        const outcome = new Map<string, TaskOutcome>()
        const running = new Set<Task>()
        const violations: string[] = []
        const runTask = async (t: Task): Promise<TaskOutcome> => {
          for (const d of t.depends_on) if (outcome.get(d) !== 'completed') violations.push(`${t.id} started before ${d} completed`)
          for (const other of running)
            if (other.files.some((f) => t.files.some((g) => normalisePath(f.path) === normalisePath(g.path))))
              violations.push(`${t.id} and ${other.id} share a file`)
          if (outcome.has(t.id)) violations.push(`${t.id} ran twice`)
          running.add(t)
          if (running.size > maxParallel) violations.push(`${running.size} tasks running`)
          const spec = byId.get(t.id)!
          await sleep(spec.ms)
          running.delete(t)
          outcome.set(t.id, spec.fails ? 'failed' : 'completed')
          return outcome.get(t.id)!
        }
        const result = await runSchedule(tasks, { maxParallel, onFailure, maxErrors, runTask })

        expect(violations).toEqual([])
        expect([...result.results.keys()]).toEqual(tasks.map((t) => t.id))
        for (const t of tasks) {
          const r = result.results.get(t.id)!
          if (outcome.has(t.id)) expect(r.status).toBe(outcome.get(t.id))
          else expect(r.status).toMatch(/^(skipped|not-run)$/)
        }
        const failed = [...outcome.values()].filter((o) => o === 'failed').length
        if (failed === 0) expect(result.status).toBe('completed')
        else if (onFailure === 'abort') expect(result.status).toBe('aborted')
        else {
          expect(result.status).toBe('failed')
          if (maxErrors === undefined || failed < maxErrors) {
            // skip mode without reaching max-errors: every task ran unless a dependency failed or was skipped
            for (const t of tasks)
              if (result.results.get(t.id)!.status === 'skipped')
                expect(t.depends_on.some((d) => result.results.get(d)!.status !== 'completed')).toBe(true)
              else expect(outcome.has(t.id)).toBe(true)
          }
        }
      }),
      { numRuns: 120 },
    )
  })

  it('runs the dependents of a failed task with onFailure continue, still after it', async () => {
    const order: string[] = []
    const result = await runSchedule([task('T1'), task('T2', ['T1']), task('T3', ['T2'])], {
      maxParallel: 2,
      onFailure: 'continue',
      runTask: async (t) => { order.push(t.id); return t.id === 'T1' ? 'failed' : 'completed' },
    })
    expect(order).toEqual(['T1', 'T2', 'T3'])
    expect(result.status).toBe('failed')
    expect([...result.results.values()].map((r) => r.status)).toEqual(['failed', 'completed', 'completed'])
  })
})
