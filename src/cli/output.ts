/**
 * What a command prints: text for a person, or with `--json` one JSON document on stdout (and nothing else there:
 * progress goes to stderr). Each command's document has a stable shape, documented in its help.
 */
import type { ExecutionRecord, Solution, TaskEvidence } from '../model/index.js'
import { evidenceSentence } from '../report/evidence-words.js'
import type { CliIo } from './io.js'

export interface Output {
  io: CliIo
  json: boolean
}

/** `{ "error": { "message", "kind" } }`: usage (exit 2), or input the command cannot use — a file, or the state it names (exit 1). */
export function errorDocument(message: string, kind: 'usage' | 'input') {
  return { error: { message, kind } }
}

export function printDocument(io: CliIo, document: unknown): void {
  io.out(JSON.stringify(document, null, 2))
}

/** Where progress goes: stdout for a person, stderr when stdout carries the JSON document. */
export function progressIo(output: Output): CliIo {
  return output.json ? { ...output.io, out: output.io.err, tty: false } : output.io
}

/**
 * The command could not do what it was asked, for a reason the state gives (not approved, paused, unknown issue):
 * the reason on stderr, or the error document with --json. Exit 1.
 */
export function refuse(output: Output, message: string): number {
  if (output.json) printDocument(output.io, errorDocument(message, 'input'))
  else output.io.err(message)
  return 1
}

/** One entry per task of the plan, as every command's JSON document lists them. */
export interface TaskEntry {
  id: string
  title: string
  /** `pending` when the record has no result for it. */
  status: 'pending' | 'completed' | 'failed' | 'skipped'
  attempts: number
  commit: string | null
  error: string | null
  /** What the task's checks prove (SPEC §7); null before it finished, and in records of older versions. */
  evidence: TaskEvidence | null
  /** The evidence in one sentence ("T3 changed nothing: its check already passed before the change"). */
  proof: string | null
  /** The executor's exit code in each attempt (null: killed or timed out); empty when no executor ran. */
  executor_exit_codes: Array<number | null>
  /** A later retry that did not replace this result (its executor failed or changed nothing): what it did. */
  later_retry: { at: string; outcome: string; executor_exit_codes: Array<number | null> } | null
}

export function taskEntries(plan: Solution, record: ExecutionRecord | undefined): TaskEntry[] {
  return plan.tasks.map((task) => {
    const result = record?.tasks[task.id]
    return {
      id: task.id, title: task.title, status: result?.status ?? 'pending', attempts: result?.attempts ?? 0,
      commit: result?.commit_hash ?? null, error: result?.error ?? null, evidence: result?.evidence ?? null,
      proof: result?.evidence && result.status !== 'skipped' ? evidenceSentence(task.id, result.evidence, record?.mode ?? 'execute', 'local') : null,
      executor_exit_codes: (result?.executor_runs ?? []).map((run) => run.exit_code),
      later_retry: result?.later_retry
        ? { at: result.later_retry.at, outcome: result.later_retry.outcome, executor_exit_codes: result.later_retry.executor_runs.map((run) => run.exit_code) }
        : null,
    }
  })
}
