/** Reads everything the board shows from one commit of the state branch (the I/O edge of src/board/). */
import { statePaths } from '../model/state-layout.js'
import type { StateSnapshot, StateStore } from '../state/store.js'
import { FILE_SCHEMAS, parseIssueTexts, parseStateFile, type BoardInput, type IssueTexts } from './input.js'

/** Files asked for at once: one git process locally, one GraphQL query (of as many file fields) from GitHub. */
const FILES_PER_READ = 400
const MAX_ATTEMPTS = 5
/** The part of an events.md the timeline reads: its first events (a longer log is cut, not read whole). */
const MAX_EVENTS_CHARS = 1024 * 1024

/** Everything the board shows, each issue's files parsed. */
export async function readBoardInput(store: StateStore): Promise<BoardInput> {
  const texts = await readBoardTexts(store)
  return { ...texts, issues: texts.issues.map((issue) => parseIssueTexts(issue)) }
}

/**
 * Issue directories come from `state.json`'s issues: every issue Converge records is there. Their files are read in
 * batches; when the branch moved while they were read, everything is read again at the new head, so the board is
 * always one commit's state. The issues' files are left as text, to be parsed an issue at a time (`parseIssueTexts`).
 */
export async function readBoardTexts(store: StateStore): Promise<BoardInput<IssueTexts>> {
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

async function readIssues(read: (path: string) => Promise<string | undefined>, numbers: number[]): Promise<IssueTexts[]> {
  const issues: IssueTexts[] = []
  for (const n of numbers) {
    issues.push({
      number: n, issue: await read(statePaths.issue(n)), plan: await read(statePaths.plan(n)), execution: await read(statePaths.execution(n)),
      events: (await read(statePaths.events(n)))?.slice(0, MAX_EVENTS_CHARS),
    })
  }
  return issues
}
