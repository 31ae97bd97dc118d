import { tmpdir } from 'node:os'
import { resolve } from 'node:path'
import { credentialValues, executorEnvironment } from '../../exec/environment.js'
import { approvePlan } from '../../pipeline/approve.js'
import { WorkBranch } from '../../git/work-branch.js'
import { CONVERGE_IDENTITY } from '../../git/git.js'
import { executeIssue, verifyIssue, type RunPlanResult } from '../../pipeline/run-plan.js'
import { issueReport, unprovenLine } from '../terminal-report.js'
import { LocalGitStore } from '../../state/local-git-store.js'
import { printDocument, progressIo, refuse, taskEntries, type Output } from '../output.js'
import { progressLines } from '../progress.js'
import { UsageError } from '../usage-error.js'
import { checkRepository } from '../repository.js'

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

/**
 * `converge verify --number <n>`: runs the approved plan's verification commands against the working
 * tree of `--repo` and prints the report. Exit 0 when every task converged.
 */
export async function verifyCommand(
  args: IssueArgs & { maxParallel: number; timeoutMinutes: number; signal?: AbortSignal }, output: Output,
): Promise<number> {
  const n = required(args.number, 'verify')
  const progress = progressLines(progressIo(output))
  const result = await verifyIssue(await storeOf(args), n, {
    repoDir: resolve(args.repo),
    workRoot: resolve(tmpdir(), 'converge'),
    maxParallel: args.maxParallel,
    timeoutMs: args.timeoutMinutes * 60_000,
    secrets: [],
    now: () => new Date().toISOString(),
    ...progress,
    ...(args.signal ? { signal: args.signal } : {}),
  }).finally(() => progress.close())
  const code = printResult(n, result, output)
  const unproven = result.ok && !output.json ? unprovenLine(result.record) : undefined
  if (unproven) output.io.out(unproven)
  return code
}

export interface ExecuteArgs extends IssueArgs {
  executor: string
  maxParallel: number
  maxIterations: number
  maxRetries: number
  maxErrors: number
  onFailure: 'retry' | 'skip' | 'abort'
  timeoutMinutes: number
  retry?: string[] | 'failed'
  maxCostUsd?: number
  maxTurns?: number
  /** Uncommitted changes in --repo stay where they are, out of every task commit (else: refused). */
  allowDirty?: boolean
  /** `off`: no baseline before each task's executor (evidence `not-measured`). */
  evidence?: 'on' | 'off'
  signal?: AbortSignal
}

/**
 * `converge execute --number <n> --executor '<command>'`: the executor carries out each task of the approved
 * plan in --repo, its commands verify it, and each converged task is committed to the local branch
 * `converge/issue-<n>` (nothing is pushed). Exit 0 when every task converged.
 */
export async function executeCommand(args: ExecuteArgs, output: Output): Promise<number> {
  const n = required(args.number, 'execute')
  const repoDir = resolve(args.repo)
  let branch: WorkBranch | undefined
  // The executor is the user's agent CLI on the user's machine: it gets their environment (its API key), less what
  // GitHub's tokens are; values named like credentials are masked in everything recorded.
  const executorEnv = executorEnvironment(process.env)
  const progress = progressLines(progressIo(output))
  const result = await executeIssue(await storeOf(args), n, {
    repoDir,
    workRoot: resolve(tmpdir(), 'converge'),
    maxParallel: args.maxParallel,
    timeoutMs: args.timeoutMinutes * 60_000,
    secrets: credentialValues(executorEnv),
    now: () => new Date().toISOString(),
    executorCommand: args.executor,
    ...progress,
    maxIterations: args.maxIterations,
    maxRetries: args.maxRetries,
    maxErrors: args.maxErrors,
    onFailure: args.onFailure,
    executorEnv,
    evidence: { measure: args.evidence !== 'off' },
    ...(args.maxCostUsd !== undefined ? { maxCostUsd: args.maxCostUsd } : {}),
    ...(args.maxTurns !== undefined ? { maxTurns: args.maxTurns } : {}),
    ...(args.retry ? { retry: args.retry } : {}),
    ...(args.signal ? { signal: args.signal } : {}),
    beforeTasks: async () => {
      branch = await WorkBranch.prepare({ repoDir, branch: `converge/issue-${n}`, identity: CONVERGE_IDENTITY, uncommitted: args.allowDirty ? 'keep-out' : 'refuse' })
    },
    committer: { commitTask: (task, issue, others) => branch!.commitTask(task, issue, others), discardTask: (task, others) => branch!.discardTask(task, others) },
  }).finally(() => progress.close())
  // The user's branch is checked out again, as it was; the commits stay on the work branch.
  await branch?.leave()
  const code = printResult(n, result, output, branch?.name)
  if (result.ok && branch && !output.json) output.io.out(`\nCommits of converged tasks are on ${branch.name} in ${repoDir}.`)
  // The last line says what the run did not prove.
  const unproven = result.ok && !output.json ? unprovenLine(result.record) : undefined
  if (unproven) output.io.out(unproven)
  return code
}

function printResult(n: number, result: RunPlanResult, output: Output, branch?: string): number {
  if (!result.ok) return refuse(output, inTerminalWords(result.reason, n))
  if (output.json) printDocument(output.io, runDocument(n, result, branch))
  else output.io.out(['', ...issueReport(result.issue, result.plan, result.record, { colour: output.io.colour ?? false }).map((line) => inTerminalWords(line, n))].join('\n'))
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

/** A message of the pipeline, for a terminal: the comment command it names becomes the CLI's (`/converge approve` → `converge approve --number 7`). */
export function inTerminalWords(message: string, n: number): string {
  return message.replace(/`\/converge (\w+)`/g, (_, command: string) => `\`converge ${command} --number ${n}\``)
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
