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

const WORK_BRANCH_PREFIX = 'converge/issue-'

/**
 * The work branch of issue `n` (SPEC §7), where its converged tasks are committed: the one place its name is
 * spelled (`n` may be a placeholder such as `<n>` in help texts).
 */
export function workBranchName(n: number | string): string {
  return `${WORK_BRANCH_PREFIX}${n}`
}

/** The issue a work branch is for (`workBranchName(42)` → 42); undefined for any other branch. */
export function issueOfWorkBranch(ref: string): number | undefined {
  const match = /^(\d+)$/.exec(ref.startsWith(WORK_BRANCH_PREFIX) ? ref.slice(WORK_BRANCH_PREFIX.length) : '')
  return match ? Number(match[1]) : undefined
}
