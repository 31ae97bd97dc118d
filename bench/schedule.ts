/**
 * Wall time of executing a plan of 40 sleeping tasks (20–120 ms): serially in topological order (the
 * seed's Step 5), wave by wave (each wave of `analyseDag`, 8 at a time), and with `runSchedule`
 * (maxParallel 8), against the critical path. The plan has chains, a wide fan-out with a fan-in, and
 * a few files shared by tasks that do not depend on each other.
 */
import { runSchedule } from '../src/execute/schedule.js'
import { TaskInputSchema, type Task } from '../src/model/index.js'
import { analyseDag } from '../src/plan/dag.js'
import { fmt, table } from './measure.js'

const MAX_PARALLEL = 8

interface SleepPlan {
  tasks: Task[]
  durationMs: Map<string, number>
}

/** Deterministic: durations come from a seeded generator. */
export function sleepPlan(seed = 7): SleepPlan {
  let state = seed
  const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
  const specs: Array<{ deps: number[]; file: string }> = []
  const add = (deps: number[], file = `src/task-${specs.length + 1}.ts`) => specs.push({ deps, file }) - 1
  const chain = (length: number, after: number[] = []) => {
    let previous = after
    for (let k = 0; k < length; k++) previous = [add(previous)]
    return previous[0]!
  }

  const spineStart = add([])
  const spineEnd = chain(7, [spineStart])
  const side = chain(5)
  chain(4, [side])
  // Wide part: 12 tasks after the spine's start, pairs of them sharing a file, then a fan-in and a short chain.
  const wide = Array.from({ length: 12 }, (_, k) => add([spineStart], `src/wide-${k % 6}.ts`))
  chain(2, [add(wide)])
  // Independent tasks, a few sharing the side chain's files.
  while (specs.length < 39) add([], specs.length % 4 === 0 ? specs[side]!.file : undefined)
  add([spineEnd, side])

  const tasks = specs.map((s, i) =>
    TaskInputSchema.parse({ id: `T${i + 1}`, title: `Task ${i + 1}`, depends_on: s.deps.map((d) => `T${d + 1}`), files: [{ path: s.file }] }),
  )
  return { tasks, durationMs: new Map(tasks.map((t) => [t.id, 20 + Math.floor(random() * 101)])) }
}

/** Longest dependency chain by duration; file conflicts ignored. */
export function criticalPathMs({ tasks, durationMs }: SleepPlan): number {
  const finish = new Map<string, number>()
  const byId = new Map(tasks.map((t) => [t.id, t]))
  for (const id of analyseDag(tasks).order)
    finish.set(id, durationMs.get(id)! + Math.max(0, ...byId.get(id)!.depends_on.map((d) => finish.get(d)!)))
  return Math.max(...finish.values())
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

async function wallMs(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await run()
  return performance.now() - start
}

export async function benchSchedule(): Promise<string> {
  const plan = sleepPlan()
  const { tasks, durationMs } = plan
  const byId = new Map(tasks.map((t) => [t.id, t]))
  const perform = (t: Task) => sleep(durationMs.get(t.id)!)
  const dag = analyseDag(tasks)

  const serial = await wallMs(async () => {
    for (const id of dag.order) await perform(byId.get(id)!)
  })
  const waveByWave = await wallMs(async () => {
    for (const wave of dag.waves)
      for (let k = 0; k < wave.length; k += MAX_PARALLEL)
        await Promise.all(wave.slice(k, k + MAX_PARALLEL).map((id) => perform(byId.get(id)!)))
  })
  const scheduled = await wallMs(async () => {
    const result = await runSchedule(tasks, {
      maxParallel: MAX_PARALLEL,
      onFailure: 'abort',
      runTask: async (t) => (await perform(t), 'completed'),
    })
    if (result.status !== 'completed') throw new Error(`schedule ended ${result.status}`)
  })

  const critical = criticalPathMs(plan)
  const work = [...durationMs.values()].reduce((a, b) => a + b, 0)
  const row = (name: string, ms: number) => [name, fmt(ms), `${(ms / critical).toFixed(2)}×`, `${(serial / ms).toFixed(1)}×`]
  return [
    `Schedule: ${tasks.length} sleeping tasks (20–120 ms, ${work} ms of work, ${dag.waves.length} waves, ${dag.conflicts.length} shared files), max-parallel ${MAX_PARALLEL} (wall ms, one run each)`,
    table(['execution', 'wall ms', 'vs critical path', 'speed-up vs serial'], [
      row('serial, topological order (seed Step 5)', serial),
      row(`wave by wave, ${MAX_PARALLEL} at a time`, waveByWave),
      row(`runSchedule, maxParallel ${MAX_PARALLEL}`, scheduled),
      row('critical path (longest dependency chain; file conflicts ignored)', critical),
    ]),
  ].join('\n')
}
