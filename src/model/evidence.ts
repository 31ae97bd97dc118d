import { z } from 'zod'

/**
 * What a task's checks prove about its change (SPEC §7 "Evidence"):
 * - `proven`: at least one command failed before the change and every command passes after it;
 * - `regression-guard`: every command passed before and after, the task changed files, and it is a refactor,
 *   test or docs task: its checks guard against breaking things, which is what they are for;
 * - `unproven`: the commands prove nothing about the change: all passed before and after on a fix or feature task
 *   (or they did not all pass after it, and the task failed);
 * - `no-change`: the executor changed no file, whatever the commands say;
 * - `manual`: the task has no command to run;
 * - `not-measured`: the baseline was turned off (`evidence: off`), or there was no earlier code to run it on.
 */
export const EVIDENCE_KINDS = ['proven', 'regression-guard', 'unproven', 'no-change', 'manual', 'not-measured'] as const
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number]

/** The kinds a green check run stands for: the change made its checks pass, or they guard what it kept intact. */
export const PROVING_KINDS: ReadonlySet<EvidenceKind> = new Set(['proven', 'regression-guard'])

/** One run of one verification command, before or after the change. */
export const EvidenceRunSchema = z.object({
  command: z.string(),
  /** Null when the command was killed (a timeout) and did not exit. */
  exit_code: z.number().int().nullable(),
  duration_ms: z.number().nonnegative(),
  /** The end of its output, secrets masked. */
  output_tail: z.string(),
})

/**
 * A file the task's checks read that the task itself created, changed or deleted (SPEC §7 "Evidence integrity"):
 * a test, the test runner's configuration, a script a command runs, a manifest's scripts, a shim or an ignored
 * config file. What the proof rests on, for the reviewer to read.
 */
export const CheckFileSchema = z.object({
  path: z.string(),
  change: z.enum(['created', 'changed', 'deleted']),
  /** What kind of check file it is: "a test file", "package.json's scripts", "an ignored file". */
  role: z.string(),
})

export const TaskEvidenceSchema = z.object({
  kind: z.enum(EVIDENCE_KINDS),
  /** The baseline: the commands on the tree the task was about to change; empty when not measured. */
  before: z.array(EvidenceRunSchema),
  /** The same commands after the change (the last attempt's runs). */
  after: z.array(EvidenceRunSchema),
  /** The git tree the runs after the change checked, which is the tree the task's commit records. */
  tree: z.string().optional(),
  /** The check files the task wrote itself; absent or empty: its checks are as they were before it. */
  check_files: z.array(CheckFileSchema).optional(),
  /**
   * The differential runs, when the task changed its own checks: `forward`, the commands on the end state with the
   * task's code put back as it was (they must fail); `reverse`, with the check files that existed before put back
   * as they were (they must pass).
   */
  forward: z.array(EvidenceRunSchema).optional(),
  reverse: z.array(EvidenceRunSchema).optional(),
})

/**
 * A criterion and the command that checks it: the optional link beside a task's plain string criteria
 * (`convergence.criteria_commands`), which planners add where they can. A linked criterion is met when its command
 * passes; one without a link waits for a person.
 */
export const CriterionCommandSchema = z.object({ criterion: z.string(), command: z.string() })
export type CriterionCommand = z.infer<typeof CriterionCommandSchema>

export type EvidenceRun = z.infer<typeof EvidenceRunSchema>
export type TaskEvidence = z.infer<typeof TaskEvidenceSchema>
export type CheckFile = z.infer<typeof CheckFileSchema>

export const runPassed = (run: EvidenceRun): boolean => run.exit_code === 0

/**
 * A run that says nothing either way: killed or timed out (no exit code), or a shell reporting its command killed
 * by SIGINT, SIGKILL or SIGTERM (130, 137, 143). A killed baseline is never "failed before".
 */
export const runInconclusive = (run: EvidenceRun): boolean => run.exit_code === null || KILLED_EXIT_CODES.has(run.exit_code)
const KILLED_EXIT_CODES: ReadonlySet<number> = new Set([130, 137, 143])

/** A run that ran to its end and failed. */
export const runFailed = (run: EvidenceRun): boolean => !runPassed(run) && !runInconclusive(run)

/** What {@link classifyEvidence} needs to know about the task and its run. */
export interface EvidenceFacts {
  /** The task's type as planned (`fix`, `feature`, `refactor`, `testing`, …). */
  type: string
  /** The paths the task declares: a task that changes documentation only is a docs task. */
  paths: readonly string[]
  /** Whether the task (its executor, or the pull request verified) changed any file. */
  changed: boolean
  /** The baseline runs; undefined when the baseline was not measured. */
  before: readonly EvidenceRun[] | undefined
  /** The runs after the change; empty when the task has no command. */
  after: readonly EvidenceRun[]
  /** With the task's code put back (run only when it changed its own checks): they must fail. */
  forward?: readonly EvidenceRun[]
  /** With the check files that existed before put back (run only when it changed some): they must pass. */
  reverse?: readonly EvidenceRun[]
}

/** The task kinds whose green-before-and-after checks guard against breaking things (see {@link EVIDENCE_KINDS}). */
export function guardsRegressions(type: string, paths: readonly string[]): boolean {
  return type === 'refactor' || type === 'testing' || (paths.length > 0 && paths.every(isDocumentation))
}

const isDocumentation = (path: string) => /\.(?:md|mdx|markdown|rst|adoc)$/i.test(path) || /^docs?\//i.test(path)

/**
 * The evidence kind of a finished task, by the rules of {@link EVIDENCE_KINDS}, in that order of precedence.
 * `proven` needs red before, green after and, when the task changed its own checks, the differential runs:
 * `forward` red (its checks fail without its code) and `reverse` green (the checks it found still pass).
 */
export function classifyEvidence(facts: EvidenceFacts): EvidenceKind {
  if (!facts.changed) return 'no-change'
  if (facts.after.length === 0) return 'manual'
  if (!facts.after.every(runPassed)) return 'unproven'
  if (!facts.before) return 'not-measured'
  const problem = integrityProblem(facts)
  if (problem === 'inconclusive' || problem === 'changed-expectations') return 'unproven'
  if (problem === undefined && facts.before.some(runFailed)) return 'proven'
  return guardsRegressions(facts.type, facts.paths) ? 'regression-guard' : 'unproven'
}

/**
 * What keeps checks that passed after the change from proving it, or undefined:
 * - `inconclusive`: a run before the change (or without it) was killed or timed out;
 * - `changed-expectations`: with the check files it found put back, the commands fail (the task changed what an
 *   existing check expects, or deleted or skipped one);
 * - `passes-without-change`: with its code put back, its own checks still pass.
 */
export function integrityProblem(facts: Pick<EvidenceFacts, 'before' | 'forward' | 'reverse'>): 'inconclusive' | 'changed-expectations' | 'passes-without-change' | undefined {
  if (facts.before?.some(runInconclusive) || facts.forward?.some(runInconclusive) || facts.reverse?.some(runInconclusive)) return 'inconclusive'
  if (facts.reverse && !facts.reverse.every(runPassed)) return 'changed-expectations'
  if (facts.forward && !facts.forward.some(runFailed)) return 'passes-without-change'
  return undefined
}
