/**
 * `publish-tasks: sub-issues`: an approved plan's tasks mirrored as sub-issues of the issue, with `blocked_by`
 * links following the tasks' dependencies, each closed when its task converges. A hidden marker in each
 * sub-issue's body finds it again, so reruns create no duplicates.
 */
import type { ExecutionRecord, Solution, Task } from '../model/index.js'
import { planHash } from '../plan/hash.js'
import {
  addBlockedBy, addSubIssue, closeIssue, createIssue, IssuesPermissionError, listBlockedBy, listSubIssues, type RelatedIssue,
} from '../github/relations.js'
import { inline } from '../report/markdown.js'
import type { Session } from './session.js'

export function taskMarker(n: number, taskId: string): string {
  return `<!-- converge:task ISS-${n}/${taskId} -->`
}

/**
 * The sub-issue of a task: its marker, what it does, its criteria as a task list, and where it comes from.
 * The plan's text is anyone's: defused as the reports' is (no mentions that notify, no HTML, no blocks).
 */
export function taskIssueBody(n: number, plan: Pick<Solution, 'id'>, task: Pick<Task, 'id' | 'description' | 'convergence'>): string {
  const criteria = task.convergence.criteria.map((c) => `- [ ] ${inline(c)}`)
  return [
    taskMarker(n, task.id),
    ...task.description.split('\n').map(inline),
    ...(criteria.length ? ['', '**Criteria**', '', ...criteria] : []),
    '',
    `<sub>Task ${task.id} of ${plan.id} for #${n}, mirrored by Converge: closed when the task converges.</sub>`,
  ].join('\n')
}

export interface MirrorResult {
  created: string[]
  closed: string[]
  /** Why mirroring stopped (a token without `issues: write`): a warning, not a failure. */
  warning?: string
}

/**
 * Mirrors the tasks of `plan` (when approved, and `publish-tasks` asks for it) as sub-issues of issue `n`:
 * creates the missing ones, links each to the sub-issues of the tasks it depends on, and closes those whose
 * task converged in `execution`.
 */
export async function mirrorTasks(session: Session, n: number, plan: Solution, execution?: ExecutionRecord): Promise<MirrorResult> {
  const result: MirrorResult = { created: [], closed: [] }
  if (session.inputs['publish-tasks'] !== 'sub-issues' || session.inputs['dry-run']) return result
  if (plan.approval?.plan_hash !== planHash(plan)) return result
  const { client, ctx } = session
  try {
    const existing = await listSubIssues(client, ctx.repo, n)
    const byTask = new Map<string, RelatedIssue>()
    for (const task of plan.tasks) {
      const found = existing.find((issue) => issue.body?.startsWith(taskMarker(n, task.id)))
      if (found) byTask.set(task.id, found)
    }
    for (const task of plan.tasks) {
      if (byTask.has(task.id)) continue
      const issue = await createIssue(client, ctx.repo, { title: `${task.id}: ${task.title}`, body: taskIssueBody(n, plan, task) })
      await addSubIssue(client, ctx.repo, n, issue)
      byTask.set(task.id, issue)
      result.created.push(task.id)
    }
    for (const task of plan.tasks) {
      if (!task.depends_on.length) continue
      const issue = byTask.get(task.id)!
      // A sub-issue made by this run has no links yet; an older one is asked which it has.
      const linked = result.created.includes(task.id) ? new Set<number>() : new Set((await listBlockedBy(client, ctx.repo, issue.number)).map((b) => b.number))
      for (const dependency of task.depends_on) {
        const blocker = byTask.get(dependency)
        if (blocker && !linked.has(blocker.number)) await addBlockedBy(client, ctx.repo, issue.number, blocker)
      }
    }
    for (const task of plan.tasks) {
      const issue = byTask.get(task.id)!
      if (execution?.tasks[task.id]?.status !== 'completed' || issue.state === 'closed') continue
      await closeIssue(client, ctx.repo, issue.number)
      result.closed.push(task.id)
    }
  } catch (error) {
    if (!(error instanceof IssuesPermissionError)) throw error
    result.warning = `publish-tasks: ${error.message}`
  }
  return result
}
