/**
 * Synthetic plans shaped like real ones: most tasks depend on one to three recent tasks and touch one of
 * a pool of files, so there are long chains, wide waves and file conflicts.
 *
 * - `minimal`: each task has just what a valid, gate-worthy task needs (id, title, action, depends_on,
 *   one file with its change, one criterion, one command).
 * - `full`: each task is as rich as the seed's example, in the input variants people and agents write
 *   (acceptance, modification_points, string steps, numeric priority): about 600 bytes of JSON a task.
 */
export type PlanShape = 'minimal' | 'full'

export function syntheticPlan(taskCount: number, shape: PlanShape = 'full', seed = 42): Record<string, unknown> {
  let state = seed
  const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
  const pick = (n: number) => Math.floor(random() * n)
  const files = Math.max(10, Math.floor(taskCount / 4))
  const tasks = Array.from({ length: taskCount }, (_, i) => {
    const deps = new Set<string>()
    if (i > 0) for (let k = pick(4); k > 0; k--) deps.add(`T${i - pick(Math.min(i, 50))}`)
    const file = `src/module-${pick(files)}/index.ts`
    if (shape === 'minimal')
      return {
        id: `T${i + 1}`,
        title: `Implement step ${i + 1}`,
        action: 'Implement',
        files: [{ path: file, changes: [`Add handler ${i}`] }],
        convergence: { criteria: [`Handler ${i} returns 200`], verification: `npm test -- module-${i}` },
        depends_on: [...deps],
      }
    return {
      id: `T${i + 1}`,
      title: `Implement step ${i + 1} of the feature`,
      action: 'Implement',
      description: `Step ${i + 1}: wire the module into the service`,
      modification_points: [{ file, target: `fn${i}`, change: `Add handler ${i}` }],
      implementation: [`Open ${file}`, `Add handler ${i}`],
      test: { commands: [`npm test -- module-${i}`] },
      acceptance: { criteria: [`Handler ${i} returns 200 for a valid request`], verification: [`Run: npm test -- module-${i}`] },
      depends_on: [...deps],
      priority: 1 + pick(5),
    }
  })
  return {
    id: 'SOL-ISS-1-1',
    issue_id: 'ISS-1',
    description: `Synthetic plan of ${taskCount} tasks`,
    tasks,
    analysis: { risk: 'low', impact: 'medium', complexity: 'high' },
  }
}
