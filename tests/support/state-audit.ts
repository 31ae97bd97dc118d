/**
 * Checks that a state branch is valid, reading it through the emulator (never through the code under test):
 * only files of the layout (SPEC §4), each one parsing by its schema, and the files agreeing with each other —
 * `state.json` and every `issue.json`, an issue and its plan, an approval and the plan's hash, an execution
 * record and its plan, a recorded commit and the work branch it was pushed to, a finished execution and its loop
 * (`completed` / `failed`, each task's `files_changed` its commit's files) and its issue.
 *
 * ```ts
 * const audit = await auditStateBranch(gh)
 * expect(audit.problems).toEqual([])
 * ```
 */
import { afterAll, afterEach, expect } from 'vitest'
import { runGit, runGitBytes } from '../../src/git/git.js'
import {
  ExecutionRecordSchema, IssueStateSchema, LoopStateSchema, RunStateSchema, SolutionSchema,
  type ExecutionRecord, type IssueState, type LoopState, type RunState, type Solution,
} from '../../src/model/index.js'
import { planHash } from '../../src/plan/hash.js'
import { DEFAULT_STATE_BRANCH, statePaths } from '../../src/model/state-layout.js'
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
  // A suite audits after every run, and the branch grows an issue a run: the whole tree is read in three git
  // processes, and a blob (content-addressed) once per emulator.
  const tree = await blobsAt(gh, head)
  const workBranches = await workBranchHeads(gh)
  const paths = [...tree.keys()]
  const read = async (path: string) => {
    const sha = tree.get(path)
    return sha === undefined ? undefined : blobCache(gh).get(sha)
  }

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

    const loop = has(statePaths.loop(n)) ? await parse<LoopState>(statePaths.loop(n), LoopStateSchema) : undefined
    const execution = has(statePaths.execution(n)) ? await parse<ExecutionRecord>(statePaths.execution(n), ExecutionRecordSchema) : undefined
    if (execution && plan) await auditExecution(gh, n, execution, plan, workBranches.get(n) ?? null, problems)
    if (execution && plan && execution.solution_id === plan.id) auditAgreement(n, issue, execution, loop, problems)
    if (execution && !has(statePaths.plan(n))) problems.push(`${statePaths.execution(n)}: an execution record without a plan`)
  }
  if (runState) {
    for (const id of Object.keys(runState.issues)) {
      const n = runState.issues[id]!.number
      if (!issueNumbers.has(n)) problems.push(`${statePaths.runState}: ${id} has no folder`)
    }
  }
  return { head, files: paths.length, issues: issueNumbers.size, problems }
}

/** A finished execution, its loop and its issue say the same thing. */
function auditAgreement(n: number, issue: IssueState, execution: ExecutionRecord, loop: LoopState | undefined, problems: string[]): void {
  if (execution.status !== 'completed' && execution.status !== 'failed') return
  if (loop && loop.status !== execution.status) problems.push(`${statePaths.loop(n)}: ${loop.status}, execution.json says ${execution.status}`)
  if (execution.status === 'completed' && issue.status !== 'completed' && issue.solution_id === execution.solution_id)
    problems.push(`${statePaths.issue(n)}: ${issue.status}, execution.json says completed`)
  for (const task of loop?.skill_state?.develop.tasks ?? []) {
    const result = execution.tasks[task.id]
    if (result?.status === 'completed' && result.commit_hash && JSON.stringify(task.files_changed) !== JSON.stringify(result.files_modified))
      problems.push(`${statePaths.loop(n)}: ${task.id} changed [${task.files_changed.join(', ')}], its commit [${result.files_modified.join(', ')}]`)
  }
}

/**
 * Audits the state branch after every test of the suite that calls it (`expect` fails the test with the problems),
 * and prints how many files and issues it checked.
 */
export function auditAfterEach(suite: string, emulator: () => Emulator | undefined): void {
  const checked = { runs: 0, files: 0, issues: 0 }
  afterEach(async () => {
    const gh = emulator()
    if (!gh) return
    const audit = await auditStateBranch(gh)
    checked.runs++
    checked.files += audit.files
    checked.issues += audit.issues
    expect(audit.problems, 'state branch audit').toEqual([])
  })
  afterAll(() => console.log(`state audit (${suite}): ${checked.runs} scenarios, ${checked.files} state files checked, ${checked.issues} issue folders`))
}

async function auditExecution(
  gh: Emulator, n: number, execution: ExecutionRecord, plan: Solution, workHead: string | null, problems: string[],
): Promise<void> {
  const where = statePaths.execution(n)
  if (execution.solution_id !== plan.id) problems.push(`${where}: for ${execution.solution_id}, the plan is ${plan.id}`)
  // A record of an earlier version of the plan is kept until the next run starts; only a current one must match.
  const current = execution.solution_id === plan.id
  if (current && execution.plan_hash !== planHash(plan)) problems.push(`${where}: plan hash differs from plan.json's`)
  const taskIds = new Set(plan.tasks.map((task) => task.id))
  for (const [id, result] of Object.entries(execution.tasks)) {
    if (result.task_id !== id) problems.push(`${where}: ${id} holds the result of ${result.task_id}`)
    if (current && !taskIds.has(id)) problems.push(`${where}: ${id} is not a task of the plan`)
    const evidence = evidenceProblem(result)
    if (evidence) problems.push(`${where}: ${id} ${evidence}`)
    if (result.status === 'completed' && (execution.mode ?? 'execute') === 'execute') {
      if (!result.commit_hash) {
        if (result.files_modified.length > 0) problems.push(`${where}: ${id} completed with changes and no commit`)
        continue
      }
      if (!(await reachable(gh, result.commit_hash, workHead))) {
        problems.push(`${where}: ${id}'s commit ${result.commit_hash.slice(0, 12)} is not on converge/issue-${n}`)
      }
    }
  }
}

/**
 * Every finished task has evidence (SPEC §7), and it agrees with itself and the record: the runs after the change
 * are the command checks recorded, and the kind is the one its runs make (proven: a failing baseline, all passing
 * after; manual: no command; not-measured: no baseline; the green-before kinds: a baseline that passed).
 */
function evidenceProblem(result: ExecutionRecord['tasks'][string]): string | undefined {
  if (result.status === 'skipped') return undefined
  const evidence = result.evidence
  if (!evidence) return `${result.status} without evidence`
  const commands = result.convergence_verified.filter((c) => c.kind === 'command')
  const after = evidence.after.map((r) => `${r.command}\0${r.exit_code}`)
  const checked = commands.map((c) => `${c.text}\0${c.timed_out ? null : c.exit_code}`)
  if (after.join('\n') !== checked.join('\n')) return 'has evidence whose runs after the change are not its recorded commands'
  const passed = (runs: typeof evidence.before) => runs.every((r) => r.exit_code === 0)
  const expected: Record<typeof evidence.kind, boolean> = {
    proven: evidence.before.length > 0 && !passed(evidence.before) && passed(evidence.after),
    'regression-guard': evidence.before.length > 0 && passed(evidence.before) && passed(evidence.after) && result.status === 'completed',
    unproven: evidence.after.length > 0 && (!passed(evidence.after) || passed(evidence.before)),
    'no-change': result.files_modified.length === 0,
    manual: evidence.after.length === 0,
    'not-measured': evidence.before.length === 0,
  }
  return expected[evidence.kind] ? undefined : `has evidence of kind ${evidence.kind} that its runs do not make`
}

/** Path → blob sha of every file at `commit`, the blobs' text cached (one `ls-tree`, one `cat-file --batch`). */
async function blobsAt(gh: Emulator, commit: string): Promise<Map<string, string>> {
  const listing = (await runGit(['ls-tree', '-r', '-z', commit], { cwd: gh.repoDir })).stdout
  const tree = new Map<string, string>()
  for (const entry of listing.split('\0').filter(Boolean)) {
    const tab = entry.indexOf('\t')
    const [, type, sha] = entry.slice(0, tab).split(' ')
    if (type === 'blob') tree.set(entry.slice(tab + 1), sha!)
  }
  const cache = blobCache(gh)
  const missing = [...new Set(tree.values())].filter((sha) => !cache.has(sha))
  if (missing.length) {
    const { stdout } = await runGitBytes(['cat-file', '--batch'], { cwd: gh.repoDir, input: `${missing.join('\n')}\n` })
    let at = 0
    for (const sha of missing) {
      const headerEnd = stdout.indexOf(0x0a, at)
      const size = Number(stdout.subarray(at, headerEnd).toString('utf8').split(' ')[2])
      cache.set(sha, stdout.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8'))
      at = headerEnd + 1 + size + 1
    }
  }
  return tree
}

const blobs = new WeakMap<Emulator, Map<string, string>>()
function blobCache(gh: Emulator): Map<string, string> {
  let cache = blobs.get(gh)
  if (!cache) blobs.set(gh, (cache = new Map()))
  return cache
}

/** Issue number → head of its work branch `converge/issue-<n>`. */
async function workBranchHeads(gh: Emulator): Promise<Map<number, string>> {
  const { stdout } = await runGit(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/converge/'], { cwd: gh.repoDir })
  const heads = new Map<number, string>()
  for (const line of stdout.split('\n')) {
    const match = /^refs\/heads\/converge\/issue-(\d+) ([0-9a-f]+)$/.exec(line)
    if (match) heads.set(Number(match[1]), match[2]!)
  }
  return heads
}

/** Whether `commit` is in the history of `head`; a yes stays a yes for the same head. */
const reachableAt = new WeakMap<Emulator, Set<string>>()
async function reachable(gh: Emulator, commit: string, head: string | null): Promise<boolean> {
  if (!head) return false
  const known = reachableAt.get(gh) ?? new Set<string>()
  reachableAt.set(gh, known)
  if (known.has(`${commit}@${head}`)) return true
  try {
    await runGit(['merge-base', '--is-ancestor', commit, head], { cwd: gh.repoDir })
    known.add(`${commit}@${head}`)
    return true
  } catch {
    return false
  }
}
