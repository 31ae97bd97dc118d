/**
 * Checks that a state branch is valid, reading it through the emulator (never through the code under test):
 * only files of the layout (SPEC §4), each one parsing by its schema, and the files agreeing with each other —
 * `state.json` and every `issue.json`, an issue and its plan, an approval and the plan's hash, an execution
 * record and its plan, a recorded commit and the work branch it was pushed to.
 *
 * ```ts
 * const audit = await auditStateBranch(gh)
 * expect(audit.problems).toEqual([])
 * ```
 */
import { runGit } from '../../src/git/git.js'
import {
  ExecutionRecordSchema, IssueStateSchema, LoopStateSchema, RunStateSchema, SolutionSchema,
  type ExecutionRecord, type IssueState, type RunState, type Solution,
} from '../../src/model/index.js'
import { planHash } from '../../src/plan/hash.js'
import { DEFAULT_STATE_BRANCH, statePaths } from '../../src/state/layout.js'
import type { Emulator } from './emulator/index.js'

export interface StateAudit {
  /** the branch head audited, or null when the branch does not exist (no state: valid) */
  head: string | null
  files: number
  issues: number
  /** what is wrong, one line each; empty for a valid branch */
  problems: string[]
}

const ISSUE_FILE = /^\.converge\/issues\/([1-9]\d*)\/(issue\.json|plan\.json|loop\.json|execution\.json|execution\.md|events\.md)$/

export async function auditStateBranch(gh: Emulator, options: { branch?: string } = {}): Promise<StateAudit> {
  const branch = options.branch ?? DEFAULT_STATE_BRANCH
  const head = await gh.state.branchHead(branch)
  if (head === null) return { head, files: 0, issues: 0, problems: [] }
  const problems: string[] = []
  const paths = await gh.state.listFiles(head)
  const read = async (path: string) => (await gh.state.readFile(head, path)) ?? undefined

  const parse = async <T>(path: string, schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }) => {
    const text = await read(path)
    if (text === undefined) return undefined
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (error) {
      problems.push(`${path}: not JSON (${(error as Error).message})`)
      return undefined
    }
    const parsed = schema.safeParse(json)
    if (!parsed.success) {
      const first = parsed.error.issues[0]!
      problems.push(`${path}: ${first.path.map(String).join('.') || '(root)'}: ${first.message}`)
      return undefined
    }
    return parsed.data
  }

  const issueNumbers = new Set<number>()
  for (const path of paths) {
    const match = ISSUE_FILE.exec(path)
    if (match) issueNumbers.add(Number(match[1]))
    else if (path !== statePaths.runState) problems.push(`${path}: not a file of the state layout`)
  }

  const runState = paths.includes(statePaths.runState) ? await parse<RunState>(statePaths.runState, RunStateSchema) : undefined
  if (!paths.includes(statePaths.runState)) problems.push(`${statePaths.runState}: missing`)

  for (const n of [...issueNumbers].sort((a, b) => a - b)) {
    const has = (path: string) => paths.includes(path)
    if (!has(statePaths.issue(n))) {
      problems.push(`${statePaths.issueDir(n)}: files without issue.json`)
      continue
    }
    const issue = await parse<IssueState>(statePaths.issue(n), IssueStateSchema)
    if (!issue) continue
    if (issue.number !== n) problems.push(`${statePaths.issue(n)}: number ${issue.number} in the folder of ${n}`)
    if (!has(statePaths.events(n))) problems.push(`${statePaths.events(n)}: missing`)

    const summary = runState?.issues[issue.id]
    if (runState && !summary) problems.push(`${statePaths.runState}: no entry for ${issue.id}`)
    if (summary && (summary.status !== issue.status || summary.solution_id !== issue.solution_id)) {
      problems.push(`${statePaths.runState}: ${issue.id} is ${summary.status}/${summary.solution_id}, issue.json says ${issue.status}/${issue.solution_id}`)
    }

    const plan = has(statePaths.plan(n)) ? await parse<Solution>(statePaths.plan(n), SolutionSchema) : undefined
    if (issue.solution_id !== null && !has(statePaths.plan(n))) problems.push(`${statePaths.issue(n)}: names ${issue.solution_id}, and there is no plan.json`)
    if (plan) {
      if (plan.issue_id !== issue.id) problems.push(`${statePaths.plan(n)}: plan of ${plan.issue_id} in the folder of ${issue.id}`)
      if (issue.solution_id !== null && plan.id !== issue.solution_id) problems.push(`${statePaths.plan(n)}: ${plan.id}, issue.json names ${issue.solution_id}`)
      if (plan.approval && plan.approval.plan_hash !== planHash(plan)) problems.push(`${statePaths.plan(n)}: approval bound to another plan hash`)
    }

    if (has(statePaths.loop(n))) await parse(statePaths.loop(n), LoopStateSchema)
    const execution = has(statePaths.execution(n)) ? await parse<ExecutionRecord>(statePaths.execution(n), ExecutionRecordSchema) : undefined
    if (execution && plan) await auditExecution(gh, n, execution, plan, problems)
    if (execution && !plan) problems.push(`${statePaths.execution(n)}: an execution record without a plan`)
  }
  if (runState) {
    for (const id of Object.keys(runState.issues)) {
      const n = runState.issues[id]!.number
      if (!issueNumbers.has(n)) problems.push(`${statePaths.runState}: ${id} has no folder`)
    }
  }
  return { head, files: paths.length, issues: issueNumbers.size, problems }
}

async function auditExecution(gh: Emulator, n: number, execution: ExecutionRecord, plan: Solution, problems: string[]): Promise<void> {
  const where = statePaths.execution(n)
  if (execution.solution_id !== plan.id) problems.push(`${where}: for ${execution.solution_id}, the plan is ${plan.id}`)
  // A record of an earlier version of the plan is kept until the next run starts; only a current one must match.
  const current = execution.solution_id === plan.id
  if (current && execution.plan_hash !== planHash(plan)) problems.push(`${where}: plan hash differs from plan.json's`)
  const taskIds = new Set(plan.tasks.map((task) => task.id))
  for (const [id, result] of Object.entries(execution.tasks)) {
    if (result.task_id !== id) problems.push(`${where}: ${id} holds the result of ${result.task_id}`)
    if (current && !taskIds.has(id)) problems.push(`${where}: ${id} is not a task of the plan`)
    if (result.status === 'completed' && (execution.mode ?? 'execute') === 'execute') {
      if (!result.commit_hash) {
        if (result.files_modified.length > 0) problems.push(`${where}: ${id} completed with changes and no commit`)
        continue
      }
      if (!(await reachable(gh, result.commit_hash, `refs/heads/converge/issue-${n}`))) {
        problems.push(`${where}: ${id}'s commit ${result.commit_hash.slice(0, 12)} is not on converge/issue-${n}`)
      }
    }
  }
}

async function reachable(gh: Emulator, commit: string, ref: string): Promise<boolean> {
  try {
    await runGit(['merge-base', '--is-ancestor', commit, ref], { cwd: gh.repoDir })
    return true
  } catch {
    return false
  }
}
