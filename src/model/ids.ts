/** Identifiers used across the data model and how the variants found in plans are normalised. */

export const ISSUE_ID = /^ISS-(\d+)$/
export const SOLUTION_ID = /^SOL-ISS-(\d+)-(\d+)$/
/**
 * CCW's `SOL-{issue-id}-{uid}`: `SOL-GH-123-a7x9`, `SOL-123-1`, or with CCW's own issue id
 * (`SOL-ISS-20251229-001-b2k4`). Read, written `SOL-ISS-<n>-1` with the original kept.
 */
export const FOREIGN_SOLUTION_ID = /^SOL-([A-Za-z0-9][A-Za-z0-9-]{0,63})-([A-Za-z0-9]{1,32})$/i
/** An issue id as CCW and people write it: `ISS-42`, `GH-42`, `42`. */
export const FOREIGN_ISSUE_ID = /^(?:ISS-|GH-|ISSUE-)?(\d+)$/i
/** `T1` is canonical; `TASK-001` (analyze-with-file) is read as `T1`. */
const TASK_ID_VARIANT = /^(?:T-?|TASK-?)0*(\d{1,7})$/i
/**
 * Any other task id CCW writes (`IMPL-001`, `FIX-001`, `FIX1`, `L0`, `IMPL-001.3`, multi-module `IMPL-A1`): read, then renumbered
 * `T1…Tn` in plan order with the original kept in `source.original_id`.
 */
export const FOREIGN_TASK_ID = /^[A-Za-z]{1,12}[-_]?[A-Za-z]?\d{1,7}(?:\.\d{1,7})*$/

export function issueId(number: number): string {
  return `ISS-${number}`
}

export function issueNumberOf(id: string): number | undefined {
  const match = ISSUE_ID.exec(id)
  return match ? Number(match[1]) : undefined
}

/**
 * The issue number a solution id names: `SOL-ISS-42-1`, `SOL-GH-123-a7x9` and `SOL-123-x` name one; CCW's own
 * issue ids (`SOL-ISS-20251229-001-b2k4`) name none that Converge could use.
 */
export function solutionIdIssue(id: string): number | undefined {
  const issue = FOREIGN_SOLUTION_ID.exec(id)?.[1]
  const number = issue === undefined ? undefined : FOREIGN_ISSUE_ID.exec(issue)?.[1]
  return number === undefined ? undefined : Number(number)
}

/**
 * The issue a plan file is for, from its name as CCW names them (`GH-123.jsonl`, `ISS-123.json`,
 * `GH-123-solution.json`, `issue-42.md`): a prefix, the number, then nothing or words. CCW's dated ids
 * (`ISS-20251229-001`) are not an issue number and give none.
 */
export function issueNumberFromFileName(name: string): number | undefined {
  const base = name.split(/[\\/]/).pop()!.replace(/\.(?:jsonl?|md|markdown)$/i, '')
  const match = /^(?:ISS|GH|ISSUE)[-_]?(\d+)(?:[-_.][A-Za-z][\w.-]*)?$/i.exec(base)
  return match ? Number(match[1]) : undefined
}

export function solutionId(issueNumber: number, seq: number): string {
  return `SOL-ISS-${issueNumber}-${seq}`
}

/** The canonical task id for any accepted spelling, or undefined when it is not a task id. */
export function canonicalTaskId(raw: string): string | undefined {
  const match = TASK_ID_VARIANT.exec(raw.trim())
  return match ? `T${Number(match[1])}` : undefined
}
