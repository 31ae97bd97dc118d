/** Issues with explicit ```json plans whose tasks change given files, for queue tests. */

export interface PlannedIssueSpec {
  number: number
  title: string
  files: string[]
  /** Priority of the task (default medium). */
  priority?: 'critical' | 'high' | 'medium' | 'low'
}

/** #1 and #3 share src/a.ts, #3 and #5 share src/b.ts, #2 and #4 share nothing with anyone. */
export const FIVE_ISSUES: PlannedIssueSpec[] = [
  { number: 1, title: 'Validate tokens in auth', files: ['src/a.ts', 'src/one.ts'] },
  { number: 2, title: 'Add a health endpoint', files: ['src/two.ts'] },
  { number: 3, title: 'Share the session type', files: ['src/a.ts', 'src/b.ts'] },
  { number: 4, title: 'Document the CLI', files: ['docs/four.md'] },
  { number: 5, title: 'Cache sessions', files: ['src/b.ts', 'src/five.ts'] },
]

export function planBody(spec: PlannedIssueSpec): string {
  const plan = {
    description: spec.title,
    tasks: [{
      id: 'T1',
      title: spec.title,
      action: 'Modify',
      priority: spec.priority ?? 'medium',
      description: `${spec.title} so that the behaviour is covered by tests`,
      files: spec.files.map((path) => ({ path, action: 'modify', changes: [`Change ${path} for ${spec.title}`] })),
      implementation: [`Edit ${spec.files.join(', ')}`],
      test: { commands: ['npm test'] },
      convergence: {
        criteria: [`npm test passes with a test for: ${spec.title}`],
        verification: 'npm test',
        definition_of_done: `${spec.title} works for users`,
      },
    }],
  }
  return `Plan:\n\n\`\`\`json\n${JSON.stringify(plan, null, 2)}\n\`\`\`\n`
}
