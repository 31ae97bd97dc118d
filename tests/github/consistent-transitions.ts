/**
 * A state-branch workload whose files must agree with each other, and an audit of the branch that reads it
 * through the emulator (`gh.state`, and its repository `gh.repoDir`), never through the code under test.
 *
 * A transition advances one issue: `.converge/state.json` (run state: a transition counter and every issue's
 * status), `.converge/issues/<n>/issue.json` (the same status and sequence number), `events.md` (one line per
 * transition) and, when the issue becomes `planned`, `plan.json`: three or four files in one commit. A commit
 * that is not all-or-nothing, or a transition applied twice, breaks an invariant the audit checks.
 */
import { spawn } from 'node:child_process'
import { statePaths, toStateJson } from '../../src/model/state-layout.js'
import type { StateChange, StateSnapshot } from '../../src/state/store.js'
import type { Emulator } from '../support/emulator/index.js'

export const STATUSES = ['new', 'planning', 'planned', 'executing', 'done'] as const

export interface RunStateFile {
  transitions: number
  issues: Record<string, { status: string; seq: number; plan: string | null }>
}

export interface IssueFile {
  id: string
  status: string
  seq: number
  plan: string | null
}

export interface PlanFile {
  id: string
  issue: string
  seq: number
}

/** What the snapshot must prefetch so that a transition costs one query and one mutation. */
export function transitionPaths(n: number): string[] {
  return [statePaths.runState, statePaths.issue(n), statePaths.events(n), statePaths.plan(n)]
}

/** `apply` for transact(): advances issue `n` by one status (a pure function of the snapshot). */
export function advanceIssue(n: number): (snapshot: StateSnapshot) => Promise<StateChange> {
  return async (snapshot) => {
    const run = parseOr<RunStateFile>(await snapshot.read(statePaths.runState), { transitions: 0, issues: {} })
    const id = `ISS-${n}`
    const issue = parseOr<IssueFile>(await snapshot.read(statePaths.issue(n)), { id, status: STATUSES[0], seq: 0, plan: null })
    const seq = issue.seq + 1
    const status = STATUSES[seq % STATUSES.length]!
    const plan: PlanFile | undefined = status === 'planned' ? { id: `SOL-${id}-${seq}`, issue: id, seq } : undefined
    const next: IssueFile = { id, status, seq, plan: plan?.id ?? issue.plan }
    const transitions = run.transitions + 1
    const events = (await snapshot.read(statePaths.events(n))) ?? `# Events of ${id}\n\n`
    return {
      message: `${id}: ${issue.status} → ${status} (transition ${transitions})`,
      files: {
        [statePaths.runState]: toStateJson({
          transitions,
          issues: { ...run.issues, [id]: { status, seq, plan: next.plan } },
        } satisfies RunStateFile),
        [statePaths.issue(n)]: toStateJson(next),
        [statePaths.events(n)]: `${events}- #${seq} ${status}\n`,
        ...(plan ? { [statePaths.plan(n)]: toStateJson(plan) } : {}),
      },
    }
  }
}

function parseOr<T>(text: string | undefined, fallback: T): T {
  return text === undefined ? fallback : (JSON.parse(text) as T)
}

/** What one commit of the branch holds, once checked. */
export interface CheckedCommit {
  sha: string
  message: string
  /** made by the code under test, not by the emulator's `stale-head` fault */
  own: boolean
  transitions: number
  /** seq of every issue */
  seqs: Record<string, number>
}

type CheckedState = Pick<CheckedCommit, 'transitions' | 'seqs'>

export const STALE_HEAD_COMMIT = 'Concurrent update (emulator stale-head fault)'

/**
 * Reads the state branch through the emulator and checks it. Each commit (and each tree) is checked once, so
 * auditing after every operation stays cheap.
 */
export class BranchAudit {
  private readonly trees = new Map<string, Promise<CheckedState>>()
  private readonly checkedBySha = new Map<string, Promise<CheckedState>>()

  constructor(
    private readonly gh: Emulator,
    private readonly branch: string,
  ) {}

  /**
   * The state at the branch head satisfies every invariant (or the branch does not exist). Returns the number of
   * transitions it records (0 without a branch).
   */
  async checkHead(): Promise<number> {
    const head = await this.gh.state.branchHead(this.branch)
    if (head === null) return 0
    return (await this.checkTree(head)).transitions
  }

  /**
   * Every commit of the branch, oldest first, is complete: its tree satisfies every invariant, the root records
   * one transition, each of our commits exactly one more than its parent (one issue advanced, named by the
   * message), and each commit the emulator made to move the head (the `stale-head` fault) changes nothing.
   */
  async checkHistory(): Promise<CheckedCommit[]> {
    const head = await this.gh.state.branchHead(this.branch)
    if (head === null) return []
    const history = (await this.gh.state.commits(this.branch)).reverse()
    const states = await Promise.all(history.map((commit) => this.checkTree(commit.sha, commit.tree)))
    const checked: CheckedCommit[] = []
    for (const [index, commit] of history.entries()) {
      const state = states[index]!
      const parent = checked[index - 1]
      const own = !commit.message.startsWith(STALE_HEAD_COMMIT)
      const where = `commit ${commit.sha.slice(0, 7)} "${commit.message.trim()}"`
      if (parent === undefined) {
        assert(commit.parents.length === 0, `${where}: the first commit must be a root commit`)
        assert(state.transitions === 1, `${where}: the root commit records ${state.transitions} transitions, not 1`)
      } else if (!own) {
        assert(state.transitions === parent.transitions, `${where}: the emulator's commit changed the state`)
      } else {
        assert(
          state.transitions === parent.transitions + 1,
          `${where}: records ${state.transitions} transitions after ${parent.transitions}; each commit is exactly one transition`,
        )
        const advanced = Object.keys(state.seqs).filter((id) => state.seqs[id] !== (parent.seqs[id] ?? 0))
        assert(advanced.length === 1, `${where}: advances ${advanced.join(', ') || 'no issue'}; a transition advances one issue`)
        assert(commit.message.startsWith(`${advanced[0]}: `), `${where}: the message does not name ${advanced[0]}, the issue it advances`)
      }
      checked.push({ sha: commit.sha, message: commit.message, own, ...state })
    }
    return checked
  }

  /** The checked state of a commit, from what is known of it (by sha, or by tree) or by reading its files. */
  private checkTree(sha: string, tree?: string): Promise<CheckedState> {
    let checked = this.checkedBySha.get(sha) ?? (tree === undefined ? undefined : this.trees.get(tree))
    if (!checked) checked = this.checkFiles(sha)
    this.checkedBySha.set(sha, checked)
    if (tree !== undefined) this.trees.set(tree, checked)
    return checked
  }

  private async checkFiles(sha: string): Promise<CheckedState> {
    const where = `commit ${sha.slice(0, 7)}`
    const files = await readFiles(this.gh, sha, await this.gh.state.listFiles(sha))
    const json = <T>(path: string): T => {
      const text = files.get(path)
      assert(text !== undefined, `${where}: ${path} is missing`)
      try {
        return JSON.parse(text) as T
      } catch (error) {
        throw new Error(`${where}: ${path} is not JSON (${(error as Error).message}): ${text.slice(0, 200)}`)
      }
    }
    for (const path of files.keys()) if (path.endsWith('.json')) json(path)
    const run = json<RunStateFile>(statePaths.runState)
    const numbers = new Set<number>()
    for (const path of files.keys()) {
      const match = /^\.converge\/issues\/(\d+)\//.exec(path)
      if (match) numbers.add(Number(match[1]))
    }
    const ids = [...numbers].map((n) => `ISS-${n}`).sort()
    assert(
      JSON.stringify(ids) === JSON.stringify(Object.keys(run.issues).sort()),
      `${where}: state.json lists ${Object.keys(run.issues).join(', ')} but the branch holds issues ${ids.join(', ')}`,
    )
    const seqs: Record<string, number> = {}
    let total = 0
    for (const n of numbers) {
      const id = `ISS-${n}`
      const issue = json<IssueFile>(statePaths.issue(n))
      const recorded = run.issues[id]!
      assert(
        issue.status === recorded.status && issue.seq === recorded.seq && issue.plan === recorded.plan,
        `${where}: ${statePaths.issue(n)} says ${issue.status} #${issue.seq} (plan ${issue.plan}), state.json says ${recorded.status} #${recorded.seq} (plan ${recorded.plan})`,
      )
      assert(issue.status === STATUSES[issue.seq % STATUSES.length], `${where}: ${id} #${issue.seq} has status ${issue.status}`)
      const events = (files.get(statePaths.events(n)) ?? '').split('\n').filter((line) => line.startsWith('- #'))
      assert(
        events.length === issue.seq && events.at(-1) === `- #${issue.seq} ${issue.status}`,
        `${where}: ${statePaths.events(n)} has ${events.length} events (last "${events.at(-1)}") for ${id} #${issue.seq} ${issue.status}`,
      )
      if (issue.plan !== null) {
        const plan = json<PlanFile>(statePaths.plan(n))
        assert(plan.id === issue.plan && plan.issue === id, `${where}: ${statePaths.plan(n)} is ${plan.id}, ${id} names ${issue.plan}`)
      }
      seqs[id] = issue.seq
      total += issue.seq
    }
    assert(run.transitions === total, `${where}: state.json counts ${run.transitions} transitions, the issues ${total}`)
    return { transitions: run.transitions, seqs }
  }
}

/**
 * The files `paths` at commit `sha` of the emulator's repository. `gh.state.readFile` starts one git process per
 * file; this reads them all with one `git cat-file --batch`, from the same repository (`gh.repoDir`).
 */
async function readFiles(gh: Emulator, sha: string, paths: readonly string[]): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  if (paths.length === 0) return files
  const output = await new Promise<Buffer>((resolve, reject) => {
    const child = spawn('git', [`--git-dir=${gh.repoDir}`, 'cat-file', '--batch'], {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' },
    })
    const chunks: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`git cat-file exited with ${code}`))))
    child.stdin.end(paths.map((path) => `${sha}:${path}\n`).join(''))
  })
  let offset = 0
  for (const path of paths) {
    const headerEnd = output.indexOf(0x0a, offset)
    const [, type, size] = output.subarray(offset, headerEnd).toString('utf8').split(' ')
    if (type !== 'blob') throw new Error(`commit ${sha.slice(0, 7)}: ${path} is not a file (${type})`)
    const start = headerEnd + 1
    files.set(path, output.subarray(start, start + Number(size)).toString('utf8'))
    offset = start + Number(size) + 1
  }
  return files
}

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`State branch inconsistent: ${message}`)
}
