import { baseEnvironment } from '../processes/environment.js'

/**
 * The complete environment of the executor and of each verification command of one attempt: the runner's safe
 * base, the caller's extra variables, then the `CONVERGE_*` variables that say which task and attempt this is.
 */
export function taskEnvironment(
  extra: Record<string, string> | undefined, issue: number, taskId: string, attempt: number,
): Record<string, string> {
  return {
    ...baseEnvironment(process.env),
    ...extra,
    CONVERGE_ISSUE: String(issue),
    CONVERGE_TASK_ID: taskId,
    CONVERGE_ATTEMPT: String(attempt),
  }
}
