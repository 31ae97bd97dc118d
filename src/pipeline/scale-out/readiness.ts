/**
 * Scale-out beyond one runner (SPEC §11): the flow `matrix` → `execute-task` → `report`, one module per step in
 * this folder, hosted by the action (`src/action/scale-out.ts`) and the CLI (`src/cli/commands/scale-out.ts`).
 * This module is the pure part the steps share: which tasks are ready, and the job matrix within GitHub's limits.
 *
 * The state branch is the only thing the jobs share. Every job records its own task result with `transact`
 * (a compare-and-swap commit, re-applied when another job got there first), so N jobs finishing at once
 * lose nothing; the execution record is created by whichever job starts first and kept by the others.
 *
 * Readiness (pure): a task is ready when it has no result for the current plan (a `skipped` result is
 * decided afresh), every dependency is recorded `completed`, and it shares no file with a task taken before
 * it (greedy in plan order: the rest waits for the next round). Dependents of a failed task are blocked (the
 * report records them as skipped); failed tasks run again only when asked for by name (`execute-task T2`,
 * or `retry`). With `on-failure: abort`, or once `max-errors` tasks failed, nothing new is ready.
 */
import { executionOfPlan, type ExecutionRecord, type Solution, type Task } from '../../model/index.js'
import { analyseDag, normalisePath } from '../../plan/dag.js'
import { planHash } from '../../plan/hash.js'

/** GitHub runs at most 256 jobs per matrix. */
export const MATRIX_MAX_JOBS = 256
/** GitHub keeps at most 1 MB of outputs per job: the matrix gets all of it but a margin for the other outputs. */
export const MATRIX_MAX_BYTES = 1_000_000 - 16_384

export const EMPTY_MATRIX = '{"include":[]}'

export interface MatrixEntry {
  issue: number
  task: string
}

/** What stops new tasks after failures (the `on-failure` and `max-errors` inputs, as `execute` reads them). */
export interface FailurePolicy {
  onFailure?: 'retry' | 'skip' | 'abort'
  maxErrors?: number
}

export interface Readiness {
  /** Ready to run now, conflict-free on files, in plan order. */
  ready: Task[]
  /** Ready by their dependencies, but sharing a file with a task in `ready`: the next round. */
  deferred: Array<{ task: Task; conflictsWith: string; path: string }>
  /** Waiting for dependencies that have not completed yet (none of them failed). */
  waiting: Task[]
  /** Depending, directly or not, on a failed task: skipped. `failed` is that task. */
  blocked: Array<{ task: Task; failed: string }>
  completed: Task[]
  failed: Task[]
  /** Could run, but the run halted (`halted` says why). */
  held: Task[]
  /** Why nothing new starts although tasks remain: on-failure abort, or max-errors reached. */
  halted: string | null
}

/** The execution record when it belongs to the plan as it is now (same hash, an `execute` run). */
export function currentRecord(plan: Solution, execution: ExecutionRecord | undefined): ExecutionRecord | undefined {
  return executionOfPlan(execution, planHash(plan))
}

/** Which tasks of `plan` can run now, given the results in `record` (see the header). Pure. */
export function readiness(plan: Solution, record: ExecutionRecord | undefined, policy: FailurePolicy = {}): Readiness {
  const results = record?.tasks ?? {}
  const byId = new Map(plan.tasks.map((t) => [t.id, t]))
  const order = analyseDag(plan.tasks).order
  const out: Readiness = { ready: [], deferred: [], waiting: [], blocked: [], completed: [], failed: [], held: [], halted: null }
  /** Per task not completed: the failed task it waits on for good, if any. */
  const blockedBy = new Map<string, string>()
  const candidates = new Set<string>()
  const state = new Map<string, 'completed' | 'failed' | 'other'>()
  for (const id of order) {
    const task = byId.get(id)!
    const status = results[id]?.status
    if (status === 'completed' || status === 'failed') {
      state.set(id, status)
      continue
    }
    state.set(id, 'other')
    const root = task.depends_on.map((d) => (state.get(d) === 'failed' ? d : blockedBy.get(d))).find((r) => r !== undefined)
    if (root !== undefined) blockedBy.set(id, root)
    else if (task.depends_on.every((d) => state.get(d) === 'completed')) candidates.add(id)
  }

  const failures = plan.tasks.filter((t) => state.get(t.id) === 'failed')
  if (failures.length && policy.onFailure === 'abort') out.halted = `${failures[0]!.id} failed and on-failure is abort`
  else if (policy.maxErrors !== undefined && failures.length >= policy.maxErrors)
    out.halted = `${failures.length} task${failures.length === 1 ? '' : 's'} failed (max-errors ${policy.maxErrors})`

  const taken: Array<{ id: string; paths: string[] }> = []
  for (const task of plan.tasks) {
    const id = task.id
    if (state.get(id) === 'completed') out.completed.push(task)
    else if (state.get(id) === 'failed') out.failed.push(task)
    else if (blockedBy.has(id)) out.blocked.push({ task, failed: blockedBy.get(id)! })
    else if (!candidates.has(id)) out.waiting.push(task)
    else if (out.halted) out.held.push(task)
    else {
      const paths = task.files.map((f) => normalisePath(f.path))
      const clash = taken.flatMap((t) => {
        const path = paths.find((p) => t.paths.some((q) => overlaps(p, q)))
        return path === undefined ? [] : [{ id: t.id, path }]
      })[0]
      if (clash) out.deferred.push({ task, conflictsWith: clash.id, path: clash.path })
      else {
        out.ready.push(task)
        taken.push({ id, paths })
      }
    }
  }
  return out
}

/** The same file, or one inside the other (a declared directory). */
function overlaps(a: string, b: string): boolean {
  const dir = (p: string) => (p.endsWith('/') ? p : `${p}/`)
  return a === b || a.startsWith(dir(b)) || b.startsWith(dir(a))
}

export interface BuiltMatrix {
  include: MatrixEntry[]
  /** `{"include":[…]}`, compact: the `matrix` output. */
  json: string
  /** Ready, but over GitHub's limits: the next round. */
  leftover: MatrixEntry[]
  limitedBy: 'jobs' | 'bytes' | null
  /** The limits applied. */
  maxJobs: number
  maxBytes: number
}

/**
 * The matrix of the ready tasks, issue after issue, in order, within GitHub's limits (`maxJobs` jobs,
 * `maxBytes` bytes of JSON); what does not fit is left for the next round.
 */
export function buildMatrix(
  sets: ReadonlyArray<{ issue: number; tasks: readonly string[] }>,
  limits: { maxJobs?: number; maxBytes?: number } = {},
): BuiltMatrix {
  const maxJobs = limits.maxJobs ?? MATRIX_MAX_JOBS
  const maxBytes = limits.maxBytes ?? MATRIX_MAX_BYTES
  const include: MatrixEntry[] = []
  const leftover: MatrixEntry[] = []
  let limitedBy: BuiltMatrix['limitedBy'] = null
  let bytes = Buffer.byteLength(EMPTY_MATRIX)
  for (const { issue, tasks } of sets) {
    for (const task of tasks) {
      const entry = { issue, task }
      const size = Buffer.byteLength(JSON.stringify(entry)) + (include.length ? 1 : 0)
      if (limitedBy === null && include.length >= maxJobs) limitedBy = 'jobs'
      if (limitedBy === null && bytes + size > maxBytes) limitedBy = 'bytes'
      if (limitedBy !== null) {
        leftover.push(entry)
        continue
      }
      include.push(entry)
      bytes += size
    }
  }
  return { include, json: JSON.stringify({ include }), leftover, limitedBy, maxJobs, maxBytes }
}

/** "T1, T2". */
export const ids = (tasks: ReadonlyArray<{ id: string }>) => tasks.map((t) => t.id).join(', ')
