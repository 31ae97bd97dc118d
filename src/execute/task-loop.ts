/**
 * The develop → validate → debug loop of one task (`loop-state-schema.md`, SPEC §7): this file runs the attempts
 * and holds the rule below; each phase is a module of its own — `develop.ts` (the executor run; `debug` is the
 * same run fed `debug.ts`'s feedback), `evidence.ts` (the verification commands run and recorded),
 * `validate.ts` (the verdict) — and `loop-state.ts` keeps `loop.json` up to date.
 *
 * Each attempt writes `task.json`, `prompt.md` and `feedback.md` to `<workDir>/attempt-<n>/`, runs the workflow
 * author's `executor-command` in the repository with those paths in its environment, then runs the task's
 * verification commands. Plan and issue text only ever reach the executor through those files (SPEC §6): the
 * command line is the author's template, untouched.
 *
 * Convergence rule:
 * - A verification command (`verificationEntries(task)`, kind `command`) passes when it exits with 0 before the
 *   timeout; its verdict is the exit code (`verified_by: 'command'`).
 * - Every other check — each `convergence.criteria[]` item and each manual verification entry — passes or fails
 *   only by the executor's report in `$CONVERGE_RESULT_FILE` (`verified_by: 'agent'`, matched by text); one the
 *   report does not mention stays `pending` for a person (`verified_by: 'manual'`).
 * - A task with at least one command converges when every command passes; the agent's verdicts are recorded but do
 *   not decide. A task without commands converges only when the executor wrote a report that marks every
 *   `convergence.criteria[]` item as met; without an executor (`none`) such a task cannot converge. Manual
 *   verification entries never decide: they are recorded for a person (or as the report's verdict on them).
 * - The executor's own exit code does not decide either: it is recorded as a loop error, and verification judges.
 *
 * A task that does not converge is retried with the failures in `feedback.md` (and in the prompt), up to
 * `maxIterations` attempts; without an executor there is one attempt, since nothing could change.
 */
import { join } from 'node:path'
import { agentCommand } from '../agents/presets.js'
import { runStop } from '../agents/run-stop.js'
import type { ConvergenceCheck, ExecutorRun, LoopState, Task, TaskResult } from '../model/index.js'
import { verificationEntries } from '../model/verification.js'
import type { RunBudget } from './budget.js'
import { feedbackMarkdown } from './debug.js'
import { develop, type ExecutorLaunch } from './develop.js'
import { runChecks, type CheckLaunch } from './evidence.js'
import { executorFailureText, sameExecutorFailure } from './failure-text.js'
import { LoopTracker } from './loop-state.js'
import type { ExecutorReport } from './prompt.js'
import { taskEnvironment } from './task-environment.js'
import { treeFingerprint } from './tree-fingerprint.js'
import { judge, statementCheck, testsPassed } from './validate.js'

export type ControlDecision = 'continue' | 'pause' | 'stop'

/**
 * The part of a run's policy (`pipeline/run-request.ts`) a task's loop follows: a policy field the loop uses is
 * declared here, and reaches it from the host's mapping with no file between forwarding it.
 */
export interface LoopPolicy {
  /** The workflow author's shell template; `'none'` or empty: run no executor, only verify. */
  executorCommand: string
  /** Attempts at most (≥ 1). */
  maxIterations: number
  /** Timeout of each verification command. */
  timeoutMs: number
  /**
   * `max-turns`: given to the executor as `$CONVERGE_MAX_TURNS` (the presets pass it to agents that take a turn
   * limit), and enforced from the agent's report: a run that took more turns fails the task unverified.
   */
  maxTurns?: number | undefined
}

export interface TaskLoopOptions extends LoopPolicy {
  issue: { number: number; title: string }
  solutionId: string
  /** The checked-out work branch: the working directory of the executor and of every command. */
  repoDir: string
  /** Where the files of each attempt are written (`attempt-<n>/`); best outside `repoDir`. */
  workDir: string
  /** Timeout of the executor; default `timeoutMs`. */
  executorTimeoutMs?: number
  /** Masked in every recorded output. */
  secrets?: readonly string[]
  /** Cancels the run: the running command's process group is ended. */
  signal?: AbortSignal
  /** Extra environment for the executor and the commands (the `CONVERGE_*` variables win over it). */
  env?: Record<string, string>
  /** Extra environment for the executor alone (its API keys): the verification commands do not get it. */
  executorEnv?: Record<string, string>
  /** Asked before every action (executor run, each verification command). */
  checkControl: () => Promise<ControlDecision>
  /** Called with a copy of the loop state after every change, e.g. to write `loop.json`. */
  onLoop?: (loop: LoopState) => void | Promise<void>
  /** The issue's loop state so far, continued here; default: a new one. */
  loop?: LoopState
  /** The run's spending limit: charged after every executor run; no executor run starts once it is spent. */
  budget?: RunBudget
  /** Each non-empty line the executor prints while it runs, secrets masked. */
  onExecutorOutput?: (line: string) => void
  /**
   * Called around every executor run: `before` it, and `after` it and before its checks (where the caller takes
   * `.git/` back and records what the checks will run on: SPEC §7 "Evidence integrity").
   */
  guard?: ExecutorGuard
}

export interface ExecutorGuard {
  before(): Promise<void>
  after(): Promise<void>
}

export interface TaskOutcome {
  /** `paused` and `stopped`: the task was interrupted by a control signal and is not finished. */
  status: 'completed' | 'failed' | 'paused' | 'stopped'
  /** `files_modified` and `commit_hash` are left for the caller, who commits. */
  result: TaskResult
  loop: LoopState
  /** Set when no later round can help either (a refused key, a reached turn limit): `on-failure: retry` stops here. */
  final?: true
}

/**
 * Runs the loop for one task. The loop's own `status` is changed only by pause (`paused`) and stop (`failed`):
 * whether the issue's loop has completed is for the caller to say once every task has run. Rejects only when a
 * command cannot be started at all (`repoDir` missing).
 */
export async function convergeTask(task: Task, options: TaskLoopOptions): Promise<TaskOutcome> {
  if (!(options.maxIterations >= 1)) throw new RangeError(`maxIterations must be at least 1, got ${options.maxIterations}`)
  const started = new Date()
  const { command: executor, preset } = agentCommand(options.executorCommand, 'executor')
  const hasExecutor = executor !== '' && executor !== 'none'
  const maxAttempts = hasExecutor ? options.maxIterations : 1
  const tracker = new LoopTracker(task, options, hasExecutor ? 'executor' : 'none')
  const entries = verificationEntries(task)
  const commands = entries.flatMap((e) => (e.kind === 'command' ? [e.command!] : []))
  const manualSteps = entries.flatMap((e) => (e.kind === 'manual' ? [e.text] : []))

  let attempts = 0
  let checks: ConvergenceCheck[] = []
  const runs: ExecutorRun[] = []
  const outcome = (status: TaskOutcome['status'], error: string | null): TaskOutcome => ({
    status,
    result: {
      task_id: task.id,
      status: status === 'completed' ? 'completed' : 'failed',
      started_at: started.toISOString(),
      executed_at: new Date().toISOString(),
      duration_ms: Date.now() - started.getTime(),
      files_modified: [],
      commit_hash: null,
      tests_passed: testsPassed(checks),
      convergence_verified: checks,
      attempts,
      error,
      ...(hasExecutor ? { executor_runs: runs } : {}),
    },
    loop: tracker.snapshot(),
  })
  /** Throws {@link Halted} unless the control signal says continue. */
  const control = async (before: string) => {
    const decision = await options.checkControl()
    if (decision !== 'continue') throw new Halted(decision, `${decision === 'pause' ? 'Paused' : 'Stopped'} before ${before}`)
  }

  try {
    await tracker.start()
    let feedback: string | undefined
    let reason = ''
    let sameNothing = false
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let report: ExecutorReport | undefined
      if (hasExecutor) {
        await control(`the executor run of attempt ${attempt}`)
        const overBudget = options.budget?.exhausted()
        if (overBudget) throw new Halted('budget', `${overBudget}: attempt ${attempt} did not start`)
      }
      attempts = attempt
      await tracker.beginAttempt(!hasExecutor ? 'validate' : attempt === 1 ? 'develop' : 'debug', reason)
      let treeBefore: string | undefined
      if (hasExecutor) {
        await options.guard?.before()
        treeBefore = await treeFingerprint(options.repoDir)
        const developed = await develop(executorLaunch(options, executor, task, attempt), {
          task, issue: options.issue, solutionId: options.solutionId, dir: join(options.workDir, `attempt-${attempt}`), attempt, feedback,
        }, (message) => tracker.error('develop', message))
        await options.guard?.after()
        report = developed.report
        runs.push(developed.run)
        options.budget?.charge(developed.run, task.id)
        // A refused key or a reached turn limit: another attempt cannot help, and nothing is verified.
        const { exit_code: exitCode, agent, output_tail: outputTail } = developed.run
        const stop = runStop({ exitCode, agent, outputTail }, preset, options.maxTurns)
        if (stop) {
          await tracker.error('develop', `${task.id}: ${stop}`)
          await tracker.finish('failed')
          return { ...outcome('failed', `${stop}: the task ends, nothing was verified (attempt ${attempt})`), final: true }
        }
        await tracker.act('validate')
      }

      const commandChecks = await runChecks(commands, checkLaunch(options, task, attempt), (command) => control(`\`${command}\` (attempt ${attempt})`))
      const criteriaChecks = task.convergence.criteria.map((text) => statementCheck(text, report))
      checks = [...commandChecks, ...criteriaChecks, ...manualSteps.map((text) => statementCheck(text, report))]
      const verdict = judge(commandChecks, criteriaChecks, report)
      await tracker.validated(checks, verdict)
      if (verdict.converged) {
        await tracker.finish('completed')
        return outcome('completed', null)
      }
      // An executor that changed nothing and got the same failure as the attempt before would do so again.
      const unchanged = treeBefore !== undefined && attempt > 1 && verdict.reason === reason && (await treeFingerprint(options.repoDir)) === treeBefore
      reason = verdict.reason
      feedback = feedbackMarkdown(commandChecks, criteriaChecks, attempt)
      // Another attempt cannot help when the executor itself fails the same way again (no key, no model, no quota).
      if (sameExecutorFailure(runs.at(-2), runs.at(-1))) break
      if (unchanged && attempt < maxAttempts) {
        sameNothing = true
        break
      }
    }
    await tracker.finish('failed')
    const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`
    const executorFailure = runs.length ? executorFailureText(runs.at(-1)!) : undefined
    const repeated = attempts < maxAttempts && !sameNothing ? ` (stopped after ${tries}: the executor failed the same way each time)` : ''
    const unchanged = sameNothing ? ' (stopped: the last attempt changed nothing and failed the same way)' : ''
    const notConverged = `Not converged after ${tries}${unchanged}: ${reason}`
    return outcome('failed', executorFailure ? `${executorFailure}${repeated}. ${notConverged}` : notConverged)
  } catch (error) {
    if (!(error instanceof Halted)) throw error
    await tracker.halt(error.decision, error.message)
    return outcome(error.decision === 'pause' ? 'paused' : 'stopped', error.message)
  }
}

/** A pause or stop signal, or the spent budget, unwinding the loop from wherever it was asked. */
class Halted extends Error {
  constructor(
    readonly decision: 'pause' | 'stop' | 'budget',
    message: string,
  ) {
    super(message)
  }
}


/** The executor of one attempt: the author's command with the task's environment and the executor's own. */
function executorLaunch(options: TaskLoopOptions, command: string, task: Task, attempt: number): ExecutorLaunch {
  return {
    command,
    cwd: options.repoDir,
    env: {
      ...options.executorEnv, ...taskEnvironment(options.env, options.issue.number, task.id, attempt),
      ...(options.maxTurns ? { CONVERGE_MAX_TURNS: String(options.maxTurns) } : {}),
    },
    timeoutMs: options.executorTimeoutMs ?? options.timeoutMs,
    secrets: options.secrets ?? [],
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onExecutorOutput ? { onLine: options.onExecutorOutput } : {}),
  }
}

/** The verification commands of one attempt: the task's environment, without the executor's keys. */
function checkLaunch(options: TaskLoopOptions, task: Task, attempt: number): CheckLaunch {
  return {
    cwd: options.repoDir,
    env: taskEnvironment(options.env, options.issue.number, task.id, attempt),
    timeoutMs: options.timeoutMs,
    secrets: options.secrets ?? [],
    ...(options.signal ? { signal: options.signal } : {}),
  }
}
