/**
 * Taskmaster (eyaltoledano/claude-task-master) `tasks.json` read as a Converge solution input. Its files are
 * tagged (`{ "master": { "tasks": [...] } }`) or, in older versions, untagged (`{ "tasks": [...] }`). Each
 * task has a numeric id, `dependencies` (numeric ids), `details`, `testStrategy` and `subtasks`.
 */

interface TaskmasterTask {
  id: number | string
  title?: string
  description?: string
  details?: string
  testStrategy?: string
  priority?: string
  dependencies?: Array<number | string>
  subtasks?: TaskmasterTask[]
}

/** The tasks of a Taskmaster file and the tag they came from, or undefined when `raw` is not one. */
function taskmasterTasks(raw: unknown): { tag?: string; tasks: TaskmasterTask[] } | undefined {
  if (!isObject(raw)) return undefined
  if (isTaskList(raw.tasks) && !('description' in raw) && !('id' in raw)) return { tasks: raw.tasks }
  const tags = Object.entries(raw).filter(([, v]) => isObject(v) && isTaskList(v.tasks))
  if (tags.length === 0 || tags.length !== Object.keys(raw).length) return undefined
  // The master tag is Taskmaster's default; a file with one tag is that tag.
  const [tag, value] = tags.find(([name]) => name === 'master') ?? tags[0]!
  return { tag, tasks: (value as { tasks: TaskmasterTask[] }).tasks }
}

/** A Taskmaster task list: numeric ids (Converge's own tasks have `T<n>` ids). */
function isTaskList(value: unknown): value is TaskmasterTask[] {
  return Array.isArray(value) && value.length > 0 && value.every((t) => isObject(t) && typeof t.id === 'number')
}

/**
 * The solution input for a Taskmaster file: task `n` becomes `Tn`, `dependencies` become `depends_on`,
 * `description` and `details` the description, `testStrategy` the criterion and verification (a one-line
 * command runs, prose is a manual check), subtasks the task's implementation steps. Undefined when `raw`
 * is not a Taskmaster file.
 */
export function fromTaskmaster(raw: unknown, issueNumber: number): Record<string, unknown> | undefined {
  const found = taskmasterTasks(raw)
  if (!found) return undefined
  return {
    id: `SOL-ISS-${issueNumber}-1`,
    issue_id: `ISS-${issueNumber}`,
    description: `Taskmaster plan${found.tag ? ` (tag ${found.tag})` : ''}: ${found.tasks.map((t) => t.title).join('; ')}`,
    tasks: found.tasks.map((t) => ({
      id: `T${t.id}`,
      title: t.title,
      description: [t.description, t.details].filter(Boolean).join('\n\n'),
      ...(t.priority ? { priority: t.priority } : {}),
      depends_on: (t.dependencies ?? []).map((d) => `T${d}`),
      ...(t.testStrategy ? { convergence: { criteria: [t.testStrategy], verification: t.testStrategy } } : {}),
      ...(t.subtasks?.length
        ? {
            implementation: t.subtasks.map((s) => ({
              step: `${t.id}.${s.id}`,
              description: [s.title, s.description].filter(Boolean).join(': '),
              actions: s.details ? [s.details] : [],
            })),
          }
        : {}),
      source: { tool: 'taskmaster', original_id: String(t.id) },
    })),
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
