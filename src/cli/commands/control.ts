/**
 * `converge status`, `pause`, `resume` and `stop` against a local repository: the same state files and the same
 * transitions as the action's commands, printed for a terminal.
 */
import { userInfo } from 'node:os'
import { signalIssue, type ControlSignal } from '../../pipeline/control.js'
import { RunStateSchema } from '../../model/index.js'
import { issueFilePaths, readIssueFiles } from '../../pipeline/issue-files.js'
import { statePaths } from '../../state/layout.js'
import { readStateJson } from '../../state/state-files.js'
import type { CliIo } from '../io.js'
import { issueReport } from '../terminal-report.js'
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
    const run = await readStateJson(await store.snapshot([statePaths.runState]), statePaths.runState, RunStateSchema)
    const issues = Object.values(run?.issues ?? {}).sort((a, b) => a.number - b.number)
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
  io.out(issueReport(issue, plan, execution, { colour: io.colour ?? false }).join('\n'))
  return 0
}
