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
import { hintOf, inTerminalWords, required, storeOf, type IssueArgs } from './issue.js'
import { resolve } from 'node:path'
import { hintLine } from '../next-hint.js'

/** `pause`, `resume`, `stop` (a second terminal stops a running `execute` at its next action boundary). */
export async function signalCommand(signal: ControlSignal, args: IssueArgs, output: Output): Promise<number> {
  const n = required(args.number, signal)
  const store = await storeOf(args)
  const now = new Date().toISOString()
  const result = await signalIssue(store, n, signal, userInfo().username, now)
  if (!result.ok) return refuse(output, inTerminalWords(result.reason, n))
  if (output.json) {
    printDocument(output.io, { issue: n, signal, status: result.status, changed: result.changed })
    return 0
  }
  const { issue, plan, execution } = await readIssueFiles(await store.snapshot(issueFilePaths(n)), n, now)
  const hint = issue ? await hintOf(resolve(args.repo), issue, plan, execution) : undefined
  output.io.out([`ISS-${n}: ${result.changed ? SIGNALLED[signal] : `already ${result.status}`}`, ...hintLine(hint)].join('\n'))
  return 0
}

/** What a signal did, in words that do not promise more than it does: `resume` itself runs nothing. */
const SIGNALLED: Record<ControlSignal, string> = {
  pause: 'paused: a running execute finishes the tasks it is running, records them and starts no other',
  stop: 'stopped: a running execute finishes the tasks it is running, records them and starts no other',
  resume: 'resumed: nothing runs until an execute does, which goes on where the last one stopped',
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
    // A folder sync drops GitHub's cursor: its issues that are not open were missing from the folder, not closed.
    const notOpen = run?.sync ? ' (closed on GitHub)' : ' (not in the issue folder at the last sync)'
    io.out([...queue, ...issues.map((i) => `ISS-${i.number}  ${i.status.padEnd(10)}  ${(i.solution_id ?? '–').padEnd(16)}  ${i.title}${i.closed ? notOpen : ''}`)].join('\n'))
    return 0
  }
  const n = args.number
  const { issue, plan, execution } = await readIssueFiles(await store.snapshot(issueFilePaths(n)), n, now)
  if (!issue) {
    // Synced from a folder or GitHub, not planned yet: the run state has its summary.
    const run = await readStateJson(await store.snapshot([statePaths.runState]), statePaths.runState, RunStateSchema)
    const synced = run?.issues[`ISS-${n}`]
    if (!synced || output.json) return refuse(output, `ISS-${n} is not known to Converge yet: converge plan --issue-file <issue.md> --number ${n}`)
    const hint = await hintOf(resolve(args.repo), { number: n, status: synced.status, error: null }, undefined, undefined)
    io.out([`ISS-${n} · ${synced.title} · ${synced.status}`, '  No plan yet', ...hintLine(hint)].join('\n'))
    return 0
  }
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
  io.out(issueReport(issue, plan, execution, await hintOf(resolve(args.repo), issue, plan, execution), { colour: io.colour ?? false }).join('\n'))
  return 0
}
