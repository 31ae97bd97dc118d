/** Reads everything the board shows from one commit of the state branch (the I/O edge of src/board/). */
import { statePaths } from '../model/state-layout.js'
import type { StateSnapshot, StateStore } from '../state/store.js'
import { FILE_SCHEMAS, parseStateFile, type BoardInput, type IssueFiles } from './input.js'

/** Files asked for at once: one git process locally, one GraphQL query (of as many file fields) from GitHub. */
const FILES_PER_READ = 400
const MAX_ATTEMPTS = 5
/** The part of an events.md the timeline reads: its first events (a longer log is cut, not read whole). */
const MAX_EVENTS_CHARS = 1024 * 1024

/**
 * Issue directories come from `state.json`'s issues: every issue Converge records is there. Their files are read in
 * batches; when the branch moved while they were read, everything is read again at the new head, so the board is
 * always one commit's state.
 */
export async function readBoardInput(store: StateStore): Promise<BoardInput> {
  for (let attempt = 1; ; attempt++) {
    const first = await store.snapshot([statePaths.runState])
    const run = parseStateFile(statePaths.runState, await first.read(statePaths.runState), FILE_SCHEMAS.run)
    const numbers = Object.values(run.value?.issues ?? {}).map((summary) => summary.number).sort((a, b) => a - b)
    const paths = numbers.flatMap((n) => [statePaths.issue(n), statePaths.plan(n), statePaths.execution(n), statePaths.events(n)])
    const batches: StateSnapshot[] = []
    for (let i = 0; i < paths.length; i += FILES_PER_READ) batches.push(await store.snapshot(paths.slice(i, i + FILES_PER_READ)))
    if (batches.every((batch) => batch.head === first.head) || attempt >= MAX_ATTEMPTS) {
      const batchOf = new Map(paths.map((path, i) => [path, batches[Math.floor(i / FILES_PER_READ)]!]))
      const read = (path: string) => (batchOf.get(path) ?? first).read(path)
      return { branch: store.branch, head: first.head, run: run.value, issues: await readIssues(read, numbers), problems: run.problem ? [run.problem] : [] }
    }
  }
}

async function readIssues(read: (path: string) => Promise<string | undefined>, numbers: number[]): Promise<IssueFiles[]> {
  const issues: IssueFiles[] = []
  for (const n of numbers) {
    const issue = parseStateFile(statePaths.issue(n), await read(statePaths.issue(n)), FILE_SCHEMAS.issue)
    const plan = parseStateFile(statePaths.plan(n), await read(statePaths.plan(n)), FILE_SCHEMAS.plan)
    const execution = parseStateFile(statePaths.execution(n), await read(statePaths.execution(n)), FILE_SCHEMAS.execution)
    issues.push({
      number: n, issue: issue.value, plan: plan.value, execution: execution.value, events: (await read(statePaths.events(n)))?.slice(0, MAX_EVENTS_CHARS),
      problems: [issue.problem, plan.problem, execution.problem].filter((p): p is string => p !== undefined),
    })
  }
  return issues
}
