import type { Task } from '../model/index.js'

export type DagErrorCode = 'duplicate_id' | 'self_dependency' | 'unknown_dependency' | 'cycle'

export interface DagError {
  code: DagErrorCode
  /** JSON path of the offending entry, e.g. `tasks[3].depends_on[1]`. */
  path: string
  task_id: string
  message: string
  fix: string
  /** For cycles: the dependency path, first id repeated at the end (`T1 → T3 → T1`). */
  cycle?: string[]
}

export interface FileConflict {
  path: string
  tasks: string[]
}

export interface DagAnalysis {
  errors: DagError[]
  /** Topological order (dependencies first, plan order among equals). Tasks caught in a cycle are left out. */
  order: string[]
  /**
   * Parallel waves: every task runs after all its dependencies, and no two tasks of a wave touch the
   * same file. Maximal: a task sits in wave w > 0 only because a dependency or a task sharing one of
   * its files sits in wave w - 1.
   */
  waves: string[][]
  /** Files touched by more than one task (such tasks are never placed in the same wave). */
  conflicts: FileConflict[]
}

const MAX_CYCLES_REPORTED = 10

/**
 * Checks the task graph and schedules it, in O(V + E + F·α) for V tasks, E dependencies and F file
 * entries. Iterative throughout: a 100k-task chain must not overflow the stack.
 */
export function analyseDag(tasks: readonly Task[]): DagAnalysis {
  const n = tasks.length
  const errors: DagError[] = []
  const indexOf = new Map<string, number>()
  for (let i = 0; i < n; i++) {
    const id = tasks[i]!.id
    const first = indexOf.get(id)
    if (first === undefined) indexOf.set(id, i)
    else
      errors.push({
        code: 'duplicate_id',
        path: `tasks[${i}].id`,
        task_id: id,
        message: `Duplicate task id ${id} (first used by tasks[${first}])`,
        fix: `Give tasks[${i}] a unique id, e.g. T${n + 1}, and update any depends_on that meant it`,
      })
  }

  // Dependency edges in compressed sparse row form: deps of task i are depTargets[depStart[i]..depStart[i+1]).
  const depStart = new Int32Array(n + 1)
  const depTargets: number[] = []
  const lastAddedBy = new Int32Array(n).fill(-1) // drops a dependency listed twice without a Set per task
  for (let i = 0; i < n; i++) {
    depStart[i] = depTargets.length
    const task = tasks[i]!
    const deps = task.depends_on
    for (let k = 0; k < deps.length; k++) {
      const dep = deps[k]!
      const j = indexOf.get(dep)
      if (dep === task.id) {
        errors.push({
          code: 'self_dependency', path: `tasks[${i}].depends_on[${k}]`, task_id: task.id,
          message: `${task.id} depends on itself`, fix: `Remove "${dep}" from tasks[${i}].depends_on`,
        })
      } else if (j === undefined) {
        errors.push({
          code: 'unknown_dependency', path: `tasks[${i}].depends_on[${k}]`, task_id: task.id,
          message: `${task.id} depends on unknown task ${dep}`,
          fix: `Use the id of an existing task (${sampleIds(tasks)}) or remove "${dep}"`,
        })
      } else if (lastAddedBy[j] !== i) {
        lastAddedBy[j] = i
        depTargets.push(j)
      }
    }
  }
  depStart[n] = depTargets.length

  // Reverse edges (dependents), also CSR, for Kahn's algorithm.
  const inDegree = new Int32Array(n)
  const outCount = new Int32Array(n + 1)
  for (let i = 0; i < n; i++) {
    inDegree[i] = depStart[i + 1]! - depStart[i]!
    for (let e = depStart[i]!; e < depStart[i + 1]!; e++) outCount[depTargets[e]!]!++
  }
  const outStart = new Int32Array(n + 1)
  for (let i = 0; i < n; i++) outStart[i + 1] = outStart[i]! + outCount[i]!
  const fill = outStart.slice(0, n)
  const dependents = new Int32Array(depTargets.length)
  for (let i = 0; i < n; i++) for (let e = depStart[i]!; e < depStart[i + 1]!; e++) dependents[fill[depTargets[e]!]!++] = i

  const queue = new Int32Array(n)
  let head = 0
  let tail = 0
  for (let i = 0; i < n; i++) if (inDegree[i] === 0) queue[tail++] = i
  while (head < tail) {
    const i = queue[head++]!
    for (let e = outStart[i]!; e < outStart[i + 1]!; e++) {
      const d = dependents[e]!
      if (--inDegree[d]! === 0) queue[tail++] = d
    }
  }
  const orderIdx = queue.subarray(0, tail)
  if (tail < n) errors.push(...findCycles(tasks, inDegree, depStart, depTargets))

  const { waves, conflicts } = scheduleWaves(tasks, orderIdx, depStart, depTargets)
  return { errors, order: Array.from(orderIdx, (i) => tasks[i]!.id), waves, conflicts }
}

/** Among the tasks Kahn's algorithm could not order, walk dependencies depth-first to name each cycle. */
function findCycles(
  tasks: readonly Task[], inDegree: Int32Array, depStart: Int32Array, depTargets: number[],
): DagError[] {
  const WHITE = 0, GREY = 1, BLACK = 2
  const colour = new Uint8Array(tasks.length)
  const errors: DagError[] = []
  const stack: number[] = []
  const cursor: number[] = []
  for (let root = 0; root < tasks.length && errors.length < MAX_CYCLES_REPORTED; root++) {
    if (inDegree[root] === 0 || colour[root] !== WHITE) continue
    stack.push(root); cursor.push(depStart[root]!); colour[root] = GREY
    while (stack.length) {
      const top = stack.length - 1
      const i = stack[top]!
      if (cursor[top]! < depStart[i + 1]!) {
        const j = depTargets[cursor[top]!++]!
        if (inDegree[j] === 0) continue // ordered, so not part of any cycle
        if (colour[j] === GREY) {
          const cycle = stack.slice(stack.indexOf(j)).map((k) => tasks[k]!.id)
          cycle.push(tasks[j]!.id)
          const at = stack[stack.indexOf(j)]!
          if (errors.length < MAX_CYCLES_REPORTED)
            errors.push({
              code: 'cycle', path: `tasks[${at}].depends_on`, task_id: tasks[at]!.id, cycle,
              message: `Circular dependency: ${cycle.join(' → ')}`,
              fix: `Remove one of these dependencies so the tasks can be ordered (e.g. drop "${cycle[1]}" from ${cycle[0]}.depends_on)`,
            })
        } else if (colour[j] === WHITE) {
          colour[j] = GREY; stack.push(j); cursor.push(depStart[j]!)
        }
      } else {
        colour[i] = BLACK; stack.pop(); cursor.pop()
      }
    }
  }
  return errors
}

/**
 * Earliest wave after all dependencies, then pushed later while a task already in that wave shares a
 * file. Each file keeps a "next free wave" union-find, so skipping over occupied waves is amortised
 * O(α). Files are interned to numbers once.
 */
function scheduleWaves(
  tasks: readonly Task[], orderIdx: Int32Array, depStart: Int32Array, depTargets: number[],
): { waves: string[][]; conflicts: FileConflict[] } {
  const wave = new Int32Array(tasks.length)
  const waves: string[][] = []
  // Intern paths in plan order (sequential memory access); the schedule then reads only typed arrays.
  const fileIds = new Map<string, number>()
  const fileUsers: number[][] = []
  const fileStart = new Int32Array(tasks.length + 1)
  const fileTargets: number[] = []
  for (let i = 0; i < tasks.length; i++) {
    fileStart[i] = fileTargets.length
    const entries = tasks[i]!.files
    for (let k = 0; k < entries.length; k++) {
      const path = normalisePath(entries[k]!.path)
      let id = fileIds.get(path)
      if (id === undefined) { id = fileUsers.length; fileIds.set(path, id); fileUsers.push([]) }
      const users = fileUsers[id]!
      if (users[users.length - 1] === i) continue // the same file listed twice by one task
      users.push(i)
      fileTargets.push(id)
    }
  }
  fileStart[tasks.length] = fileTargets.length

  // Per file: wave → a later wave to look at; a wave not in the map is free for that file.
  const nextFree = Array.from({ length: fileUsers.length }, () => new Map<number, number>())
  const find = (occupied: Map<number, number>, w: number): number => {
    let root = w
    for (let next = occupied.get(root); next !== undefined; next = occupied.get(root)) root = next
    while (w !== root) { const next = occupied.get(w)!; occupied.set(w, root); w = next }
    return root
  }

  for (const i of orderIdx) {
    let w = 0
    for (let e = depStart[i]!; e < depStart[i + 1]!; e++) w = Math.max(w, wave[depTargets[e]!]! + 1)
    const from = fileStart[i]!
    const to = fileStart[i + 1]!
    for (let moved = from < to; moved; ) {
      moved = false
      for (let e = from; e < to; e++) {
        const free = find(nextFree[fileTargets[e]!]!, w)
        if (free > w) { w = free; moved = true }
      }
    }
    for (let e = from; e < to; e++) nextFree[fileTargets[e]!]!.set(w, w + 1)
    wave[i] = w
    ;(waves[w] ??= []).push(tasks[i]!.id)
  }

  const conflicts: FileConflict[] = []
  for (const [path, id] of fileIds) {
    const users = fileUsers[id]!
    if (users.length > 1) conflicts.push({ path, tasks: users.map((i) => tasks[i]!.id) })
  }
  return { waves, conflicts }
}

/** `./src//a.ts` and `src/a.ts` are the same file. */
export function normalisePath(path: string): string {
  const clean =
    path.charCodeAt(0) !== 46 /* . */ && !path.includes('//') && !path.includes('\\') && path.trim() === path
  return clean ? path : path.trim().replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/\/{2,}/g, '/')
}

function sampleIds(tasks: readonly Task[]): string {
  const ids = tasks.slice(0, 5).map((t) => t.id)
  return tasks.length > 5 ? `${ids.join(', ')}, …` : ids.join(', ')
}
