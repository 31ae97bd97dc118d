/**
 * Evidence (SPEC §7): the baseline — a task's verification commands run once on the tree it is about to change —
 * and the evidence a finished task records from it and from the runs after the change.
 */
import { runCommand, type CommandResult } from '../processes/run-command.js'
import { classifyEvidence, type CheckFile, type ConvergenceCheck, type EvidenceRun, type Task, type TaskEvidence } from '../model/index.js'
import { verificationEntries } from '../model/verification.js'
import type { CheckMemo } from './check-memo.js'
import { taskEnvironment } from './task-environment.js'

/** How a run measures evidence (SPEC §7). */
export interface EvidenceSettings {
  /** `evidence: off`: no baseline run; the evidence of every task is then `not-measured`. */
  measure: boolean
  /**
   * Baselines measured already, by task id: the base of a pull request that `verify` checks. A task whose earlier
   * result has a baseline keeps it too (a rerun does not run it again).
   */
  baselines?: ReadonlyMap<string, EvidenceRun[]>
  /** Whether the code differs from the base (`verify` on a pull request: its diff); absent: the task's commit says. */
  changed?: boolean
}

export interface BaselineOptions {
  /** The tree the task is about to change (or a pull request's base, checked out). */
  repoDir: string
  timeoutMs: number
  secrets: readonly string[]
  /** Extra environment, as the verification commands get it. */
  env?: Record<string, string>
  issue: number
  signal?: AbortSignal
}

/** The commands a task's verification runs, in order. */
export function taskCommands(task: Task): string[] {
  return verificationEntries(task).flatMap((e) => (e.kind === 'command' ? [e.command!] : []))
}

/**
 * Runs the task's commands once, one after the other, each with the timeout of a verification command and the
 * environment the verification gets (`CONVERGE_ATTEMPT=0`). A command that cannot run (missing, not executable)
 * records the shell's failure: a failing baseline, as the check of a test the task is to write should be. With
 * `known`, a command whose result on this content is known already (`check-memo.ts`) is not run again.
 */
export async function runBaseline(task: Task, options: BaselineOptions, known?: { memo: CheckMemo; key: string }): Promise<EvidenceRun[]> {
  const runs: EvidenceRun[] = []
  for (const command of taskCommands(task)) {
    const run = async () => {
      const result = await runCommand({
        command,
        cwd: options.repoDir,
        env: taskEnvironment(options.env, options.issue, task.id, 0),
        timeoutMs: options.timeoutMs,
        secrets: options.secrets,
        ...(options.signal ? { signal: options.signal } : {}),
      })
      return result.aborted ? undefined : evidenceRun(command, result)
    }
    // A result known for this content (another task's baseline or checks on the same tree) is not run again.
    const ran = known ? await known.memo.run(command, known.key, run) : await run()
    if (!ran) break // cancelled: the task will not run either
    runs.push(ran)
  }
  return runs
}

export function evidenceRun(command: string, result: Pick<CommandResult, 'exitCode' | 'timedOut' | 'durationMs' | 'outputTail'>): EvidenceRun {
  return { command, exit_code: result.timedOut ? null : result.exitCode, duration_ms: result.durationMs, output_tail: result.outputTail }
}

/** The command checks of a verification, as evidence runs. */
export function runsOfChecks(checks: readonly ConvergenceCheck[]): EvidenceRun[] {
  return checks.filter((c) => c.kind === 'command').map((c) => ({
    command: c.text,
    exit_code: c.timed_out || c.verdict === 'pending' ? null : (c.exit_code ?? null),
    duration_ms: c.duration_ms ?? 0,
    output_tail: c.output_tail ?? '',
  }))
}

/**
 * The evidence of a finished task: `before` is the baseline (undefined when it was not measured), the runs after
 * are the last verification's commands, and `changed` says whether the task changed any file.
 */
export function taskEvidence(
  task: Task, before: readonly EvidenceRun[] | undefined, checks: readonly ConvergenceCheck[], changed: boolean,
  integrity: { tree?: string; checkFiles?: CheckFile[]; forward?: EvidenceRun[]; reverse?: EvidenceRun[] } = {},
): TaskEvidence {
  const after = runsOfChecks(checks)
  const { tree, checkFiles, forward, reverse } = integrity
  const kind = classifyEvidence({ type: task.type, paths: task.files.map((f) => f.path), changed, before, after, ...(forward ? { forward } : {}), ...(reverse ? { reverse } : {}) })
  return {
    kind, before: [...(before ?? [])], after,
    ...(tree ? { tree } : {}), ...(checkFiles?.length ? { check_files: checkFiles } : {}),
    ...(forward ? { forward } : {}), ...(reverse ? { reverse } : {}),
  }
}
