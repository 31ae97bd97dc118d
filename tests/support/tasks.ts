import type { Task } from '../../src/model/index.js'

/** A canonical task with just enough filled in for graph and scheduling tests. */
export function task(id: string, dependsOn: string[] = [], files: string[] = []): Task {
  return {
    id,
    title: `Task ${id}`,
    action: 'Implement',
    type: 'feature',
    priority: 'medium',
    effort: 'small',
    description: '',
    files: files.map((path) => ({ path, action: 'modify', target: null, changes: [`Change ${path}`] })),
    implementation: [],
    test: { commands: [], unit: [], integration: [] },
    convergence: { criteria: [], verification: '', definition_of_done: '' },
    depends_on: dependsOn,
    evidence: [],
  }
}
