import type { ConvergenceCheck, Task, TaskResult } from '../model/index.js'
import { analysePlan, type PlanAnalysis } from '../plan/analyse.js'
import { planHash } from '../plan/hash.js'
import { linkedCommand, verificationEntries } from '../model/verification.js'
import type { RunReport } from './run-report.js'
import { provedBy } from './evidence-words.js'
import { maskReport } from './secrets.js'

/**
 * Where a task stands, as a report shows it. `unproven`: it completed, but its evidence proves nothing about its
 * change (unproven, no change, manual, not measured): "converged" is never said of it.
 */
export type TaskState = 'converged' | 'unproven' | 'failed' | 'running' | 'blocked' | 'pending' | 'skipped'

const TASK_STATES: readonly TaskState[] = ['converged', 'unproven', 'failed', 'running', 'blocked', 'pending', 'skipped']

export const STATE_ICON: Record<TaskState, string> = {
  converged: '✅', unproven: '⚠️', failed: '❌', running: '🔄', blocked: '⛔', pending: '⏳', skipped: '⏭️',
}

export interface TaskView {
  task: Task
  /** 1-based wave, when the plan could be scheduled. */
  wave: number | undefined
  state: TaskState
  result: TaskResult | undefined
  /** The plan's criteria and verification entries, each with its recorded verdict or pending, then anything else recorded. */
  checks: ConvergenceCheck[]
}

/** The report as the renderers read it: the analysis filled in, every task with its state and checks. */
export interface ReportView {
  report: RunReport
  analysis: PlanAnalysis | undefined
  tasks: TaskView[]
  count: Record<TaskState, number>
  /** Whether the plan is approved, and for this very content; undefined without a plan. */
  approval: 'missing' | 'current' | 'stale' | undefined
  /** Execution has begun: a record exists or tasks are running. */
  started: boolean
}

/** `approval`: given by a caller that has the plan's hash already (hashing a plan is most of a board's work). */
export function buildView(report: RunReport, approval = approvalOf(report.solution)): ReportView {
  const { solution } = report
  const analysis = report.analysis ?? (solution ? analysePlan(solution) : undefined)
  const tasks = solution ? taskViews(solution.tasks, report, analysis) : []
  const count = Object.fromEntries(TASK_STATES.map((s) => [s, 0])) as Record<TaskState, number>
  for (const t of tasks) count[t.state]++
  const started = report.execution !== undefined || (report.running?.length ?? 0) > 0
  return { report, analysis, tasks, count, approval, started }
}

/**
 * The view of a report with every secret masked, for rendering. The approval is judged on the stored plan: a
 * masked copy of a plan that holds a secret hashes differently and would read as approved for an earlier version.
 */
export function maskedView(report: RunReport): ReportView {
  return { ...buildView(maskReport(report)), approval: approvalOf(report.solution) }
}

/** Whether `solution` is approved, and for this very content (`hash`: its plan hash). */
export function approvalOf(solution: RunReport['solution'], hash = solution && planHash(solution)): ReportView['approval'] {
  if (!solution) return undefined
  if (!solution.approval) return 'missing'
  return solution.approval.plan_hash === hash ? 'current' : 'stale'
}

/** Tasks are running or about to: the report is a progress report, not a verdict. */
export function isInProgress(view: ReportView): boolean {
  const { count, report } = view
  return count.running > 0 || report.execution?.status === 'running' || report.status === 'queued' || report.status === 'executing'
}

/** Finished for good: nothing left to do or to look at. Failed tasks are not finished, they wait for a retry. */
export function isFinished(state: TaskState): boolean {
  return state === 'converged' || state === 'unproven' || state === 'skipped'
}

export function taskConverged(result: TaskResult): boolean {
  return result.status === 'completed' && !result.convergence_verified.some((c) => c.verdict === 'fail')
}

function taskViews(tasks: readonly Task[], report: RunReport, analysis: PlanAnalysis | undefined): TaskView[] {
  const waveOf = new Map((analysis?.dag?.waves ?? []).flatMap((wave, i) => wave.map((id) => [id, i + 1] as const)))
  const running = new Set(report.running ?? [])
  const byId = new Map(tasks.map((t) => [t.id, t]))
  const recorded = report.execution?.tasks ?? {}
  const resultOf = (id: string) => (Object.hasOwn(recorded, id) ? recorded[id] : undefined)
  const states = new Map<string, TaskState>()
  // Dependencies first, so that a task behind a blocked task is blocked too.
  const order = [...new Set([...(analysis?.dag?.order ?? []), ...tasks.map((t) => t.id)])]
  for (const id of order) {
    const task = byId.get(id)
    if (!task) continue
    const result = resultOf(id)
    const blocked = task.depends_on.some((dep) => states.get(dep) === 'failed' || states.get(dep) === 'blocked')
    states.set(id, taskState(result, running.has(id), blocked))
  }
  return tasks.map((task) => {
    const result = resultOf(task.id)
    return {
      task,
      wave: waveOf.get(task.id),
      state: states.get(task.id)!,
      result,
      checks: taskChecks(task, result),
    }
  })
}

function taskState(result: TaskResult | undefined, running: boolean, dependencyFailed: boolean): TaskState {
  if (running) return 'running'
  if (result?.status === 'skipped') return 'skipped'
  if (result) return !taskConverged(result) ? 'failed' : provedBy(result) ? 'converged' : 'unproven'
  return dependencyFailed ? 'blocked' : 'pending'
}

/** The plan's criteria and verification entries with their recorded verdicts (pending when none), then anything else recorded. */
export function taskChecks(task: Task, result: TaskResult | undefined): ConvergenceCheck[] {
  return withLinkedVerdicts(task, mergeChecks(plannedChecks(task), result?.convergence_verified ?? []))
}

/** A criterion linked to a command (`criteria_commands`) is checked by it: its verdict is the command's. */
function withLinkedVerdicts(task: Task, checks: ConvergenceCheck[]): ConvergenceCheck[] {
  if (!task.convergence.criteria_commands?.length) return checks
  const commands = new Map(checks.filter((c) => c.kind === 'command').map((c) => [c.text, c]))
  return checks.map((c) => {
    const command = c.kind === 'criterion' ? linkedCommand(task, c.text) : undefined
    const check = command === undefined ? undefined : commands.get(command)
    return check ? { kind: 'criterion', text: c.text, verdict: check.verdict, verified_by: 'command' } : c
  })
}

/** What the plan says will verify the task, all pending. */
function plannedChecks(task: Task): ConvergenceCheck[] {
  const criteria = task.convergence.criteria.map(
    (text): ConvergenceCheck => ({ kind: 'criterion', text, verdict: 'pending', verified_by: 'agent' }),
  )
  const entries = verificationEntries(task).map(
    (entry): ConvergenceCheck =>
      entry.kind === 'command'
        ? { kind: 'command', text: entry.command!, verdict: 'pending', verified_by: 'command' }
        : { kind: 'criterion', text: entry.text, verdict: 'pending', verified_by: 'manual' },
  )
  return [...criteria, ...entries]
}

function mergeChecks(planned: ConvergenceCheck[], recorded: ConvergenceCheck[]): ConvergenceCheck[] {
  const key = (c: ConvergenceCheck) => `${c.kind}\u0000${c.text.trim()}`
  const recordedByKey = new Map(recorded.map((c) => [key(c), c]))
  const merged = planned.map((c) => recordedByKey.get(key(c)) ?? c)
  const plannedKeys = new Set(planned.map(key))
  return [...merged, ...recorded.filter((c) => !plannedKeys.has(key(c)))]
}

/** The criteria of the plan that no command checks: a person does, whatever an agent reported about them. */
export function criteriaForAPerson(view: ReportView): number {
  return view.tasks.reduce((sum, t) => sum + t.checks.filter((c) => c.kind === 'criterion' && c.verified_by !== 'command').length, 0)
}
