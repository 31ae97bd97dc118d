/** File layout of the state branch (SPEC §4). */

export const DEFAULT_STATE_BRANCH = 'converge/state'

export const statePaths = {
  runState: '.converge/state.json',
  issueDir: (n: number) => `.converge/issues/${n}`,
  issue: (n: number) => `.converge/issues/${n}/issue.json`,
  plan: (n: number) => `.converge/issues/${n}/plan.json`,
  loop: (n: number) => `.converge/issues/${n}/loop.json`,
  execution: (n: number) => `.converge/issues/${n}/execution.json`,
  executionReport: (n: number) => `.converge/issues/${n}/execution.md`,
  events: (n: number) => `.converge/issues/${n}/events.md`,
} as const

/** The one JSON formatting used for every state file, so unchanged data is byte-identical. */
export function toStateJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}
