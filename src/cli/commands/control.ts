/**
 * `converge status`, `pause`, `resume` and `stop` against a local repository: the same state files and the same
 * transitions as the action's commands, printed for a terminal.
 */
import { userInfo } from 'node:os'
import { signalIssue, type ControlSignal } from '../../pipeline/control.js'
import { RunStateSchema } from '../../model/index.js'
import { planHash } from '../../plan/hash.js'
import { issueFilePaths, readIssueFiles } from '../../pipeline/issue-files.js'
import { statePaths } from '../../model/state-layout.js'
import { readStateJson } from '../../state/state-files.js'
import { printDocument, refuse, taskEntries, type Output } from '../output.js'
import { issueReport, queueReport } from '../terminal-report.js'
import { inTerminalWords, required, storeOf, type IssueArgs } from './issue.js'

/** `pause`, `resume`, `stop` (a second terminal stops a running `execute` at its next action boundary). */
export async function signalCommand(signal: ControlSignal, args: IssueArgs, output: Output): Promise<number> {
  const n = required(args.number, signal)
  const result = await signalIssue(await storeOf(args), n, signal, userInfo().username, new Date().toISOString())
  if (!result.ok) return refuse(output, inTerminalWords(result.reason, n))
  if (output.json) printDocument(output.io, { issue: n, signal, status: result.status, changed: result.changed })
  else output.io.out(`ISS-${n}: ${result.changed ? `${signal === 'stop' ? 'stopped' : `${signal}d`}, now ${result.status}` : `already ${result.status}`}`)
  return 0
}

/** `status --number <n>`: the issue, its plan and each task; `status`: the queue and every issue the state branch knows. */
export async function statusCommand(args: IssueArgs, output: Output): Promise<number> {
  const { io } = output
  const store = await storeOf(args)
  const now = new Date().toISOString()
  if (args.number === undefined) {
    const run = await readStateJson(await store.snapshot([statePaths.runState]), statePaths.runState, RunStateSchema)
    const issues = Object.values(run?.issues ?? {}).sort((a, b) => a.number - b.number)
    if (output.json) {
      printDocument(io, { queue: run?.queue ?? [], queue_built_at: run?.queue_built_at ?? null, issues })
      return 0
    }
    if (!issues.length) {
      io.out(`No issue on ${store.branch} yet: converge plan --issue-file <issue.md>, or converge sync --issues <folder>`)
      return 0
    }
    const queue = run && (run.queue.length || run.queue_built_at) ? [...queueReport(run, { colour: io.colour ?? false }), ''] : []
    io.out([...queue, ...issues.map((i) => `ISS-${i.number}  ${i.status.padEnd(10)}  ${(i.solution_id ?? '–').padEnd(16)}  ${i.title}${i.closed ? ' (closed)' : ''}`)].join('\n'))
    return 0
  }
  const n = args.number
  const { issue, plan, execution } = await readIssueFiles(await store.snapshot(issueFilePaths(n)), n, now)
  if (!issue) return refuse(output, `ISS-${n} is not known to Converge yet: converge plan --issue-file <issue.md> --number ${n}`)
  if (output.json) {
    const hash = plan ? planHash(plan) : null
    const current = execution && execution.plan_hash === hash ? execution : undefined
    printDocument(io, {
      issue: { number: n, title: issue.title, status: issue.status, error: issue.error ?? null },
      plan: plan ? { solution_id: plan.id, plan_hash: hash, approved: plan.approval?.plan_hash === hash, approved_by: plan.approval?.approved_by ?? null } : null,
      execution: current ? { mode: current.mode ?? 'execute', status: current.status, started_at: current.started_at, executed_at: current.executed_at } : null,
      tasks: plan ? taskEntries(plan, current) : [],
    })
    return 0
  }
  io.out(issueReport(issue, plan, execution, { colour: io.colour ?? false }).join('\n'))
  return 0
}
