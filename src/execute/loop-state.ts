/**
 * The issue's loop state (`loop.json`, `loop-state-schema.md`) as one task's loop changes it: which action is
 * under way, the develop entry of the task, the debug iteration, the last validation and the errors.
 */
import { passRate } from '../processes/test-counts.js'
import type { ConvergenceCheck, DevelopTask, LoopState, SkillState, Task, TestResult } from '../model/index.js'
import { describeFailure } from './failure-text.js'
import type { Verdict } from './validate.js'

/** What the tracker needs of the loop's settings: the issue, the plan, and where each change goes. */
export interface LoopTrackerSettings {
  issue: { number: number; title: string }
  solutionId: string
  maxIterations: number
  /** The issue's loop state so far, continued here; default: a new one. */
  loop?: LoopState
  /** Called with a copy of the loop state after every change. */
  onLoop?: (loop: LoopState) => void | Promise<void>
}

/** The issue's LoopState, as this task changes it (`loop-state-schema.md` transitions). */
export class LoopTracker {
  private readonly state: LoopState

  constructor(
    private readonly task: Task,
    private readonly options: LoopTrackerSettings,
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
