import { resolve } from 'node:path'
import { approvePlan } from '../../pipeline/approve.js'
import { localRunAlive } from '../local-run.js'
import { executeIssue, type RunPlanResult } from '../../pipeline/run-plan.js'
import { runOf } from '../../pipeline/run-request.js'
import { cliRunRequest, removeRunFolder, type RunArgs } from '../run-request.js'
import { workBranchName } from '../../model/state-layout.js'
import { issueReport, unprovenLine } from '../terminal-report.js'
import { LocalGitStore } from '../../state/local-git-store.js'
import { printDocument, progressIo, refuse, taskEntries, type Output } from '../output.js'
import { progressLines } from '../progress.js'
import { UsageError } from '../usage-error.js'
import { checkHasCommit, checkRepository, hasBranch } from '../repository.js'
import type { ExecutionRecord, Solution } from '../../model/index.js'
import { HINT_PLACEHOLDERS, nextHint, type HintState, type NextHint } from '../next-hint.js'

export interface IssueArgs {
  number?: number
  repo: string
  stateBranch: string
}

/** `converge approve --number <n>`: approves the stored plan of an issue, bound to its content hash. */
export async function approveCommand(args: IssueArgs & { by: string }, output: Output): Promise<number> {
  const n = required(args.number, 'approve')
  const result = await approvePlan(await storeOf(args), n, args.by, new Date().toISOString())
  if (!result.ok) return refuse(output, inTerminalWords(result.reason, n))
  if (output.json)
    printDocument(output.io, {
      issue: n, solution_id: result.solution.id, plan_hash: result.planHash,
      approved_by: result.solution.approval?.approved_by ?? args.by, already_approved: result.alreadyApproved, accepted: result.accepted ?? null,
    })
  else output.io.out(result.alreadyApproved ? `${result.solution.id} was already approved (${result.planHash})` : `Approved ${result.solution.id} (${result.planHash})${result.accepted ? `: ${result.accepted}` : ''}`)
  return 0
}

export interface ExecuteArgs extends IssueArgs, RunArgs {
  maxParallel: number
  maxErrors: number
  retry?: string[] | 'failed'
}

/**
 * `converge execute --number <n> --executor '<command>'`: the executor carries out each task of the approved
 * plan in --repo, its commands verify it, and each converged task is committed to the local branch
 * (`workBranchName`, nothing is pushed). Exit 0 when every task converged.
 */
export async function executeCommand(args: ExecuteArgs, output: Output): Promise<number> {
  const n = required(args.number, 'execute')
  const repoDir = resolve(args.repo)
  const store = await storeOf(args)
  await checkHasCommit(repoDir, n)
  const progress = progressLines(progressIo(output))
  const request = cliRunRequest(args, progress, { wholePlan: true })
  const { options, branch } = runOf(request, n, { commit: true, retry: args.retry })
  let result: RunPlanResult
  try {
    result = await executeIssue(store, n, options).finally(() => progress.close())
  } finally {
    // The user's branch is checked out again, as it was, whatever happened; the commits stay on the work branch.
    await branch.leave()
    await removeRunFolder(request)
  }
  const discarded = args.signal?.aborted ? progress.running() : []
  if (discarded.length) {
    const [them, their] = discarded.length === 1 ? ['it', 'its'] : ['them', 'their']
    output.io.err(`Ctrl-C: ${discarded.join(', ')} did not finish: ${their} changes were put back and nothing of ${them} was recorded; converge execute --number ${n} --executor ${HINT_PLACEHOLDERS.agent} runs ${them} again`)
  }
  const code = await printResult(n, repoDir, result, output, branch.checkedOut?.name)
  // Only when there are such commits: a run where nothing completed made none. "Completed", not "converged":
  // the last line below names the tasks whose checks did not prove them.
  const committed = result.ok ? Object.values(result.record.tasks).filter((r) => r.status === 'completed' && r.commit_hash).length : 0
  if (committed && branch.checkedOut && !output.json) output.io.out(`\nThe commits of ${committed} completed task${committed === 1 ? '' : 's'} are on ${branch.name} in ${repoDir}.`)
  // The last line says what the run did not prove.
  const unproven = result.ok && !output.json ? unprovenLine(result.record) : undefined
  if (unproven) output.io.out(unproven)
  return code
}

export async function printResult(n: number, repoDir: string, result: RunPlanResult, output: Output, branch?: string): Promise<number> {
  if (!result.ok) return refuse(output, inTerminalWords(result.reason, n))
  if (output.json) printDocument(output.io, runDocument(n, result, branch))
  else {
    const hint = await hintOf(repoDir, result.issue, result.plan, result.record)
    output.io.out(['', ...issueReport(result.issue, result.plan, result.record, hint, { colour: output.io.colour ?? false }).map((line) => inTerminalWords(line, n))].join('\n'))
  }
  return result.record.status === 'completed' ? 0 : 1
}

/** The --json document of verify, execute and retry. */
function runDocument(n: number, result: Extract<RunPlanResult, { ok: true }>, branch?: string) {
  return {
    issue: n, mode: result.record.mode ?? 'execute', status: result.record.status, issue_status: result.issue.status,
    solution_id: result.plan.id, plan_hash: result.record.plan_hash, ran: result.ran,
    tasks: taskEntries(result.plan, result.record), error: result.issue.error ?? null, branch: branch ?? null,
  }
}

/** The CLI's next command for the recorded state (src/cli/next-hint.ts), with whether the work branch exists. */
export async function hintOf(repoDir: string, issue: HintState['issue'], plan: Solution | undefined, execution: ExecutionRecord | undefined): Promise<NextHint | undefined> {
  const runAlive = execution?.status === 'running' && execution.run ? localRunAlive(execution.run) : undefined
  return nextHint({ issue, plan, execution, workBranch: await hasBranch(repoDir, workBranchName(issue.number)), runAlive })
}

/**
 * A message of the pipeline, for a terminal: the comment command it names becomes the CLI's command line, as the
 * CLI accepts it (`/converge approve` → `converge approve --number 7`; `plan` needs the issue file, `execute` and
 * `retry` an executor).
 */
export function inTerminalWords(message: string, n: number): string {
  const needs: Record<string, string> = {
    plan: ` --issue-file ${HINT_PLACEHOLDERS.issueFile}`, execute: ` --executor ${HINT_PLACEHOLDERS.agent}`, retry: ` --executor ${HINT_PLACEHOLDERS.agent}`,
  }
  return message.replace(/`\/converge (\w+)`/g, (_, command: string) => `\`converge ${command}${needs[command] ?? ''} --number ${n}\``)
}

/** The state branch of --repo, once --repo is known to be a git repository. */
export async function storeOf(args: IssueArgs): Promise<LocalGitStore> {
  await checkRepository(args.repo)
  return new LocalGitStore({ repoDir: resolve(args.repo), branch: args.stateBranch })
}

export function required(n: number | undefined, command: string): number {
  if (n === undefined) throw new UsageError(`${command} needs the issue: converge ${command} --number <n> [--repo DIR]`)
  return n
}
