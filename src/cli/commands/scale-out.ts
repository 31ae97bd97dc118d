/**
 * Scale-out in the CLI: the host, on this machine, of the flow in `src/pipeline/scale-out/` (SPEC §11), as the
 * action (`src/action/scale-out.ts`) hosts it on GitHub. `converge matrix`, `execute-task` and `report` against
 * a local repository, with the same state files — the ready tasks as a job matrix, one task carried out and
 * recorded as a matrix job records it, and the issue's status from the recorded results.
 */
import { resolve } from 'node:path'
import { workBranchName } from '../../model/state-layout.js'
import { issueFilePaths, readIssueFiles } from '../../pipeline/issue-files.js'
import { executeTask } from '../../pipeline/scale-out/execute-task.js'
import { planMatrix, type IssueMatrix, type MatrixPlan } from '../../pipeline/scale-out/matrix.js'
import { runOf } from '../../pipeline/run-request.js'
import { cliRunRequest, removeRunFolder } from '../run-request.js'
import { issuesToReport, reportHeadline, reportIssue } from '../../pipeline/scale-out/report.js'
import { renderIssueComment } from '../../report/issue-comment.js'
import { printDocument, progressIo, refuse, taskEntries, type Output } from '../output.js'
import { progressLines } from '../progress.js'
import { issueReport } from '../terminal-report.js'
import { UsageError } from '../usage-error.js'
import { localRunAlive } from '../local-run.js'
import { hintOf, inTerminalWords, required, storeOf, type ExecuteArgs, type IssueArgs } from './issue.js'

export interface FailurePolicyArgs {
  onFailure: 'retry' | 'skip' | 'abort'
  maxErrors: number
}

/**
 * `converge matrix [--number <n>]`: the ready tasks of the issue (or of every planned, queued or executing issue)
 * as the action's `matrix` output, `{"include":[{"issue":7,"task":"T1"},…]}`, on stdout; what waits and why on stderr.
 */
export async function matrixCommand(args: IssueArgs & FailurePolicyArgs, output: Output): Promise<number> {
  const store = await storeOf(args)
  const n = args.number
  const planned = await planMatrix(store, n !== undefined ? { issue: n } : 'repository', { now: new Date().toISOString(), onFailure: args.onFailure, maxErrors: args.maxErrors })
  const refused = n !== undefined ? planned.issues[0]?.refused : undefined
  if (refused) return refuse(output, inTerminalWords(refused, n!))
  if (output.json) {
    printDocument(output.io, { matrix: { include: planned.include }, leftover: planned.leftover, issues: planned.issues.map(readinessDocument) })
    return 0
  }
  output.io.out(planned.json)
  output.io.err(matrixLines(planned).join('\n'))
  return 0
}

function readinessDocument(entry: IssueMatrix) {
  if (entry.refused || !entry.readiness) return { issue: entry.n, title: entry.title, refused: entry.refused ?? null }
  const r = entry.readiness
  const ids = (tasks: ReadonlyArray<{ id: string }>) => tasks.map((t) => t.id)
  return {
    issue: entry.n, title: entry.title, refused: null,
    ready: ids(r.ready), deferred: r.deferred.map((d) => ({ task: d.task.id, conflicts_with: d.conflictsWith, path: d.path })),
    waiting: ids(r.waiting), blocked: r.blocked.map((b) => ({ task: b.task.id, failed: b.failed })),
    completed: ids(r.completed), failed: ids(r.failed), held: ids(r.held), halted: r.halted,
  }
}

/** One line per issue: what is in the matrix, what waits and why, and what to run next. */
function matrixLines(planned: MatrixPlan): string[] {
  if (!planned.issues.length) return ['No issue is planned, queued or executing: nothing to run.']
  return planned.issues.map((entry) => {
    if (entry.refused) return `ISS-${entry.n} · ${entry.title}: not run: ${inTerminalWords(entry.refused, entry.n)}`
    const r = entry.readiness!
    const n = entry.n
    const parts = [`${r.completed.length}/${entry.plan!.tasks.length} converged`]
    const ready = planned.include.filter((e) => e.issue === n).map((e) => e.task)
    if (ready.length) parts.push(`ready: ${ready.join(', ')} (converge execute-task ${ready[0]} --number ${n} --executor <agent>)`)
    if (r.deferred.length) parts.push(`next round (shares a file with a ready task): ${r.deferred.map((d) => `${d.task.id} (${d.path} with ${d.conflictsWith})`).join(', ')}`)
    if (r.waiting.length) parts.push(`waiting for dependencies: ${r.waiting.map((t) => t.id).join(', ')}`)
    if (r.failed.length) parts.push(`failed: ${r.failed.map((t) => t.id).join(', ')} (converge execute-task <id> runs one again)`)
    if (r.blocked.length) parts.push(`blocked by a failed task: ${r.blocked.map((b) => `${b.task.id} (by ${b.failed})`).join(', ')}`)
    if (r.halted) parts.push(`halted: ${r.halted}`)
    if (!ready.length) parts.push(`nothing is ready: converge report --number ${n}`)
    return `ISS-${n} · ${entry.title}: ${parts.join('; ')}`
  })
}

/**
 * `converge execute-task <task> --number <n> --executor '<command>'`: one task of the approved plan in --repo, as a
 * matrix job carries it out: recorded on the state branch, its commit on its work branch. Refused unless its
 * dependencies converged; a task that converged already is not run again. Exit 0 when it converged.
 */
export async function executeTaskCommand(args: Omit<ExecuteArgs, 'maxParallel' | 'maxErrors' | 'retry' | 'maxCostUsd'> & { task?: string }, output: Output): Promise<number> {
  const n = required(args.number, 'execute-task')
  if (!args.task) throw new UsageError(`execute-task needs a task id: converge execute-task T2 --number ${n} --executor '<command>'`)
  const store = await storeOf(args)
  const { execution } = await readIssueFiles(await store.snapshot(issueFilePaths(n)), n, new Date().toISOString())
  // An execute of the whole plan running in this working tree holds it: a task of it is not started beside it.
  if (execution?.status === 'running' && !execution.matrix && execution.run && localRunAlive(execution.run))
    return refuse(output, inTerminalWords(`ISS-${n} is being ${execution.mode === 'verify' ? 'verified' : 'executed'} by another run, ${execution.run} (started ${execution.started_at}): one run of a plan at a time. Wait for it to end, or \`/converge stop\` it`, n))
  const progress = progressLines(progressIo(output))
  const request = cliRunRequest(args, progress)
  const { options, branch } = runOf(request, n, { commit: true })
  const result = await executeTask(store, n, args.task, options).finally(async () => {
    progress.close()
    // The user's branch is checked out again, whatever happened.
    await branch.leave()
    await removeRunFolder(request)
  })
  if (!result.ok) return refuse(output, inTerminalWords(result.reason, n))

  const converged = result.interrupted === undefined && result.result?.status === 'completed'
  if (output.json) {
    printDocument(output.io, {
      issue: n, task: result.task.id, ran: result.ran, interrupted: result.interrupted ?? null,
      status: result.interrupted ?? result.result?.status ?? 'pending', tasks: taskEntries(result.plan, result.record),
      error: result.result?.status === 'failed' ? result.result.error : null, branch: branch.checkedOut?.name ?? null,
    })
    return converged ? 0 : 1
  }
  const commit = result.result?.commit_hash
  const verdict = result.interrupted ? `${result.interrupted} before it finished: nothing recorded, converge resume --number ${n} continues`
    : !result.ran ? 'converged already: not run again'
    : converged ? `converged${commit ? ` (commit ${commit.slice(0, 7)} on ${workBranchName(n)})` : ' (no changes to commit)'}` : 'failed'
  output.io.out([
    `ISS-${n} · ${result.task.id}: ${result.task.title} — ${verdict}`,
    '',
    // A matrix job's next step is the matrix's, not the whole plan's.
    ...issueReport(result.issue, result.plan, result.record, undefined, { colour: output.io.colour ?? false }),
    `  Next: converge matrix --number ${n} (the tasks ready now), then converge report --number ${n}`,
  ].join('\n'))
  return converged ? 0 : 1
}

/**
 * `converge report [--number <n>]`: the issue's status from the recorded task results (`completed`, `failed`, or
 * still `executing` while tasks are ready), recorded on the state branch as the action's report job records it, and
 * printed as the compact report; `--markdown` prints the comment the action would post instead. Without --number:
 * every issue whose matrix execution is still open.
 */
export async function reportCommand(args: IssueArgs & FailurePolicyArgs & { markdown: boolean }, output: Output): Promise<number> {
  const store = await storeOf(args)
  const numbers = args.number !== undefined ? [args.number] : await issuesToReport(store)
  const documents: unknown[] = []
  const texts: string[] = []
  let code = 0
  for (const n of numbers) {
    const result = await reportIssue(store, n, { now: new Date().toISOString(), secrets: [], onFailure: args.onFailure, maxErrors: args.maxErrors })
    if (!result.ok) return refuse(output, inTerminalWords(result.reason, n))
    if (result.issue.status === 'failed') code = 1
    const headline = reportHeadline(result.record, result.headline)
    const markdown = args.markdown
      ? renderIssueComment({
          issue: { number: n, title: result.issue.title }, status: result.issue.status, headline, solution: result.plan,
          ...(result.issue.error ? { error: result.issue.error } : {}), ...(result.record ? { execution: result.record } : {}),
          commandPrefix: '/converge', links: {},
        })
      : undefined
    documents.push({
      issue: n, status: result.issue.status, headline: result.headline, changed: result.changed,
      tasks: taskEntries(result.plan, result.record), error: result.issue.error ?? null, ...(markdown !== undefined ? { markdown } : {}),
    })
    texts.push(markdown ?? [result.headline, '', ...issueReport(result.issue, result.plan, result.record, await hintOf(resolve(args.repo), result.issue, result.plan, result.record), { colour: output.io.colour ?? false }).map((l) => inTerminalWords(l, n))].join('\n'))
  }
  if (output.json) printDocument(output.io, args.number !== undefined ? documents[0] : { reports: documents })
  else output.io.out(texts.length ? texts.join('\n\n') : 'No issue has matrix results waiting to be reported.')
  return code
}
