/**
 * Scale-out's first step, `matrix`: the ready tasks of one issue, or of every runnable issue, as a job matrix, with a
 * job summary of what waits and why (see `readiness.ts`).
 */
import { ExecutionRecordSchema, IssueStateSchema, RunStateSchema, SolutionSchema, type ExecutionRecord, type IssueState, type Solution } from '../../model/index.js'
import { code, inline, plural } from '../../report/markdown.js'
import { statePaths } from '../../model/state-layout.js'
import { readStateJson } from '../../state/state-files.js'
import type { StateSnapshot, StateStore } from '../../state/store.js'
import { approveIfPassing } from '../approve.js'
import { gateRefusal } from '../run-start.js'
import { buildMatrix, currentRecord, ids, MATRIX_MAX_JOBS, readiness, type BuiltMatrix, type FailurePolicy, type Readiness } from './readiness.js'

export interface IssueMatrix {
  n: number
  title: string
  /** Why the issue's tasks may not run (the gate); the other fields are then absent. */
  refused?: string
  plan?: Solution
  issue?: IssueState
  record?: ExecutionRecord
  readiness?: Readiness
  /** Approved by this command (auto-approve). */
  approved?: boolean
}

export interface MatrixOptions extends FailurePolicy {
  now: string
  maxJobs?: number
  maxBytes?: number
  /** `auto-approve`: approves, as this actor, a plan that passes its gate and is not approved yet. */
  autoApproveAs?: string
}

export interface MatrixPlan extends BuiltMatrix {
  issues: IssueMatrix[]
  /** Markdown for the job summary: what is in the matrix, what waits, and why. */
  summary: string
}

/** Issue statuses the repository-wide matrix looks at: the others have nothing to run or are paused. */
const RUNNABLE = new Set(['planned', 'queued', 'executing'])
/** Issues read per snapshot (each one query of 4 files an issue). */
export const ISSUES_PER_SNAPSHOT = 25

/**
 * `matrix`: the ready tasks of one issue, or of every issue of the run state that is planned, queued or
 * executing (in issue-number order, one conflict-free set per issue), capped to GitHub's limits.
 */
export async function planMatrix(store: StateStore, scope: { issue: number } | 'repository', options: MatrixOptions): Promise<MatrixPlan> {
  let numbers: number[]
  if (scope === 'repository') {
    numbers = await issuesInRunState(store, (status) => RUNNABLE.has(status))
  } else numbers = [scope.issue]

  const issues: IssueMatrix[] = []
  for (let i = 0; i < numbers.length; i += ISSUES_PER_SNAPSHOT) {
    const chunk = numbers.slice(i, i + ISSUES_PER_SNAPSHOT)
    const snapshot = await store.snapshot(chunk.flatMap((n) => [statePaths.issue(n), statePaths.plan(n), statePaths.execution(n)]))
    for (const n of chunk) issues.push(await issueMatrix(store, snapshot, n, options))
  }
  const built = buildMatrix(
    issues.flatMap((i) => (i.readiness ? [{ issue: i.n, tasks: i.readiness.ready.map((t) => t.id) }] : [])),
    { ...(options.maxJobs !== undefined ? { maxJobs: options.maxJobs } : {}), ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}) },
  )
  return { ...built, issues, summary: renderMatrixSummary(issues, built, scope === 'repository') }
}

async function issueMatrix(store: StateStore, snapshot: StateSnapshot, n: number, options: MatrixOptions): Promise<IssueMatrix> {
  const issue = await readStateJson(snapshot, statePaths.issue(n), IssueStateSchema)
  let plan = await readStateJson(snapshot, statePaths.plan(n), SolutionSchema)
  const execution = await readStateJson(snapshot, statePaths.execution(n), ExecutionRecordSchema)
  let approved = false
  if (options.autoApproveAs && issue && plan) ({ plan, approvedNow: approved } = await approveIfPassing(store, n, plan, options.autoApproveAs, options.now))
  const title = issue?.title ?? `#${n}`
  const refused = gateRefusal(n, issue, plan)
  if (refused !== null || !plan || !issue) return { n, title, refused: refused ?? `ISS-${n} has no plan yet` }
  const record = currentRecord(plan, execution)
  return { n, title, plan, issue, ...(record ? { record } : {}), readiness: readiness(plan, record, options), ...(approved ? { approved } : {}) }
}

/** The job summary of `matrix`. */
export function renderMatrixSummary(issues: readonly IssueMatrix[], built: BuiltMatrix, repository: boolean): string {
  const lines: string[] = []
  const count = built.include.length
  lines.push(count ? `### Converge matrix: ${plural(count, 'task')} ready` : '### Converge matrix: nothing is ready', '')
  if (repository && issues.length === 0) lines.push('No issue of the run state is planned, queued or executing: nothing to run.', '')
  for (const entry of issues) {
    const heading = `**ISS-${entry.n}** — ${inline(entry.title)}`
    if (entry.refused) {
      lines.push(`- ${heading}: not run: ${entry.refused}.`)
      continue
    }
    const r = entry.readiness!
    const total = entry.plan!.tasks.length
    const parts: string[] = [`${r.completed.length}/${total} converged`]
    const inMatrix = built.include.filter((e) => e.issue === entry.n).map((e) => e.task)
    const left = built.leftover.filter((e) => e.issue === entry.n).map((e) => e.task)
    if (inMatrix.length) parts.push(`in the matrix: ${inMatrix.join(', ')}`)
    if (left.length) parts.push(`ready, left for the next round (over GitHub's limit): ${left.join(', ')}`)
    if (r.deferred.length) parts.push(`next round (shares a file with a task in this one): ${r.deferred.map((d) => `${d.task.id} (${code(d.path)} with ${d.conflictsWith})`).join(', ')}`)
    if (r.waiting.length) parts.push(`waiting for dependencies: ${ids(r.waiting)}`)
    if (r.failed.length) parts.push(`failed: ${ids(r.failed)} (\`retry\` or \`execute-task <id>\` runs them again)`)
    if (r.blocked.length) parts.push(`blocked by a failed task: ${r.blocked.map((b) => `${b.task.id} (by ${b.failed})`).join(', ')}`)
    if (r.halted) parts.push(`halted: ${r.halted}${r.held.length ? `; not started: ${ids(r.held)}` : ''}`)
    if (!inMatrix.length && !left.length) parts.push(nothingReady(r, total))
    lines.push(`- ${heading}${entry.approved ? ' (approved now: auto-approve)' : ''}: ${parts.join('; ')}.`)
  }
  if (built.limitedBy) {
    const limit = built.limitedBy === 'jobs'
      ? `at most ${built.maxJobs} jobs per matrix${built.maxJobs === MATRIX_MAX_JOBS ? ', as GitHub allows' : ''}`
      : `at most ${built.maxBytes.toLocaleString('en-US')} bytes of matrix (GitHub keeps 1 MB of outputs per job)`
    lines.push('', `${plural(built.leftover.length, 'ready task')} did not fit (${limit}): run \`matrix\` again after this round.`)
  }
  return `${lines.join('\n')}\n`
}

/** Why an issue has nothing in the matrix, and what to do next. */
function nothingReady(r: Readiness, total: number): string {
  if (r.completed.length === total) return 'every task converged: run `report` to publish the result'
  if (r.halted) return 'nothing more runs: run `report`, then `retry` the failed tasks'
  if (r.failed.length) return 'nothing else can run until the failed tasks converge: run `report`, then `retry` them'
  return 'nothing is ready'
}

/** The numbers of the run state's issues whose status passes `filter`, in ascending order. */
export async function issuesInRunState(store: StateStore, filter: (status: IssueState['status']) => boolean): Promise<number[]> {
  const run = await readStateJson(await store.snapshot([statePaths.runState]), statePaths.runState, RunStateSchema)
  return Object.values(run?.issues ?? {}).filter((i) => filter(i.status)).map((i) => i.number).sort((a, b) => a - b)
}
