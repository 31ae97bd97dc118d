/** Reads everything the board shows from one commit of the state branch (the I/O edge of src/board/). */
import { statePaths } from '../state/layout.js'
import type { StateSnapshot, StateStore } from '../state/store.js'
import { FILE_SCHEMAS, parseStateFile, type BoardInput, type IssueFiles } from './input.js'

/**
 * Issue directories come from `state.json`'s issues: every issue Converge records is there. The files of all
 * issues are asked for at once (one git process locally, one batch from GitHub); when the branch moved between
 * reading `state.json` and them, the newer commit is read again, so the board is always one commit's state.
 */
export async function readBoardInput(store: StateStore): Promise<BoardInput> {
  let snapshot = await store.snapshot([statePaths.runState])
  for (let attempt = 1; ; attempt++) {
    const run = parseStateFile(statePaths.runState, await snapshot.read(statePaths.runState), FILE_SCHEMAS.run)
    const numbers = Object.values(run.value?.issues ?? {}).map((summary) => summary.number).sort((a, b) => a - b)
    const paths = numbers.flatMap((n) => [statePaths.issue(n), statePaths.plan(n), statePaths.execution(n), statePaths.events(n)])
    const files = await store.snapshot([statePaths.runState, ...paths])
    if (files.head === snapshot.head || attempt >= 5) {
      return { branch: store.branch, head: files.head, run: run.value, issues: await readIssues(files, numbers), problems: run.problem ? [run.problem] : [] }
    }
    snapshot = files
  }
}

async function readIssues(snapshot: StateSnapshot, numbers: number[]): Promise<IssueFiles[]> {
  const issues: IssueFiles[] = []
  for (const n of numbers) {
    const issue = parseStateFile(statePaths.issue(n), await snapshot.read(statePaths.issue(n)), FILE_SCHEMAS.issue)
    const plan = parseStateFile(statePaths.plan(n), await snapshot.read(statePaths.plan(n)), FILE_SCHEMAS.plan)
    const execution = parseStateFile(statePaths.execution(n), await snapshot.read(statePaths.execution(n)), FILE_SCHEMAS.execution)
    issues.push({
      number: n, issue: issue.value, plan: plan.value, execution: execution.value, events: await snapshot.read(statePaths.events(n)),
      problems: [issue.problem, plan.problem, execution.problem].filter((p): p is string => p !== undefined),
    })
  }
  return issues
}
