/**
 * The develop phase (and the debug phase, which is the same run fed the failures): writes the attempt's files,
 * runs the executor with their paths in its environment, and reads back its report and what the agent said.
 * Plan and issue text reach the executor only through those files (SPEC §6): its command line is the workflow
 * author's template, untouched.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { AGENT_OUTPUT_BYTES, readBounded, REPORT_BYTES } from '../processes/read-bounded.js'
import { join } from 'node:path'
import { readAgentOutput } from '../agents/agent-output.js'
import { runCommand } from '../processes/run-command.js'
import type { AgentReport, ExecutorRun, Task } from '../model/index.js'
import { maskSecrets } from '../model/secrets.js'
import { executorFailureText } from './failure-text.js'
import { ExecutorReportSchema, taskPrompt, type ExecutorReport } from './prompt.js'

/** The executor run of one attempt: the workflow author's command, where it runs and its complete environment. */
export interface ExecutorLaunch {
  command: string
  cwd: string
  /** Without the attempt's file paths, which are added here. */
  env: Record<string, string>
  timeoutMs: number
  /** Masked in the recorded output and in the agent's report. */
  secrets: readonly string[]
  signal?: AbortSignal
  /** Each non-empty line the executor prints while it runs, secrets masked. */
  onLine?: (line: string) => void
}

/** What the executor of one attempt is given to read. */
export interface AttemptBrief {
  task: Task
  issue: { number: number; title: string }
  solutionId: string
  /** Where the attempt's files are written. */
  dir: string
  attempt: number
  /** The previous attempt's failures; undefined on the first attempt. */
  feedback: string | undefined
}

export interface Developed {
  /** The executor's report in `$CONVERGE_RESULT_FILE`; undefined when it wrote none (or an unreadable one). */
  report: ExecutorReport | undefined
  run: ExecutorRun
}

/** Runs the executor once. `recordError` receives what went wrong without failing the attempt (validate judges). */
export async function develop(
  launch: ExecutorLaunch, brief: AttemptBrief, recordError: (message: string) => Promise<void>,
): Promise<Developed> {
  const { task, dir, attempt, feedback } = brief
  // A fresh folder: a report or an agent output left by an earlier run (of another repository, another user) is never read as this run's.
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  const files = {
    CONVERGE_TASK_FILE: join(dir, 'task.json'),
    CONVERGE_PROMPT_FILE: join(dir, 'prompt.md'),
    CONVERGE_FEEDBACK_FILE: join(dir, 'feedback.md'),
    CONVERGE_RESULT_FILE: join(dir, 'result.json'),
    CONVERGE_AGENT_OUTPUT_FILE: join(dir, 'agent-output'),
  }
  const prompt = taskPrompt(task, { issue: brief.issue, solutionId: brief.solutionId, feedback })
  await writeFile(files.CONVERGE_TASK_FILE, `${JSON.stringify(task, null, 2)}\n`)
  await writeFile(files.CONVERGE_PROMPT_FILE, prompt)
  // Empty on the first attempt, so an executor can always read it.
  await writeFile(files.CONVERGE_FEEDBACK_FILE, feedback ?? '')

  const result = await runCommand({ ...launch, env: { ...launch.env, ...files } })
  const agent = await readAgentReport(files.CONVERGE_AGENT_OUTPUT_FILE, launch.secrets)
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
  if (failed) await recordError(`${task.id}: ${failed}`)
  else if (agent?.error) await recordError(`${task.id}: the agent reported: ${agent.error}`)
  return { report: await readReport(files.CONVERGE_RESULT_FILE, task, recordError), run }
}

async function readAgentReport(path: string, secrets: readonly string[]): Promise<AgentReport | undefined> {
  // Its end: the agent CLIs write their result last. A 300 MB file is not read whole.
  const text = await readBounded(path, AGENT_OUTPUT_BYTES, 'end').catch(() => '')
  return readAgentOutput(maskSecrets(text, secrets))
}

async function readReport(path: string, task: Task, recordError: (message: string) => Promise<void>): Promise<ExecutorReport | undefined> {
  let text: string
  try {
    text = await readBounded(path, REPORT_BYTES, 'start')
  } catch {
    return undefined // writing a report is optional
  }
  try {
    return ExecutorReportSchema.parse(JSON.parse(text))
  } catch (error) {
    await recordError(`${task.id}: ignored the executor's report: ${(error as Error).message.split('\n')[0]}`)
    return undefined
  }
}
