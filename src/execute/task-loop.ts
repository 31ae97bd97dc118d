/**
 * The develop → validate → debug loop of one task (`loop-state-schema.md`, SPEC §7).
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
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readAgentOutput } from '../agents/agent-output.js'
import { agentCommand } from '../agents/presets.js'
import { runStop } from '../agents/run-stop.js'
import { baseEnvironment } from '../exec/environment.js'
import { runCommand, type CommandResult } from '../exec/run-command.js'
import { parseTestCounts, passRate } from '../exec/test-counts.js'
import type { AgentReport, ConvergenceCheck, DevelopTask, ExecutorRun, LoopState, SkillState, Task, TaskResult, TestResult } from '../model/index.js'
import { verificationEntries } from '../plan/verification.js'
import { stripAnsi } from '../report/annotations.js'
import { maskSecrets } from '../report/secrets.js'
import type { RunBudget } from './budget.js'
import { ExecutorReportSchema, taskPrompt, type ExecutorReport } from './prompt.js'

export type ControlDecision = 'continue' | 'pause' | 'stop'

export interface TaskLoopOptions {
  issue: { number: number; title: string }
  solutionId: string
  /** The checked-out work branch: the working directory of the executor and of every command. */
  repoDir: string
  /** Where the files of each attempt are written (`attempt-<n>/`); best outside `repoDir`. */
  workDir: string
  /** The workflow author's shell template; `'none'` or empty: run no executor, only verify. */
  executorCommand: string
  /** Attempts at most (≥ 1). */
  maxIterations: number
  /** Timeout of each verification command. */
  timeoutMs: number
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
  /**
   * `max-turns`: given to the executor as `$CONVERGE_MAX_TURNS` (the presets pass it to agents that take a turn
   * limit), and enforced from the agent's report: a run that took more turns fails the task unverified.
   */
  maxTurns?: number
  /** Each non-empty line the executor prints while it runs, secrets masked. */
  onExecutorOutput?: (line: string) => void
}

export interface TaskOutcome {
  /** `paused` and `stopped`: the task was interrupted by a control signal and is not finished. */
  status: 'completed' | 'failed' | 'paused' | 'stopped'
  /** `files_modified` and `commit_hash` are left for the caller, who commits. */
  result: TaskResult
  loop: LoopState
}

/**
 * Runs the loop for one task. The loop's own `status` is changed only by pause (`paused`) and stop (`failed`):
 * whether the issue's loop has completed is for the caller to say once every task has run. Rejects only when a
 * command cannot be started at all (`repoDir` missing).
 */
export async function convergeTask(task: Task, options: TaskLoopOptions): Promise<TaskOutcome> {
  if (!(options.maxIterations >= 1)) throw new RangeError(`maxIterations must be at least 1, got ${options.maxIterations}`)
  const started = new Date()
  const executor = agentCommand(options.executorCommand, 'executor').command
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
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let report: ExecutorReport | undefined
      if (hasExecutor) {
        await control(`the executor run of attempt ${attempt}`)
        const overBudget = options.budget?.exhausted()
        if (overBudget) throw new Halted('budget', `${overBudget}: attempt ${attempt} did not start`)
      }
      attempts = attempt
      await tracker.beginAttempt(!hasExecutor ? 'validate' : attempt === 1 ? 'develop' : 'debug', reason)
      if (hasExecutor) {
        const developed = await develop(task, options, executor, attempt, feedback, tracker)
        report = developed.report
        runs.push(developed.run)
        options.budget?.charge(developed.run, task.id)
        // A refused key or a reached turn limit: another attempt cannot help, and nothing is verified.
        const { run } = developed
        const stop = runStop({ exitCode: run.exit_code, agent: run.agent, outputTail: run.output_tail }, agentCommand(options.executorCommand, 'executor').preset, options.maxTurns)
        if (stop) {
          await tracker.error('develop', `${task.id}: ${stop}`)
          await tracker.finish('failed')
          return outcome('failed', `${stop}: the task ends, nothing was verified (attempt ${attempt})`)
        }
        await tracker.act('validate')
      }

      const commandChecks: ConvergenceCheck[] = []
      for (const command of commands) {
        await control(`\`${command}\` (attempt ${attempt})`)
        commandChecks.push(commandCheck(command, await verify(command, options, task, attempt)))
      }
      const criteriaChecks = task.convergence.criteria.map((text) => statementCheck(text, report))
      checks = [...commandChecks, ...criteriaChecks, ...manualSteps.map((text) => statementCheck(text, report))]
      const verdict = judge(commandChecks, criteriaChecks, report)
      await tracker.validated(checks, verdict)
      if (verdict.converged) {
        await tracker.finish('completed')
        return outcome('completed', null)
      }
      reason = verdict.reason
      feedback = feedbackMarkdown(commandChecks, criteriaChecks, attempt)
      // Another attempt cannot help when the executor itself fails the same way again (no key, no model, no quota).
      if (sameExecutorFailure(runs.at(-2), runs.at(-1))) break
    }
    await tracker.finish('failed')
    const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`
    const executorFailure = runs.length ? executorFailureText(runs.at(-1)!) : undefined
    const repeated = attempts < maxAttempts ? ` (stopped after ${tries}: the executor failed the same way each time)` : ''
    const notConverged = `Not converged after ${tries}: ${reason}`
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

/**
 * Writes the attempt's files, runs the executor, and reads its report (undefined when there is none) and what the
 * agent said about the run (its machine-readable output, when it wrote one).
 */
async function develop(
  task: Task, options: TaskLoopOptions, executor: string, attempt: number, feedback: string | undefined, tracker: LoopTracker,
): Promise<{ report: ExecutorReport | undefined; run: ExecutorRun }> {
  const dir = join(options.workDir, `attempt-${attempt}`)
  await mkdir(dir, { recursive: true })
  const files = {
    CONVERGE_TASK_FILE: join(dir, 'task.json'),
    CONVERGE_PROMPT_FILE: join(dir, 'prompt.md'),
    CONVERGE_FEEDBACK_FILE: join(dir, 'feedback.md'),
    CONVERGE_RESULT_FILE: join(dir, 'result.json'),
    CONVERGE_AGENT_OUTPUT_FILE: join(dir, 'agent-output'),
  }
  const prompt = taskPrompt(task, { issue: options.issue, solutionId: options.solutionId, feedback })
  await writeFile(files.CONVERGE_TASK_FILE, `${JSON.stringify(task, null, 2)}\n`)
  await writeFile(files.CONVERGE_PROMPT_FILE, prompt)
  // Empty on the first attempt, so an executor can always read it.
  await writeFile(files.CONVERGE_FEEDBACK_FILE, feedback ?? '')

  const result = await runCommand({
    command: executor,
    cwd: options.repoDir,
    env: {
      ...options.executorEnv, ...commandEnvironment(options, task, attempt), ...files,
      ...(options.maxTurns ? { CONVERGE_MAX_TURNS: String(options.maxTurns) } : {}),
    },
    timeoutMs: options.executorTimeoutMs ?? options.timeoutMs,
    secrets: options.secrets,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onExecutorOutput ? { onLine: options.onExecutorOutput } : {}),
  })
  const agent = await readAgentReport(files.CONVERGE_AGENT_OUTPUT_FILE, options.secrets ?? [])
  const run: ExecutorRun = {
    attempt,
    exit_code: result.exitCode,
    signal: result.signal,
    timed_out: result.timedOut,
    duration_ms: result.durationMs,
    output_tail: result.outputTail,
    agent: agent ?? null,
  }
  const failed = executorFailureText(run)
  if (failed) await tracker.error('develop', `${task.id}: ${failed}`)
  else if (agent?.error) await tracker.error('develop', `${task.id}: the agent reported: ${agent.error}`)
  return { report: await readReport(files.CONVERGE_RESULT_FILE, task, tracker), run }
}

async function readAgentReport(path: string, secrets: readonly string[]): Promise<AgentReport | undefined> {
  const text = await readFile(path, 'utf8').catch(() => '')
  const report = readAgentOutput(maskSecrets(text, secrets))
  return report
}

/**
 * "the executor exited with code 1: Invalid API key", when the executor failed: its exit code or timeout, and the agent's own
 * error (else its message, else the last line of its output). Undefined when it exited 0.
 */
export function executorFailureText(run: ExecutorRun): string | undefined {
  if (!run.timed_out && run.exit_code === 0) return undefined
  const how = run.timed_out
    ? `timed out after ${seconds(run.duration_ms)} s`
    : run.exit_code === null ? `was killed by ${run.signal ?? 'a signal'}` : `exited with code ${run.exit_code}`
  const said = run.agent?.error ?? run.agent?.message ?? lastLine(run.output_tail)
  return `the executor ${how}${said ? `: ${firstLine(said)}` : ''}`
}

/** Two failed executor runs in a row that failed the same way. */
function sameExecutorFailure(previous: ExecutorRun | undefined, last: ExecutorRun | undefined): boolean {
  if (!previous || !last) return false
  const failure = (run: ExecutorRun) => executorFailureText({ ...run, duration_ms: 0 })
  return failure(last) !== undefined && failure(previous) === failure(last)
}

const firstLine = (text: string) => {
  const line = stripAnsi(text).trim().split('\n')[0]!.trim()
  return line.length > 200 ? `${line.slice(0, 199)}…` : line
}
const lastLine = (text: string) => stripAnsi(text).trim().split('\n').map((l) => l.trim()).filter(Boolean).at(-1)

async function readReport(path: string, task: Task, tracker: LoopTracker): Promise<ExecutorReport | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    return undefined // writing a report is optional
  }
  try {
    return ExecutorReportSchema.parse(JSON.parse(text))
  } catch (error) {
    await tracker.error('develop', `${task.id}: ignored the executor's report: ${(error as Error).message.split('\n')[0]}`)
    return undefined
  }
}

function verify(command: string, options: TaskLoopOptions, task: Task, attempt: number): Promise<CommandResult> {
  return runCommand({
    command,
    cwd: options.repoDir,
    env: commandEnvironment(options, task, attempt),
    timeoutMs: options.timeoutMs,
    secrets: options.secrets,
    ...(options.signal ? { signal: options.signal } : {}),
  })
}

function commandEnvironment(options: TaskLoopOptions, task: Task, attempt: number): Record<string, string> {
  return {
    ...baseEnvironment(process.env),
    ...options.env,
    CONVERGE_ISSUE: String(options.issue.number),
    CONVERGE_TASK_ID: task.id,
    CONVERGE_ATTEMPT: String(attempt),
  }
}

function commandCheck(command: string, result: CommandResult): ConvergenceCheck {
  const counts = parseTestCounts(result.outputTail)
  return {
    kind: 'command',
    text: command,
    verdict: result.exitCode === 0 && !result.timedOut ? 'pass' : 'fail',
    verified_by: 'command',
    exit_code: result.exitCode,
    duration_ms: result.durationMs,
    timed_out: result.timedOut,
    output_tail: result.outputTail,
    ...(counts ? { tests_passed: counts.passed, tests_failed: counts.failed } : {}),
  }
}

/** A criterion or manual entry: the report's verdict when it names it (evidence kept as the output), else pending. */
function statementCheck(text: string, report: ExecutorReport | undefined): ConvergenceCheck {
  const reported = report?.criteria.find((c) => sameText(c.text, text))
  if (!reported) return { kind: 'criterion', text, verdict: 'pending', verified_by: 'manual' }
  return {
    kind: 'criterion',
    text,
    verdict: reported.met ? 'pass' : 'fail',
    verified_by: 'agent',
    ...(reported.evidence ? { output_tail: reported.evidence } : {}),
  }
}

const sameText = (a: string, b: string) => normalise(a) === normalise(b)
const normalise = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase()

interface Verdict {
  converged: boolean
  /** Why not, in one line, when not converged. */
  reason: string
}

/** The convergence rule of this file's header. Manual verification steps never decide: they are for a person. */
function judge(commands: ConvergenceCheck[], criteria: ConvergenceCheck[], report: ExecutorReport | undefined): Verdict {
  if (commands.length > 0) {
    const failed = commands.filter((c) => c.verdict !== 'pass')
    return { converged: failed.length === 0, reason: failed.map(describeFailure).join('; ') }
  }
  if (!report) return { converged: false, reason: 'no verification command to run and no executor report' }
  const unmet = criteria.filter((c) => c.verdict !== 'pass')
  return {
    converged: unmet.length === 0,
    reason: unmet.map((c) => `"${c.text}" ${c.verdict === 'fail' ? 'not met' : 'not reported'}`).join('; '),
  }
}

/** `tests_passed` of the result: whether every command passed; null when there was none. */
function testsPassed(checks: ConvergenceCheck[]): boolean | null {
  const commands = checks.filter((c) => c.kind === 'command')
  return commands.length === 0 ? null : commands.every((c) => c.verdict === 'pass')
}

function failure(result: Pick<CommandResult, 'exitCode' | 'timedOut' | 'durationMs'>): string {
  if (result.timedOut) return `timed out after ${seconds(result.durationMs)} s`
  return result.exitCode === null ? 'was killed by a signal' : `exited with code ${result.exitCode}`
}

/** One decimal under 10 s, where it matters. */
const seconds = (ms: number) => (ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000)))

/** "`npm test` exited with code 1". */
function failureHeadline(check: ConvergenceCheck): string {
  const result = { exitCode: check.exit_code ?? null, timedOut: check.timed_out ?? false, durationMs: check.duration_ms ?? 0 }
  return `\`${check.text}\` ${failure(result)}`
}

/** The headline and the output line that says most about it. */
function describeFailure(check: ConvergenceCheck): string {
  const line = keyLine(check.output_tail ?? '')
  return line ? `${failureHeadline(check)} (${line})` : failureHeadline(check)
}

// The output lines that matter to whoever fixes a failure: error-looking lines, and the end of the output.
const SIGNIFICANT = /error|fail|✗|×|assert|expected|exception|panic|traceback|not ok/i
/** Says what went wrong, unlike a summary such as `1 failed`: preferred as the one line a reason quotes. */
const EXPLAINING = /error|assert|expected|exception|panic|traceback/i
const TAIL_LINES = 30
const SIGNIFICANT_LINES = 20
const MAX_KEY_LINE = 200

function outputLines(output: string): string[] {
  return stripAnsi(output).trimEnd().split(/\r\n|\r|\n/)
}

/** The last explaining line, else the last error-looking one, else the last line: what a one-line reason quotes. */
function keyLine(output: string): string {
  const lines = outputLines(output).map((l) => l.trim()).filter(Boolean)
  const line = lines.findLast((l) => EXPLAINING.test(l)) ?? lines.findLast((l) => SIGNIFICANT.test(l)) ?? lines.at(-1) ?? ''
  return line.length > MAX_KEY_LINE ? `${line.slice(0, MAX_KEY_LINE)}…` : line
}

/** The end of the output, preceded by the error-looking lines from before it. */
function relevantOutput(output: string): string {
  const lines = outputLines(output)
  if (lines.length <= TAIL_LINES + SIGNIFICANT_LINES) return lines.join('\n')
  const earlier = lines.slice(0, -TAIL_LINES).filter((l) => SIGNIFICANT.test(l)).slice(-SIGNIFICANT_LINES)
  return [...earlier, `… (${lines.length - TAIL_LINES - earlier.length} lines left out)`, ...lines.slice(-TAIL_LINES)].join('\n')
}

/** A fence longer than any backtick run in the text, so output cannot close it. */
function fenced(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return `${fence}text\n${text}\n${fence}`
}

/** `feedback.md`: what kept an attempt from converging, for the next one. */
function feedbackMarkdown(commands: ConvergenceCheck[], criteria: ConvergenceCheck[], attempt: number): string {
  const parts = [`# Failures of attempt ${attempt}`]
  for (const check of commands.filter((c) => c.verdict === 'fail')) {
    parts.push(`## ${failureHeadline(check)}`)
    if (check.output_tail?.trim()) parts.push(fenced(relevantOutput(check.output_tail)))
  }
  // Unreported criteria matter only where they decide: when there is no command.
  const unmet = criteria.filter((c) => c.verdict === 'fail' || (commands.length === 0 && c.verdict === 'pending'))
  if (unmet.length > 0) {
    const explain = (c: ConvergenceCheck) =>
      c.verdict === 'pending' ? ' (not in your report)' : c.output_tail ? ` — ${c.output_tail}` : ''
    parts.push('## Criteria not met', unmet.map((c) => `- ${c.text}${explain(c)}`).join('\n'))
  }
  return `${parts.join('\n\n')}\n`
}

/** The issue's LoopState, as this task changes it (`loop-state-schema.md` transitions). */
class LoopTracker {
  private readonly state: LoopState

  constructor(
    private readonly task: Task,
    private readonly options: TaskLoopOptions,
    private readonly tool: string,
  ) {
    const now = new Date().toISOString()
    this.state = options.loop
      ? structuredClone(options.loop)
      : {
          loop_id: `loop-ISS-${options.issue.number}`,
          title: options.issue.title,
          description: `Execution of ${options.solutionId}`,
          max_iterations: options.maxIterations,
          status: 'created',
          current_iteration: 0,
          created_at: now,
          updated_at: now,
        }
  }

  snapshot(): LoopState {
    return structuredClone(this.state)
  }

  private get skill(): SkillState {
    return (this.state.skill_state ??= emptySkillState())
  }

  private async emit(): Promise<void> {
    this.state.updated_at = new Date().toISOString()
    await this.options.onLoop?.(this.snapshot())
  }

  private developTask() {
    return this.skill.develop.tasks.find((t) => t.id === this.task.id)!
  }

  async start(): Promise<void> {
    const now = new Date().toISOString()
    const { develop } = this.skill
    const existing = develop.tasks.find((t) => t.id === this.task.id)
    const entry: DevelopTask = {
      id: this.task.id,
      description: this.task.title,
      status: 'in_progress',
      tool: this.tool,
      mode: 'write',
      files_changed: [],
      created_at: now,
      completed_at: null,
    }
    if (existing) Object.assign(existing, entry)
    else develop.tasks.push(entry)
    develop.total = develop.tasks.length
    develop.current_task = this.task.id
    this.state.status = 'running'
    await this.emit()
  }

  /** A new iteration: `develop` (first executor run), `debug` (a run fed the failures) or `validate` (no executor). */
  async beginAttempt(action: 'develop' | 'debug' | 'validate', previousFailure: string): Promise<void> {
    this.state.current_iteration++
    if (action === 'debug') {
      const { debug } = this.skill
      debug.active_bug = `${this.task.id}: ${previousFailure}`
      debug.iteration++
      debug.last_analysis_at = new Date().toISOString()
    }
    if (action !== 'validate') this.skill.develop.last_progress_at = new Date().toISOString()
    await this.act(action)
  }

  async act(action: 'develop' | 'debug' | 'validate'): Promise<void> {
    this.moveTo(action)
    await this.emit()
  }

  /** The action under way becomes the last completed one. */
  private moveTo(action: SkillState['current_action']): void {
    const skill = this.skill
    const previous = skill.current_action
    if (previous === 'develop' || previous === 'debug' || previous === 'validate') {
      skill.last_action = previous
      skill.completed_actions.push(previous)
    }
    skill.current_action = action
  }

  async validated(checks: ConvergenceCheck[], verdict: Verdict): Promise<void> {
    const commands = checks.filter((c) => c.kind === 'command')
    this.skill.validate = {
      ...this.skill.validate,
      pass_rate: validationPassRate(checks),
      test_results: commands.map((c) => testResult(this.task.id, c)),
      passed: verdict.converged,
      failed_tests: commands.filter((c) => c.verdict === 'fail').map((c) => c.text),
      last_run_at: new Date().toISOString(),
    }
    if (!verdict.converged) this.pushError('validate', `${this.task.id}: ${verdict.reason}`)
    await this.emit()
  }

  async finish(status: 'completed' | 'failed'): Promise<void> {
    const { develop, debug } = this.skill
    Object.assign(this.developTask(), { status, completed_at: new Date().toISOString() })
    develop.completed = develop.tasks.filter((t) => t.status === 'completed').length
    develop.current_task = null
    if (status === 'completed') debug.active_bug = null
    this.moveTo(status === 'completed' ? 'complete' : null)
    await this.emit()
  }

  /**
   * Pause keeps the task pending, to run again on resume; stop fails the loop (the seed's control signals). A spent
   * budget fails the loop too, and keeps the task pending: a run with a larger budget takes it up again.
   */
  async halt(decision: 'pause' | 'stop' | 'budget', message: string): Promise<void> {
    this.developTask().status = decision === 'stop' ? 'failed' : 'pending'
    if (decision === 'pause') {
      this.state.status = 'paused'
      // The interrupted action is not completed: it runs again on resume.
      this.skill.last_action = this.skill.current_action
      this.skill.current_action = 'paused'
    } else {
      this.state.status = 'failed'
      this.state.failure_reason = `${this.task.id}: ${message}`
    }
    await this.emit()
  }

  async error(action: string, message: string): Promise<void> {
    this.pushError(action, message)
    await this.emit()
  }

  private pushError(action: string, message: string): void {
    this.skill.errors.push({ action, message, timestamp: new Date().toISOString() })
  }
}

function emptySkillState(): SkillState {
  return {
    current_action: 'init',
    last_action: null,
    completed_actions: [],
    mode: 'auto',
    develop: { total: 0, completed: 0, current_task: null, tasks: [], last_progress_at: null },
    debug: {
      active_bug: null, hypotheses_count: 0, hypotheses: [], confirmed_hypothesis: null, iteration: 0, last_analysis_at: null,
    },
    validate: { pass_rate: 0, coverage: 0, test_results: [], passed: false, failed_tests: [], last_run_at: null },
    errors: [],
  }
}

/**
 * Passed tests in percent when the commands printed test counts; otherwise passed commands, or — for a task
 * without commands — passed criteria.
 */
function validationPassRate(checks: ConvergenceCheck[]): number {
  const commands = checks.filter((c) => c.kind === 'command')
  const counted = commands.filter((c) => c.tests_passed !== undefined)
  if (counted.length > 0)
    return passRate({
      passed: counted.reduce((sum, c) => sum + (c.tests_passed ?? 0), 0),
      failed: counted.reduce((sum, c) => sum + (c.tests_failed ?? 0), 0),
      framework: 'all',
    })
  const judged = commands.length > 0 ? commands : checks
  if (judged.length === 0) return 0
  const passed = judged.filter((c) => c.verdict === 'pass').length
  return passRate({ passed, failed: judged.length - passed, framework: 'checks' })
}

function testResult(suite: string, check: ConvergenceCheck): TestResult {
  const passed = check.verdict === 'pass'
  return {
    test_name: check.text,
    suite,
    status: passed ? 'passed' : 'failed',
    duration_ms: check.duration_ms ?? 0,
    error_message: passed ? null : describeFailure(check),
    stack_trace: null,
  }
}
