/**
 * `converge status`, `pause`, `resume` and `stop` against a local repository: the same state files and the same
 * transitions as the action's commands, printed for a terminal.
 */
import { userInfo } from 'node:os'
import type { ExecutionRecord, IssueState, Solution } from '../../model/index.js'
import { signalIssue, type ControlSignal } from '../../pipeline/control.js'
import { issueFilePaths, readIssueFiles } from '../../pipeline/issue-files.js'
import { planHash } from '../../plan/hash.js'
import type { CliIo } from '../io.js'
import { inTerminalWords, required, storeOf, type IssueArgs } from './issue.js'

/** `pause`, `resume`, `stop` (a second terminal stops a running `execute` at its next action boundary). */
export async function signalCommand(signal: ControlSignal, args: IssueArgs, io: CliIo): Promise<number> {
  const n = required(args.number, signal)
  const result = await signalIssue(await storeOf(args), n, signal, userInfo().username, new Date().toISOString())
  if (!result.ok) {
    io.out(inTerminalWords(result.reason, n))
    return 1
  }
  io.out(`ISS-${n}: ${result.changed ? `${signal === 'stop' ? 'stopped' : `${signal}d`}, now ${result.status}` : `already ${result.status}`}`)
  return 0
}

/** `status --number <n>`: the issue, its plan and each task; `status`: every issue the state branch knows. */
export async function statusCommand(args: IssueArgs, io: CliIo): Promise<number> {
  const store = await storeOf(args)
  const now = new Date().toISOString()
  if (args.number === undefined) {
    const { run } = await readIssueFiles(await store.snapshot(), 0, now)
    const issues = Object.values(run.issues).sort((a, b) => a.number - b.number)
    if (!issues.length) {
      io.out(`No issue on ${store.branch} yet: converge plan --issue-file <issue.md>`)
      return 0
    }
    for (const i of issues) io.out(`ISS-${i.number}  ${i.status.padEnd(10)}  ${(i.solution_id ?? '–').padEnd(16)}  ${i.title}`)
    return 0
  }
  const n = args.number
  const { issue, plan, execution } = await readIssueFiles(await store.snapshot(issueFilePaths(n)), n, now)
  if (!issue) {
    io.out(`ISS-${n} is not known to Converge yet: converge plan --issue-file <issue.md> --number ${n}`)
    return 1
  }
  io.out(statusLines(issue, plan, execution).join('\n'))
  return 0
}

function statusLines(issue: IssueState, plan: Solution | undefined, execution: ExecutionRecord | undefined): string[] {
  const lines = [`ISS-${issue.number} · ${issue.title} · ${issue.status}`]
  if (issue.error) lines.push(`  ${issue.error}`)
  if (!plan) return [...lines, `  No plan yet: converge plan --issue-file <issue.md> --number ${issue.number}`]
  const approval = !plan.approval ? 'not approved' : plan.approval.plan_hash === planHash(plan) ? `approved by ${plan.approval.approved_by}` : 'changed after its approval'
  lines.push(`  Plan ${plan.id}: ${plan.tasks.length} tasks, ${approval}`)
  const current = execution && execution.plan_hash === planHash(plan) ? execution : undefined
  for (const task of plan.tasks) {
    const result = current?.tasks[task.id]
    const verdict = !result ? 'pending' : result.status === 'completed' ? (current!.mode === 'verify' ? 'verified' : 'converged') : result.status
    const commit = result?.commit_hash ? result.commit_hash.slice(0, 7) : '–'
    lines.push(`  ${task.id.padEnd(4)}  ${verdict.padEnd(9)}  ${commit.padEnd(7)}  ${task.title}`)
  }
  const next = !plan.approval || plan.approval.plan_hash !== planHash(plan) ? `converge approve --number ${issue.number}`
    : issue.status === 'paused' ? `converge resume --number ${issue.number}`
    : issue.status !== 'completed' ? `converge execute --number ${issue.number} --executor <agent>` : undefined
  if (next) lines.push(`  Next: ${next}`)
  return lines
}
