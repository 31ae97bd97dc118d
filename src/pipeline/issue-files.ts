import { ExecutionRecordSchema, IssueStateSchema, LoopStateSchema, RunStateSchema, SolutionSchema } from '../model/index.js'
import { statePaths } from '../model/state-layout.js'
import { readStateJson } from '../state/state-files.js'
import type { StateSnapshot } from '../state/store.js'
import { initialRunState } from '../state/transitions.js'

/** The state files of one issue, as a command reads them. */
export async function readIssueFiles(snapshot: StateSnapshot, n: number, now: string) {
  return {
    run: (await readStateJson(snapshot, statePaths.runState, RunStateSchema)) ?? initialRunState(now),
    issue: await readStateJson(snapshot, statePaths.issue(n), IssueStateSchema),
    plan: await readStateJson(snapshot, statePaths.plan(n), SolutionSchema),
    loop: await readStateJson(snapshot, statePaths.loop(n), LoopStateSchema),
    execution: await readStateJson(snapshot, statePaths.execution(n), ExecutionRecordSchema),
    events: await snapshot.read(statePaths.events(n)),
  }
}

export function issueFilePaths(n: number): string[] {
  return [statePaths.runState, statePaths.issue(n), statePaths.plan(n), statePaths.loop(n), statePaths.execution(n), statePaths.events(n)]
}

export function appendEvent(existing: string | undefined, issue: number, event: string): string {
  return `${existing ?? `# Execution Events\n\n**Issue**: ISS-${issue}\n\n---\n\n`}${event}`
}
