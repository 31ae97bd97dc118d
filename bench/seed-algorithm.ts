/**
 * The pre-execution analysis as written in the seed `task-generation-execution-spec.md` (Step 3) and the
 * required-field checks of `solution-schema.md`, transcribed for comparison only: it is the baseline
 * the benchmark measures our analysis against. Not used by Converge.
 */
interface SeedTask {
  id: string
  title?: string
  action?: string
  implementation?: unknown
  acceptance?: { criteria?: unknown[] }
  convergence?: { criteria?: unknown[] }
  depends_on: string[]
  files?: Array<{ path: string }>
  modification_points?: Array<{ file: string }>
}

export function seedAnalysis(solution: { id?: string; issue_id?: string; description?: string; tasks: SeedTask[] }) {
  if (!solution.id || !solution.issue_id || !solution.description) throw new Error('Missing field')
  if (!Array.isArray(solution.tasks) || solution.tasks.length === 0) throw new Error('tasks cannot be empty')
  const tasks = solution.tasks
  for (const task of tasks) {
    if (!task.id || !task.title || !task.action) throw new Error('Missing task field')
    // solution-schema.md's checks; tasks in the task-generation format carry `convergence` instead.
    if (task.acceptance) {
      if (!Array.isArray(task.implementation)) throw new Error('implementation must be array')
      if (!task.acceptance.criteria?.length) throw new Error('acceptance.criteria cannot be empty')
    } else if (!task.convergence?.criteria?.length) throw new Error('convergence.criteria cannot be empty')
  }

  // 1. Dependency validation
  const taskIds = new Set(tasks.map((t) => t.id))
  const errors: string[] = []
  tasks.forEach((task) => task.depends_on.forEach((dep) => { if (!taskIds.has(dep)) errors.push(`${task.id}: ${dep}`) }))

  // 2. Circular dependency detection (recursive DFS)
  const graph = new Map(tasks.map((t) => [t.id, t.depends_on]))
  const visited = new Set<string>(), inStack = new Set<string>(), cycles: string[] = []
  function dfs(node: string, path: string[]) {
    if (inStack.has(node)) { cycles.push([...path, node].join(' → ')); return }
    if (visited.has(node)) return
    visited.add(node); inStack.add(node)
    ;(graph.get(node) || []).forEach((dep) => dfs(dep, [...path, node]))
    inStack.delete(node)
  }
  tasks.forEach((t) => { if (!visited.has(t.id)) dfs(t.id, []) })

  // 3. Topological sort: every dequeued node scans every task
  const inDegree = new Map(tasks.map((t) => [t.id, 0]))
  tasks.forEach((t) => t.depends_on.forEach(() => inDegree.set(t.id, inDegree.get(t.id)! + 1)))
  const queue = tasks.filter((t) => inDegree.get(t.id) === 0).map((t) => t.id)
  const order: string[] = []
  while (queue.length) {
    const id = queue.shift()!
    order.push(id)
    tasks.forEach((t) => {
      if (t.depends_on.includes(id)) {
        inDegree.set(t.id, inDegree.get(t.id)! - 1)
        if (inDegree.get(t.id) === 0) queue.push(t.id)
      }
    })
  }

  // 4. File conflict detection
  const fileTaskMap = new Map<string, string[]>()
  tasks.forEach((task) => {
    const paths = task.files?.map((f) => f.path) ?? task.modification_points?.map((p) => p.file) ?? []
    paths.forEach((path) => { if (!fileTaskMap.has(path)) fileTaskMap.set(path, []); fileTaskMap.get(path)!.push(task.id) })
  })
  const conflicts: Array<{ file: string; tasks: string[] }> = []
  fileTaskMap.forEach((ids, file) => { if (ids.length > 1) conflicts.push({ file, tasks: ids }) })
  return { errors, cycles, order, conflicts }
}
