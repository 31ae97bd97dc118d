/**
 * The agent planner (`planner: command`, SPEC §3): runs the workflow author's `planner-command` — any agent CLI —
 * with a prompt file, reads the solution JSON it writes, and validates it like any plan (JSON, schema, dependency
 * graph, quality gate). What is wrong goes back to the command for another attempt, up to `maxIterations`.
 *
 * Each attempt gets a directory of its own, `<workDir>/plan-ISS-<n>-XXXX/attempt-<k>/`, holding
 * - `prompt.md`   (`$CONVERGE_PLAN_PROMPT_FILE`, also `$CONVERGE_PROMPT_FILE`): the issue, the repository's file
 *   list and the files the issue names, the JSON Schema, where to write, and the feedback of the previous attempt;
 * - `feedback.md` (`$CONVERGE_PLAN_FEEDBACK_FILE`): why the previous attempt was not accepted (empty on the first);
 * - `solution.schema.json` (`$CONVERGE_PLAN_SCHEMA_FILE`): the JSON Schema alone;
 * - `plan.json`   (`$CONVERGE_PLAN_FILE`): where the command must write the solution.
 * `$CONVERGE_ISSUE` is the issue number and `$CONVERGE_ATTEMPT` the attempt. Issue and comment text reach the
 * command only through these files, never on its command line (the author's template is run untouched). The
 * environment is the scrubbed base environment of verification commands plus only the variables the workflow author
 * lists (`planner-env`: its API key); the command runs in the checkout, in a process group of its own that is killed
 * at the timeout; secrets are masked in its output and in the plan.
 *
 * The planner runs before any approval, on text anyone may have written, so it must not change the checkout: its
 * state is taken before each attempt and compared after (see checkout-guard.ts). A command that changed tracked
 * files, the index, HEAD or added untracked files has them put back, and planning stops with that as its error.
 *
 * An attempt is accepted when its plan has no error and a quality gate of `pass` or `review`. The first accepted
 * plan is the result; when none is, the last attempt's plan (or its error) is, for the caller to record as failed
 * (or, for a plan that only fails its gate, as a plan that cannot be approved).
 */
import { lstat, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { planFromAgentMessage, readAgentOutput } from '../agents/agent-output.js'
import { credentialFailure, credentialFailureText } from '../agents/credentials.js'
import { agentCommand } from '../agents/presets.js'
import { baseEnvironment } from '../processes/environment.js'
import { compareCheckout, restoreCheckout, restoreGitFiles, snapshotCheckout, type CheckoutChange, type CheckoutSnapshot } from '../git/checkout-guard.js'
import { runCommand, type CommandResult } from '../processes/run-command.js'
import { issueId, solutionId, type AgentReport, type Feedback, type PlanAttempt, type PlanAttemptOutcome } from '../model/index.js'
import { jsonSchemas } from '../model/json-schema.js'
import { analysePlan } from '../plan/analyse.js'
import { MAX_PLAN_BYTES, readPlanJson } from '../plan/read.js'
import { maskSecrets, maskStrings } from '../model/secrets.js'
import { attemptNote, feedbackMarkdown, howItEnded, recordedErrors, type Evaluation } from './command-feedback.js'
import { findExplicitPlan } from './explicit.js'
import { planPrompt } from './plan-prompt.js'
import { DEFAULT_CONTEXT_LIMITS, repositoryContext, type ContextLimits, type RepositoryContext } from './repo-context.js'
import type { IssueDocument, PlannerOutput } from './types.js'

export interface CommandPlannerOptions {
  /** The workflow author's shell template (`planner-command`). */
  command: string
  /** The checkout: the command's working directory, and where the file list and named files come from. */
  repoDir: string
  /** A directory for the attempts' files (a fresh directory is made inside); best outside `repoDir`. */
  workDir: string
  /** Attempts at most (≥ 1): `max-iterations`. */
  maxIterations: number
  /** Time limit of each run of the command: `task-timeout-minutes`. */
  timeoutMs: number
  /** Between SIGTERM and SIGKILL of the process group at the timeout; default 2 s. */
  killGraceMs?: number
  /** What the command gets on top of the base environment (the variables `planner-env` lists); `CONVERGE_*` win over it. */
  plannerEnv?: Record<string, string>
  /** The base environment; default {@link baseEnvironment} of this process's environment. */
  baseEnv?: Record<string, string>
  /** Masked in the command's output, the feedback, the notes and the plan itself. */
  secrets?: readonly string[]
  /** Cancels planning: the running command's process group is ended and `commandPlan` rejects. */
  signal?: AbortSignal
  /** The `/converge plan` comment that asked for the plan, shown to the planner. */
  comment?: string
  /** Earlier problems recorded on the issue, shown to the planner. */
  earlier?: readonly Feedback[]
  contextLimits?: ContextLimits
}

export interface CommandPlannerOutput extends PlannerOutput {
  planner: 'command'
  attempts: PlanAttempt[]
  /** Where the attempts' files are. */
  workDir: string
}

/** Thrown when planning is cancelled (the job is): nothing should be recorded. */
export class PlanningCancelled extends Error {
  constructor(attempt: number) {
    super(`planning was cancelled during attempt ${attempt} of the planner command`)
    this.name = 'PlanningCancelled'
  }
}

export async function commandPlan(issue: IssueDocument, options: CommandPlannerOptions): Promise<CommandPlannerOutput> {
  // A preset's name stands for its read-only template (src/agents/presets.ts).
  const command = agentCommand(options.command, 'planner').command
  if (!command) throw new RangeError('planner: command needs a planner-command')
  if (!(Number.isInteger(options.maxIterations) && options.maxIterations >= 1))
    throw new RangeError(`maxIterations must be a whole number of at least 1, got ${options.maxIterations}`)
  const secrets = options.secrets ?? []
  const maxAttempts = options.maxIterations

  await mkdir(options.workDir, { recursive: true })
  const workDir = await mkdtemp(join(options.workDir, `plan-ISS-${issue.number}-`))
  const context = await repositoryContext(options.repoDir, [issue.title, issue.body, options.comment ?? ''].join('\n'), options.contextLimits ?? DEFAULT_CONTEXT_LIMITS)
  const schema = `${JSON.stringify(jsonSchemas()['solution-input.schema.json'], null, 2)}\n`

  const attempts: PlanAttempt[] = []
  const notes: string[] = []
  let feedback: string | undefined
  let last: Evaluation | undefined
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const dir = join(workDir, `attempt-${attempt}`)
    await mkdir(dir)
    const files = {
      CONVERGE_PLAN_PROMPT_FILE: join(dir, 'prompt.md'),
      CONVERGE_PLAN_FEEDBACK_FILE: join(dir, 'feedback.md'),
      CONVERGE_PLAN_SCHEMA_FILE: join(dir, 'solution.schema.json'),
      CONVERGE_PLAN_FILE: join(dir, 'plan.json'),
      CONVERGE_AGENT_OUTPUT_FILE: join(dir, 'agent-output'),
    }
    const prompt = planPrompt({
      issue, context, schema, planFile: files.CONVERGE_PLAN_FILE, attempt, maxAttempts,
      ...(options.comment !== undefined ? { comment: options.comment } : {}),
      ...(feedback !== undefined ? { feedback } : {}),
      ...(options.earlier ? { earlier: options.earlier } : {}),
    })
    await writeFile(files.CONVERGE_PLAN_PROMPT_FILE, prompt)
    // Empty on the first attempt, so that a command can always read it.
    await writeFile(files.CONVERGE_PLAN_FEEDBACK_FILE, feedback ?? '')
    await writeFile(files.CONVERGE_PLAN_SCHEMA_FILE, schema)

    const at = new Date().toISOString()
    const before = await snapshotCheckout(options.repoDir)
    const result = await runCommand({
      command,
      cwd: options.repoDir,
      env: {
        ...(options.baseEnv ?? baseEnvironment(process.env)),
        ...options.plannerEnv,
        ...files,
        // The name action.yml's description of planner-command gives.
        CONVERGE_PROMPT_FILE: files.CONVERGE_PLAN_PROMPT_FILE,
        CONVERGE_ISSUE: String(issue.number),
        CONVERGE_ATTEMPT: String(attempt),
        CONVERGE_MAX_ATTEMPTS: String(maxAttempts),
      },
      timeoutMs: options.timeoutMs,
      secrets,
      ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    })
    const changed = before && (await checkoutChange(before))
    if (result.aborted) throw new PlanningCancelled(attempt)

    const agent = changed ? {} : await planFromAgent(files.CONVERGE_PLAN_FILE, files.CONVERGE_AGENT_OUTPUT_FILE, secrets)
    last = changed ? changedCheckout(changed) : await evaluate(files.CONVERGE_PLAN_FILE, issue, secrets, result, options.timeoutMs, agent.error)
    if (agent.note) notes.push(agent.note)
    const record: PlanAttempt = {
      attempt,
      at,
      outcome: last.outcome,
      exit_code: result.exitCode,
      timed_out: result.timedOut,
      duration_ms: result.durationMs,
      errors: recordedErrors(last).map((e) => maskSecrets(e, secrets)),
      // A plan with errors fails its gate whatever its quality: only a readable, consistent plan has a gate to tell.
      ...(last.analysis?.quality && !last.analysis.errors.length ? { gate: last.analysis.gate, quality_score: last.analysis.quality.quality_score } : {}),
    }
    attempts.push(record)
    notes.push(maskSecrets(attemptNote(record, maxAttempts, result), secrets))
    if (last.note) notes.push(maskSecrets(last.note, secrets))
    if (last.outcome === 'accepted' || last.outcome === 'changed_checkout') break
    // A refused key: another attempt would be refused the same way.
    const refused = credentialFailure({ exitCode: result.exitCode, agent: agent.report ?? null, outputTail: result.outputTail }, agentCommand(options.command, 'planner').preset)
    if (refused) {
      notes.push(maskSecrets(`planner command: ${credentialFailureText(refused)}; no other attempt`, secrets))
      break
    }
    feedback = maskSecrets(feedbackMarkdown(record, maxAttempts, last, result, files.CONVERGE_PLAN_FILE, options.timeoutMs), secrets)
    await writeFile(join(dir, 'feedback-for-next-attempt.md'), feedback)
  }

  const final = last!
  const tries = attempts.length === 1 ? '1 attempt' : `${attempts.length} attempts`
  const summary =
    final.outcome === 'accepted'
      ? `planner command: plan accepted on attempt ${attempts.length} of ${maxAttempts}`
      : final.outcome === 'gate_fail'
        ? `planner command: no plan passed the quality gate in ${tries}; the last plan is kept, and cannot be approved until it does`
        : final.outcome === 'changed_checkout'
          ? `planner command: stopped at attempt ${attempts.length}, which changed the checkout (put back as it was); a planner may only write $CONVERGE_PLAN_FILE`
          : `planner command: no usable plan in ${tries}; the errors of the last attempt are reported`
  return {
    planner: 'command',
    raw: final.raw,
    notes: [summary, contextNote(context), ...notes],
    attempts,
    workDir,
    ...(final.error ? { error: final.error } : {}),
  }
}

/**
 * A read-only agent cannot write the plan file: when there is none, its final message (in its machine-readable
 * output) is taken as the plan, and written there. Also says what error the agent reported, if any.
 */
async function planFromAgent(planFile: string, outputFile: string, secrets: readonly string[]): Promise<{ note?: string; error?: string; report?: AgentReport }> {
  const exists = await lstat(planFile).then(() => true, () => false)
  const output = await readFile(outputFile, 'utf8').catch(() => '')
  const report = readAgentOutput(maskSecrets(output, secrets))
  const error = report?.error ?? undefined
  // What a read-only planner tried and was refused is worth a look: the issue's text may have asked for it.
  const refused = report?.permission_denials.length ? `the agent was refused ${report.permission_denials.map((d) => `\`${d}\``).join(', ')}` : undefined
  const plan = exists || !report?.message ? undefined : planFromAgentMessage(report.message)
  if (plan) await writeFile(planFile, plan)
  const notes = [...(plan ? ["read the plan from the agent's final message (a read-only planner writes no file)"] : []), ...(refused ? [refused] : [])]
  return { ...(notes.length ? { note: notes.join('; ') } : {}), ...(error ? { error } : {}), ...(report ? { report } : {}) }
}

/** Reads and validates what the command wrote to the plan file. */
async function evaluate(
  path: string, issue: IssueDocument, secrets: readonly string[], run: CommandResult, timeoutMs: number, agentError?: string,
): Promise<Evaluation> {
  const noPlan = (what: string, run: CommandResult, timeoutMs: number) => missingPlan(agentError ? `${what}; the agent reported: ${agentError}` : what, run, timeoutMs)
  let text: string
  try {
    const stat = await lstat(path)
    if (!stat.isFile()) return noPlan(`$CONVERGE_PLAN_FILE is not a regular file`, run, timeoutMs)
    if (stat.size > MAX_PLAN_BYTES)
      return { outcome: 'invalid_json', error: { code: 'too_large', path: '(root)', message: `The plan file holds ${stat.size} bytes; the limit is ${MAX_PLAN_BYTES}`, hint: 'Write one solution JSON document, nothing else' } }
    text = await readFile(path, 'utf8')
  } catch {
    return noPlan('The planner command wrote no plan to $CONVERGE_PLAN_FILE', run, timeoutMs)
  }
  if (!text.trim()) return noPlan('The planner command left $CONVERGE_PLAN_FILE empty', run, timeoutMs)

  let json = readPlanJson(text)
  let note: string | undefined
  if (!json.ok) {
    // An agent that printed its answer to the file may have wrapped the JSON in a ```json fence, with prose around it.
    const block = findExplicitPlan(text)
    const inner = block.found ? readPlanJson(block.text) : undefined
    if (!inner?.ok) return { outcome: 'invalid_json', error: maskStrings(json.error, secrets) }
    json = inner
    note = `read the \`\`\`json block on line ${block.found ? block.line : 1} of the plan file, which held more than JSON`
  }
  const raw = maskStrings(withIds(json.value, issue.number), secrets)
  const analysis = analysePlan(raw)
  const outcome: PlanAttemptOutcome = !analysis.solution
    ? 'schema_errors'
    : analysis.errors.length
      ? 'dag_errors'
      : analysis.gate === 'fail'
        ? 'gate_fail'
        : 'accepted'
  return { outcome, raw, analysis, ...(note ? { note } : {}) }
}

/**
 * What the planner command changed in the checkout, put back: the repository's config and hooks first (before
 * any git command could run what was planted there), then HEAD, the index and the files.
 */
async function checkoutChange(before: CheckoutSnapshot): Promise<CheckoutChange | undefined> {
  const gitFiles = await restoreGitFiles(before)
  const after = await snapshotCheckout(before.top)
  const changed = after && (await compareCheckout(before, after))
  if (after && changed) await restoreCheckout(before, after)
  if (!gitFiles.length) return changed
  return { head: changed?.head ?? false, paths: [...gitFiles, ...(changed?.paths ?? [])] }
}

/** A planner that changed the checkout: whatever plan it wrote is not read. */
function changedCheckout(change: CheckoutChange): Evaluation {
  const shown = change.paths.slice(0, 10).join(', ') + (change.paths.length > 10 ? `, …and ${change.paths.length - 10} more` : '')
  const what = [change.head ? 'moved HEAD' : '', change.paths.length ? `changed ${shown}` : ''].filter(Boolean).join(' and ')
  return {
    outcome: 'changed_checkout',
    error: {
      code: 'changed_checkout',
      path: '(root)',
      message: `The planner command ${what} in the checkout; Converge put the checkout back as it was and did not read its plan`,
      hint: 'Run the planner read-only (Claude Code --permission-mode plan, Codex --sandbox read-only) and have it write only $CONVERGE_PLAN_FILE',
    },
  }
}

function missingPlan(what: string, run: CommandResult, timeoutMs: number): Evaluation {
  return {
    outcome: 'no_plan',
    error: {
      code: 'no_plan_file',
      path: '(root)',
      message: `${what} (${howItEnded(run, timeoutMs)})`,
      hint: 'Make planner-command write the solution JSON to the file named by $CONVERGE_PLAN_FILE',
    },
  }
}

/** Converge fills in the plan's ids: an agent cannot know the sequence number, and a wrong id is no reason to retry. */
function withIds(value: unknown, issueNumber: number): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  return { ...value, id: solutionId(issueNumber, 1), issue_id: issueId(issueNumber) }
}

function contextNote(context: RepositoryContext): string {
  if (context.problem) return `gave the planner no file list: ${context.problem}`
  const listed = context.files.length < context.totalFiles ? `${context.files.length} of ${context.totalFiles}` : String(context.totalFiles)
  const named = context.named.length ? `, and the text of ${context.named.map((f) => f.path).join(', ')}` : ''
  return `gave the planner the issue, the JSON Schema, the paths of ${listed} tracked files${named}`
}

