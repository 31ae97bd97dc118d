/**
 * What the board reads from the state branch (SPEC §4), read tolerantly: a file that does not match its schema is
 * reported on the board as a problem of its issue, never a reason to show nothing. Task results may carry
 * `evidence` (SPEC §7), which records written before it existed lack: those tasks count as "not recorded".
 */
import { z } from 'zod'
import { EVIDENCE_KINDS, EvidenceRunSchema, TaskEvidenceSchema } from '../model/evidence.js'
import {
  ExecutionRecordSchema, FileStatSchema, IssueStateSchema, RunStateSchema, SolutionSchema, TaskResultSchema,
  type IssueState, type RunState, type Solution,
} from '../model/index.js'
import { statePaths } from '../model/state-layout.js'
import { parseStateJson } from '../state/state-files.js'

/** Evidence kinds, and `not-recorded` for a finished task whose result has no evidence (records of older versions). */
export const EVIDENCE_COLUMNS = [...EVIDENCE_KINDS, 'not-recorded'] as const
export type EvidenceColumn = (typeof EVIDENCE_COLUMNS)[number]

/**
 * Evidence as recorded, with what newer records add read when present (each unreadable one counts as absent): the
 * check files the task wrote or changed itself (what its proof rests on), and the differential runs.
 */
export const BoardEvidenceSchema = TaskEvidenceSchema.extend({
  check_files: TaskEvidenceSchema.shape.check_files.catch(undefined),
  forward: TaskEvidenceSchema.shape.forward.catch(undefined),
  reverse: TaskEvidenceSchema.shape.reverse.catch(undefined),
})

/**
 * A task result as execution.json holds it, with its evidence and its files' lines when recorded (an unreadable one
 * counts as absent: the board then names the files without their lines).
 */
export const BoardTaskResultSchema = TaskResultSchema.extend({
  evidence: BoardEvidenceSchema.optional().catch(undefined),
  file_stats: z.array(FileStatSchema).optional().catch(undefined),
})

export const BoardExecutionSchema = ExecutionRecordSchema.extend({
  tasks: z.record(z.string(), BoardTaskResultSchema),
  executed_tasks: z.record(z.string(), BoardTaskResultSchema).optional(),
})

export type Evidence = z.infer<typeof BoardEvidenceSchema>
export type EvidenceRun = z.infer<typeof EvidenceRunSchema>
export type BoardTaskResult = z.infer<typeof BoardTaskResultSchema>
export type BoardExecution = z.infer<typeof BoardExecutionSchema>

/** One issue's files on the state branch, each undefined when absent or unreadable (then named in `problems`). */
export interface IssueFiles {
  number: number
  issue: IssueState | undefined
  plan: Solution | undefined
  execution: BoardExecution | undefined
  events: string | undefined
  /** `path: what is wrong` for each file that could not be read. */
  problems: string[]
}

/** One issue's files as the state branch holds them (undefined when absent), not parsed yet. */
export interface IssueTexts {
  number: number
  issue: string | undefined
  plan: string | undefined
  execution: string | undefined
  events: string | undefined
}

export interface BoardInput<Issue = IssueFiles> {
  branch: string
  /** The state branch's commit the board was made from; null when the branch does not exist. */
  head: string | null
  run: RunState | undefined
  issues: Issue[]
  /** Problems with `state.json`. */
  problems: string[]
}

export const FILE_SCHEMAS = {
  run: RunStateSchema,
  issue: IssueStateSchema,
  plan: SolutionSchema,
  execution: BoardExecutionSchema,
} as const

/** The largest state file the board reads (in characters): a larger one is a problem of its issue, not a stall. */
export const MAX_STATE_FILE_CHARS = 16 * 1024 * 1024

/**
 * One issue's files parsed: done an issue at a time as the board is made, so only one issue's execution record (its
 * outputs, most of the state's bytes) is held parsed at once.
 */
export function parseIssueTexts(texts: IssueTexts, plan = parsePlanText(texts)): IssueFiles {
  const n = texts.number
  const issue = parseStateFile(statePaths.issue(n), texts.issue, FILE_SCHEMAS.issue)
  const execution = parseStateFile(statePaths.execution(n), texts.execution, FILE_SCHEMAS.execution)
  return {
    number: n, issue: issue.value, plan: plan.value, execution: execution.value, events: texts.events,
    problems: [issue.problem, plan.problem, execution.problem].filter((p): p is string => p !== undefined),
  }
}

/** An issue's plan parsed alone: its size decides whether the board shows its tasks, before the rest is read. */
export function parsePlanText(texts: IssueTexts) {
  return parseStateFile(statePaths.plan(texts.number), texts.plan, FILE_SCHEMAS.plan)
}

/** Parses one state file's text; `problem` says why it could not be used. */
export function parseStateFile<S extends z.ZodType>(path: string, text: string | undefined, schema: S): { value?: z.output<S>; problem?: string } {
  if (text === undefined) return {}
  if (text.length > MAX_STATE_FILE_CHARS) return { problem: `${path}: ${(text.length / 1024 / 1024).toFixed(1)} MB, more than the board reads (${MAX_STATE_FILE_CHARS / 1024 / 1024} MB)` }
  const parsed = parseStateJson(text, schema)
  if (parsed.ok) return { value: parsed.value }
  return { problem: parsed.wrong === 'json' ? `${path}: not JSON (${parsed.detail})` : `${path}: ${parsed.detail}` }
}
