/**
 * One task of a run, as `execute` and `execute-task` carry it out: its loop (`execute/task-loop.ts`) in rounds,
 * then its changes committed or put back. Records nothing: the caller does (`run-record.ts`).
 */
import { join } from 'node:path'
import { agentCommand } from '../agents/presets.js'
import type { EvidenceRun, FileStat, LoopState, Solution, Task, TaskResult } from '../model/index.js'
import { runBaseline, runsOfChecks, taskCommands, taskEvidence, type EvidenceSettings } from '../execute/baseline.js'
import type { CheckMemo } from '../execute/check-memo.js'
import type { RunBudget } from '../execute/budget.js'
import type { ControlSignal } from '../execute/schedule.js'
import { convergeTask, type LoopPolicy, type TaskOutcome } from '../execute/task-loop.js'
import { differentialRuns, type Differential } from '../execute/differential.js'
import { taskEnvironment } from '../execute/task-environment.js'
import type { Content } from '../git/task-change.js'
import type { Clock } from './run-context.js'
import { TaskProof, type ProofBranch } from './task-proof.js'

/** Commits a converged task's changes (the work branch); null when the task changed nothing. */
export interface TaskCommitter extends Partial<ProofBranch> {
  /** With `checked`: exactly those paths, and only with the content the task's checks ran on. */
  commitTask(task: Task, issue: number, othersRunning: readonly Task[], checked?: ReadonlyMap<string, Content>): Promise<{ commit: string; tree?: string; files: string[]; undeclared: string[]; stats?: FileStat[] } | null>
  /** Undoes what a task that did not converge changed in its declared files. */
  discardTask(task: Task, othersRunning: readonly Task[]): Promise<void>
}

/** The part of a run's policy one task follows: its loop's (`LoopPolicy`), and its rounds. */
export interface TaskPolicy extends LoopPolicy {
  onFailure: 'retry' | 'skip' | 'abort'
  /** With `onFailure: retry`: how many times a task that did not converge is run again, from the start. */
  maxRetries: number
}

/** What carrying out one task needs: its policy, its checkout and scratch space, its executor's environment and its commit. */
export interface TaskRunOptions {
  policy: TaskPolicy
  /** The checkout the tasks run in. */
  repoDir: string
  /** Scratch space for per-task files (the runner's temp directory). */
  workRoot: string
  /** Values masked in everything recorded. */
  secrets: string[]
  now: Clock
  /** Extra environment for the executor alone (its API keys). */
  executorEnv?: Record<string, string>
  /** Where converged tasks are committed; absent: changes stay in the working tree. */
  committer?: TaskCommitter
  /** Called with each non-empty line a task's executor prints while it runs, secrets masked (the CLI's status line). */
  onOutput?: (taskId: string, line: string) => void
  /** How evidence is measured; default: a baseline before each task's executor. */
  evidence?: EvidenceSettings
}


export type TaskRun =
  /** Cancelled mid-way (Ctrl-C, a cancelled job): no verdict. */
  | { kind: 'cancelled' }
  /** Paused or stopped at an action boundary: not finished, to run again on resume. */
  | { kind: 'interrupted'; status: 'paused' | 'stopped'; loop: LoopState }
  | { kind: 'finished'; result: TaskResult; loop: LoopState }

/**
 * One task, as `execute` and `execute-task` carry it out: rounds of the develop → validate → debug loop
 * (more than one with `on-failure: retry`), then a commit of its changes when it converged, or its declared
 * files put back when it did not. Records nothing: the caller does.
 */
export async function convergeAndCommit(
  task: Task,
  context: {
    n: number; issueTitle: string; plan: Solution; options: TaskRunOptions; signal: AbortSignal
    control: () => Promise<ControlSignal>
    /** The other tasks running right now, whose declared files this task's commit leaves alone. */
    othersRunning: () => Task[]
    /** The run's spending limit, shared by its tasks. */
    budget?: RunBudget
    /** The baseline an earlier run of this task recorded: kept, not run again. */
    earlierBaseline?: EvidenceRun[]
    /** The run's results known by checkout content, shared by its tasks (`execute/check-memo.ts`). */
    memo?: CheckMemo
  },
): Promise<TaskRun> {
  const { n, plan, options, signal } = context
  const { policy } = options
  const startedAt = options.now()
  const before = await baselineOf(task, context)
  if (signal.aborted) return { kind: 'cancelled' }
  const rounds = policy.onFailure === 'retry' ? 1 + policy.maxRetries : 1
  const proof = proofOf(task, context)
  let run: TaskOutcome | undefined
  let attempts = 0
  let roundsRun = 0
  for (let round = 1; round <= rounds; round++) {
    roundsRun = round
    run = await convergeTask(task, {
      // The loop reads the fields of `LoopPolicy`; whatever else the run's policy holds, it does not look at.
      ...policy,
      issue: { number: n, title: context.issueTitle },
      solutionId: plan.id,
      repoDir: options.repoDir,
      workDir: join(options.workRoot, `ISS-${n}`, task.id, `round-${round}`),
      secrets: options.secrets,
      signal,
      ...(options.executorEnv ? { executorEnv: options.executorEnv } : {}),
      ...(context.budget ? { budget: context.budget } : {}),
      ...(options.onOutput ? { onExecutorOutput: (line: string) => options.onOutput!(task.id, line) } : {}),
      ...(proof ? { guard: proof } : {}),
      checkControl: context.control,
    })
    attempts += run.result.attempts
    if (run.status !== 'failed' || run.final || signal.aborted || context.budget?.exhausted()) break
  }
  if (signal.aborted) return { kind: 'cancelled' }
  if (run!.status === 'paused' || run!.status === 'stopped') {
    // Started again from the beginning on resume: what it changed so far is put back, not left for another commit.
    await options.committer?.discardTask(task, context.othersRunning()).catch(() => undefined)
    return { kind: 'interrupted', status: run!.status, loop: run!.loop }
  }

  let result: TaskResult = { ...run!.result, attempts, started_at: startedAt, executed_at: options.now() }
  // With on-failure retry the last round's reason stands for all of them: every count it gives says how many
  // attempts there were in all, as `attempts` does.
  if (result.status === 'failed' && roundsRun > 1 && result.error) {
    const all = `${attempts} attempts in ${roundsRun} rounds`
    result = {
      ...result,
      error: result.error
        .replace(/\(stopped after [^:]*:/, `(stopped after ${all}:`)
        .replace(/Not converged after [^:]*:/, `Not converged after ${all} (on-failure: retry):`),
    }
  }
  const change = proof?.change()
  // The checks' results, for a later task's baseline on the same content (the tree this task's commit leaves).
  if (result.status === 'completed') await proof?.keepChecks(runsOfChecks(result.convergence_verified))
  let differential: Differential | undefined
  let tree: string | undefined
  if (result.status === 'completed' && options.committer) {
    try {
      // Before the commit, on trees of their own: the checkout stays exactly as the checks left it.
      if (change && before) {
        differential = await differentialRuns(change, {
          repoDir: options.repoDir, commands: taskCommands(task), env: taskEnvironment(undefined, n, task.id, 0),
          timeoutMs: policy.timeoutMs, secrets: options.secrets, signal, ...(context.memo ? { memo: context.memo } : {}),
        })
        if (signal.aborted) return { kind: 'cancelled' }
      }
      const commit = await options.committer.commitTask(task, n, context.othersRunning(), change?.files)
      tree = commit?.tree
      if (commit) result = { ...result, commit_hash: commit.commit, files_modified: commit.files, ...(commit.undeclared.length ? { undeclared_files: commit.undeclared } : {}), ...(commit.stats ? { file_stats: commit.stats } : {}) }
    } catch (error) {
      // A cancelled job signals the whole process group, git included: a commit or push it killed is no verdict
      // on the task (its changes stay put; the next run does it again).
      if (signal.aborted) return { kind: 'cancelled' }
      result = { ...result, status: 'failed', error: `Converged, but its changes could not be committed: ${(error as Error).message}` }
    }
  }
  if (result.status === 'failed' && options.committer) {
    try {
      await options.committer.discardTask(task, context.othersRunning())
    } catch (error) {
      result = { ...result, error: `${result.error ?? 'Failed'}; its changes could not be undone: ${(error as Error).message}` }
    }
  }
  // A failed task's changes are put back, not committed: whether it changed anything is not known, and it proves nothing.
  // Ignored files it wrote (a shim) are a change too, though no commit holds them.
  const changed = options.evidence?.changed ?? (options.committer && result.status === 'completed' ? result.files_modified.length > 0 || (change?.ignored.length ?? 0) > 0 : true)
  result = { ...result, evidence: taskEvidence(task, before, result.convergence_verified, changed, { ...differential, ...(tree ? { tree } : {}) }) }
  return { kind: 'finished', result, loop: run!.loop }
}

/** The proof of a task whose executor runs on a work branch (`task-proof.ts`); undefined otherwise. */
function proofOf(task: Task, context: { options: TaskRunOptions; othersRunning: () => Task[]; memo?: CheckMemo }): TaskProof | undefined {
  const { committer, policy, repoDir } = context.options
  const executor = agentCommand(policy.executorCommand, 'executor').command
  if (!committer?.settle || !committer.taskPaths || !committer.head || executor === '' || executor === 'none') return undefined
  return new TaskProof(repoDir, committer as ProofBranch, task, context.othersRunning, context.memo)
}

/**
 * The task's baseline (SPEC §7): one that was measured already (an earlier run's, a pull request's base), else its
 * commands run now, on the tree its executor is about to change; undefined when not measured (`evidence: off`, or
 * `verify` with no base). Without an executor nothing changes the tree: there is nothing to measure before.
 */
async function baselineOf(
  task: Task, context: { n: number; options: TaskRunOptions; signal: AbortSignal; earlierBaseline?: EvidenceRun[]; memo?: CheckMemo },
): Promise<EvidenceRun[] | undefined> {
  const { options } = context
  const given = options.evidence?.baselines?.get(task.id) ?? (context.earlierBaseline?.length ? context.earlierBaseline : undefined)
  if (given) return given
  const executor = agentCommand(options.policy.executorCommand, 'executor').command
  if (options.evidence?.measure === false || executor === '' || executor === 'none') return undefined
  const launch = { repoDir: options.repoDir, timeoutMs: options.policy.timeoutMs, secrets: options.secrets, issue: context.n, signal: context.signal }
  return runBaseline(task, launch, context.memo ? { memo: context.memo, key: await context.memo.key() } : undefined)
}


/** The baseline an earlier result of the task recorded, for a rerun to keep (SPEC §7: it is not run again). */
export function earlierBaseline(result: TaskResult | undefined): { earlierBaseline?: EvidenceRun[] } {
  const before = result?.evidence?.before
  return before?.length ? { earlierBaseline: before } : {}
}
