import { tmpdir } from 'node:os'
import { resolve } from 'node:path'
import { approvePlan } from '../../pipeline/approve.js'
import { verifyIssue } from '../../pipeline/verify.js'
import { renderJobSummary } from '../../report/job-summary.js'
import { LocalGitStore } from '../../state/local-git-store.js'
import type { CliIo } from '../io.js'
import { UsageError } from '../usage-error.js'

export interface IssueArgs {
  number?: number
  repo: string
  stateBranch: string
}

/** `converge approve --number <n>`: approves the stored plan of an issue, bound to its content hash. */
export async function approveCommand(args: IssueArgs & { by: string }, io: CliIo): Promise<number> {
  const n = required(args.number, 'approve')
  const result = await approvePlan(storeOf(args), n, args.by, new Date().toISOString())
  if (!result.ok) {
    io.err(result.reason)
    return 1
  }
  io.out(result.alreadyApproved ? `${result.solution.id} was already approved (${result.planHash})` : `Approved ${result.solution.id} (${result.planHash})`)
  return 0
}

/**
 * `converge verify --number <n>`: runs the approved plan's verification commands against the working
 * tree of `--repo` and prints the report. Exit 0 when every task converged.
 */
export async function verifyCommand(
  args: IssueArgs & { maxParallel: number; timeoutMinutes: number; signal?: AbortSignal }, io: CliIo,
): Promise<number> {
  const n = required(args.number, 'verify')
  const result = await verifyIssue(storeOf(args), n, {
    repoDir: resolve(args.repo),
    workRoot: resolve(tmpdir(), 'converge'),
    maxParallel: args.maxParallel,
    timeoutMs: args.timeoutMinutes * 60_000,
    secrets: [],
    now: () => new Date().toISOString(),
    ...(args.signal ? { signal: args.signal } : {}),
  })
  if (!result.ok) {
    io.err(result.reason)
    return 1
  }
  io.out(renderJobSummary({
    issue: { number: n, title: result.issue.title },
    status: result.issue.status,
    solution: result.plan,
    execution: result.record,
    commandPrefix: 'converge',
    links: {},
  }))
  return result.record.status === 'completed' ? 0 : 1
}

function storeOf(args: IssueArgs): LocalGitStore {
  return new LocalGitStore({ repoDir: resolve(args.repo), branch: args.stateBranch })
}

function required(n: number | undefined, command: string): number {
  if (n === undefined) throw new UsageError(`${command} needs the issue: converge ${command} --number <n> [--repo DIR]`)
  return n
}
