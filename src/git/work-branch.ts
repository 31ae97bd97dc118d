/**
 * The work branch of an issue (SPEC §7, `workBranchName`): where the changes of converged tasks are committed, one
 * commit a task, and pushed with the workflow token.
 *
 * Tasks run in one working tree, several at once, never two on the same declared file. A task's commit takes
 * the changed paths under its own `files[]`, plus changes under no running task's files (an executor may touch
 * files its task did not declare): so concurrent tasks never take each other's declared work.
 */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { normalisePath } from '../plan/dag.js'
import { GitError, identityEnv, runGit, type GitIdentity } from './git.js'
import { GitDirSeal, type Restored } from './git-dir-seal.js'
import type { FileStat } from '../model/index.js'
import { commitFileStats, stagedOtherThan, type Content } from './task-change.js'
import { isUnexpectedPath } from './unexpected-paths.js'
import { resolveRef } from './refs.js'
import { fetchSealed, NO_CHECKOUT_PROGRAMS, pushSealed } from './sealed-remote.js'

/** Where the work branch is pushed, and with which token. */
export interface GitRemote {
  /** `https://github.com/<owner>/<repo>.git` (the server URL of the run). */
  url: string
  token: string
}

export interface WorkBranchOptions {
  repoDir: string
  branch: string
  /** Absent in local mode: commits stay in the local repository. */
  remote?: GitRemote
  identity: GitIdentity
  /**
   * Jobs that push to the same branch at once (the matrix jobs of `execute-task`): when a push is rejected
   * because the remote branch moved, fetch its tip, rebase this checkout's commits onto it and push again, up to
   * this many times, after a jittered backoff. Default 0: a branch that moved is an error (one run owns it).
   */
  pushRetries?: number
  /** Backoff unit of `pushRetries` in ms (default 250): attempt k waits a random time below unit · 2^k, at most 8 s. */
  pushRetryUnitMs?: number
  /**
   * What to do with changes that are in the working tree before any task ran (the user's own work, or what a step
   * before Converge left): `refuse` (default) throws {@link UncommittedWorkError}; `keep-out` leaves them where they
   * are and out of every task's commit and undo.
   */
  uncommitted?: 'refuse' | 'keep-out'
}

export interface TaskCommit {
  commit: string
  /** The commit's tree: what the task's checks ran on, with the branch's other files. */
  tree: string
  files: string[]
  /** Of `files`, those outside the task's declared files (the executor changed them unasked). */
  undeclared: string[]
  /** Its lines added and removed in each file. */
  stats: FileStat[]
}

/** A git step of the work branch failed; the message says which and why. */
export class WorkBranchError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause })
    this.name = 'WorkBranchError'
  }
}

/** The identity of GitHub's Actions bot, which work-branch commits are made as in a workflow. */
export const ACTIONS_BOT_IDENTITY: GitIdentity = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
}

/** The executor changed paths the plan did not declare and an approver would not expect (workflows, CI, git's files). */
export class UndeclaredChangeError extends WorkBranchError {
  constructor(readonly paths: string[]) {
    super(`the executor changed ${paths.join(', ')}, which the plan does not declare: workflows, CI configuration and git's own files are committed only when a task's files name them`)
    this.name = 'UndeclaredChangeError'
  }
}

/** The working tree holds changes that are not Converge's: it will not commit them with a task. */
export class UncommittedWorkError extends WorkBranchError {
  constructor(readonly paths: string[]) {
    const shown = paths.slice(0, 10).join(', ') + (paths.length > 10 ? ` and ${paths.length - 10} more` : '')
    super(
      `the working tree has changes that are not Converge's: ${shown}. They would go into a task's commit: commit or ` +
        'stash them first, or allow them (CLI: --allow-dirty; action: allow-dirty: true) to keep them out of every task commit',
    )
    this.name = 'UncommittedWorkError'
  }
}

export class WorkBranch {
  /** Serialises every git command on the working tree: commits of concurrent tasks take turns. */
  private queue: Promise<unknown> = Promise.resolve()

  private constructor(
    private readonly options: WorkBranchOptions,
    /** Whether the branch exists on the remote (pushed by this run or an earlier one). */
    private pushed: boolean,
    /** What was checked out before (a branch name, or a commit when detached), for {@link leave}. */
    private readonly original: string,
    /** Paths with changes before any task ran, kept out of every commit and undo (`uncommitted: keep-out`). */
    private readonly notOurs: ReadonlySet<string>,
    /** `.git/` as the run found it, put back before each of Converge's own git calls (`git-dir-seal.ts`). */
    private readonly seal: GitDirSeal,
    /** The branch's head as Converge last left it: a commit on top of it that Converge did not make is undone. */
    private expectedHead: string,
  ) {}

  /**
   * Checks out the work branch in `repoDir`: the remote's copy when an earlier run pushed one (so a rerun
   * continues from the commits it made), else a new branch from the checked-out commit. Uncommitted changes
   * in the working tree are carried over (git refuses, and so do we, when they conflict).
   */
  static async prepare(options: WorkBranchOptions): Promise<WorkBranch> {
    const { repoDir, branch, remote } = options
    const existing = (await changedPaths(repoDir)).map((c) => c.path)
    if (existing.length > 0 && (options.uncommitted ?? 'refuse') === 'refuse') throw new UncommittedWorkError(existing)
    const original = (await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], repoDir).catch(() => '')).trim() || (await git(['rev-parse', 'HEAD'], repoDir)).trim()
    let start = 'HEAD'
    let pushed = false
    if (remote) {
      const tracking = `refs/converge/remote/${branch}`
      try {
        await fetchSealed(repoDir, remote, `refs/heads/${branch}`, tracking)
        start = tracking
        pushed = true
      } catch (error) {
        if (!(error instanceof GitError && /couldn't find remote ref/i.test(error.stderr))) throw fetchError(branch, remote, error)
      }
    }
    const current = await resolveRef(repoDir, `refs/heads/${branch}`)
    const startOid = await resolveRef(repoDir, start)
    // Without a remote, an existing branch is the work so far: kept as it is. With one, the pushed branch
    // wins, unless the local one is ahead of it (a run in this checkout that could not push keeps its commits).
    const reset = current === null || (pushed && startOid !== null && current !== startOid && !(await isAncestor(repoDir, startOid, current)))
    if (reset) {
      await git(['checkout', '--quiet', '-B', branch, start], repoDir)
    } else {
      await git(['checkout', '--quiet', branch], repoDir)
    }
    const head = (await git(['rev-parse', 'HEAD'], repoDir)).trim()
    return new WorkBranch(options, pushed, original, new Set(existing), await GitDirSeal.take(repoDir), head)
  }

  /**
   * Takes `.git/` back after an executor ran: its config, info and hooks as the run found them, no index flag, and
   * any commit it made (or branch it checked out) turned back into uncommitted changes on the work branch.
   */
  settle(): Promise<Restored> {
    return this.inTurn(() => this.seal.restore(this.options.branch, this.expectedHead))
  }

  /** The task's changed paths, as its commit would take them (see the header), `.git/` settled first. */
  taskPaths(task: { files: ReadonlyArray<{ path: string }> }, othersRunning: ReadonlyArray<{ files: ReadonlyArray<{ path: string }> }>): Promise<string[]> {
    return this.inTurn(async () => {
      await this.seal.restore(this.options.branch, this.expectedHead)
      return (await this.attributed(task, othersRunning)).map((c) => c.path)
    })
  }

  /** Checks out again what was checked out before {@link prepare} (uncommitted changes kept-out stay as they are). */
  async leave(): Promise<void> {
    await this.inTurn(async () => {
      await this.seal.restore(this.options.branch, this.expectedHead)
      await git(['checkout', '--quiet', this.original], this.options.repoDir)
    })
  }

  get name(): string {
    return this.options.branch
  }

  /** Whether the branch exists on the remote, so a pull request can be opened for it. */
  get published(): boolean {
    return this.pushed
  }

  async head(): Promise<string> {
    return (await git(['rev-parse', 'HEAD'], this.options.repoDir)).trim()
  }

  /**
   * Commits the task's changes (see the header for which paths are the task's) as `T2: <title> (ISS-42)`
   * and pushes the branch. Null when the task changed nothing.
   */
  commitTask(
    task: { id: string; title: string; files: ReadonlyArray<{ path: string }> }, issue: number,
    othersRunning: ReadonlyArray<{ files: ReadonlyArray<{ path: string }> }>,
    /** The content its checks ran on (`fingerprint`): exactly these paths are committed, and only with it. */
    checked?: ReadonlyMap<string, Content>,
  ): Promise<TaskCommit | null> {
    return this.inTurn(async () => {
      const { repoDir } = this.options
      await this.seal.restore(this.options.branch, this.expectedHead)
      const own = task.files.map((f) => normalisePath(f.path))
      let changes = await this.attributed(task, othersRunning)
      if (checked) changes = changes.filter((c) => checked.has(c.path))
      if (changes.length === 0) return null
      const paths = changes.map((c) => c.path)
      const undeclared = paths.filter((path) => !covers(own, path))
      const refused = undeclared.filter(isUnexpectedPath)
      if (refused.length) throw new UndeclaredChangeError(refused)
      const env = { ...identityEnv(this.options.identity), GIT_LITERAL_PATHSPECS: '1' }
      // A deletion the executor staged itself (`git rm`) is no longer a path `git add` can match.
      const toAdd = changes.filter((c) => !c.deletedInIndex).map((c) => c.path)
      if (toAdd.length > 0) await git(['add', '--all', '--pathspec-from-file=-', '--pathspec-file-nul'], repoDir, env, nulList(toAdd))
      if (checked) await this.verifyStaged(paths, checked)
      const pathspec = nulList(paths)
      const subject = `${task.id}: ${oneLine(task.title)} (ISS-${issue})`
      // --only: exactly these paths, whatever else an executor may have staged.
      await git(['commit', '--quiet', '--no-verify', '--only', '-m', subject, '--pathspec-from-file=-', '--pathspec-file-nul'], repoDir, env, pathspec)
      // Converge's own commit: kept when the push fails, as the next task's settle would otherwise undo it.
      this.expectedHead = (await git(['rev-parse', 'HEAD'], repoDir)).trim()
      await this.push()
      // After the push: a push that had to rebase onto other jobs' commits made the commit anew.
      const commit = (await git(['rev-parse', 'HEAD'], repoDir)).trim()
      this.expectedHead = commit
      const tree = (await git(['rev-parse', 'HEAD^{tree}'], repoDir)).trim()
      return { commit, tree, files: paths, undeclared, stats: await commitFileStats(repoDir, commit) }
    })
  }

  /** Refuses a commit whose staged content is not what the task's checks ran on (verified ≠ committed). */
  private async verifyStaged(paths: readonly string[], checked: ReadonlyMap<string, Content>): Promise<void> {
    const moved = await stagedOtherThan(this.options.repoDir, paths, checked)
    if (moved.length === 0) return
    await git(['reset', '--quiet', '--pathspec-from-file=-', '--pathspec-file-nul'], this.options.repoDir, { GIT_LITERAL_PATHSPECS: '1' }, nulList(paths)).catch(() => undefined)
    throw new WorkBranchError(`${moved.join(', ')} changed after the task's checks ran: what would be committed is not what was verified, so nothing was committed`)
  }

  /** The changed paths that are the task's: under its own files, or under no other running task's. */
  private async attributed(task: { files: ReadonlyArray<{ path: string }> }, othersRunning: ReadonlyArray<{ files: ReadonlyArray<{ path: string }> }>): Promise<Change[]> {
    const own = task.files.map((f) => normalisePath(f.path))
    const others = othersRunning.flatMap((t) => t.files.map((f) => normalisePath(f.path)))
    return (await this.changes()).filter((c) => covers(own, c.path) || !covers(others, c.path))
  }

  /**
   * Puts back what a task that did not converge (or was interrupted) changed, as the branch has it: it leaves
   * nothing behind for the next task's commit, or the next run, to pick up. Its declared paths always; changes
   * outside every declared file too when no other task is running (while one is, they may be its work in progress).
   * Changes that were there before any task ran stay.
   */
  discardTask(task: { files: ReadonlyArray<{ path: string }> }, othersRunning: ReadonlyArray<{ files: ReadonlyArray<{ path: string }> }>): Promise<void> {
    return this.inTurn(async () => {
      const { repoDir } = this.options
      await this.seal.restore(this.options.branch, this.expectedHead)
      const own = task.files.map((f) => normalisePath(f.path))
      const others = othersRunning.flatMap((t) => t.files.map((f) => normalisePath(f.path)))
      const alone = othersRunning.length === 0
      const changes = (await this.changes()).filter((c) => alone || (covers(own, c.path) && !covers(others, c.path)))
      const tracked = changes.filter((c) => !c.untracked).map((c) => c.path)
      const env = { GIT_LITERAL_PATHSPECS: '1' }
      if (tracked.length > 0) await git(['checkout', '--quiet', 'HEAD', '--pathspec-from-file=-', '--pathspec-file-nul'], repoDir, env, nulList(tracked))
      for (const change of changes.filter((c) => c.untracked)) await rm(join(repoDir, change.path), { force: true, recursive: true })
    })
  }

  /**
   * Pushes the branch (never forced): a remote that moved meanwhile is an error, not overwritten — unless
   * `pushRetries` allows rebasing onto it (see the option).
   */
  private async push(): Promise<void> {
    const { remote, repoDir, branch } = this.options
    if (!remote) return
    const retries = this.options.pushRetries ?? 0
    for (let attempt = 0; ; attempt++) {
      try {
        await pushSealed(repoDir, remote, (await git(['rev-parse', 'HEAD'], repoDir)).trim(), `refs/heads/${branch}`)
        this.pushed = true
        return
      } catch (error) {
        // A push that lost the race inside the server (both passed its fast-forward check) fails to lock the ref.
        const moved = /non-fast-forward|fetch first|rejected|cannot lock ref|failed to update ref/i.test(error instanceof GitError ? error.stderr : String(error))
        if (!moved || attempt >= retries) throw pushError(branch, remote, error, moved)
      }
      const unit = this.options.pushRetryUnitMs ?? 250
      await sleep(Math.random() * Math.min(8_000, unit * 2 ** (attempt + 1)))
      await this.rebaseOntoRemote()
    }
  }

  /** Replays this checkout's commits that the remote branch lacks onto its tip (fetched anew). */
  private async rebaseOntoRemote(): Promise<void> {
    const { remote, repoDir, branch, identity } = this.options
    const tracking = `refs/converge/remote/${branch}`
    try {
      await fetchSealed(repoDir, remote!, `refs/heads/${branch}`, tracking)
    } catch (error) {
      throw fetchError(branch, remote!, error)
    }
    try {
      await git(['rebase', '--quiet', '--no-verify', tracking], repoDir, { ...identityEnv(identity), GIT_EDITOR: 'true' })
      this.expectedHead = (await git(['rev-parse', 'HEAD'], repoDir)).trim()
    } catch (error) {
      await git(['rebase', '--abort'], repoDir).catch(() => undefined)
      const detail = error instanceof GitError ? error.stderr : String(error)
      throw new WorkBranchError(`Could not push ${branch}: other jobs pushed commits that conflict with this one (${detail.trim()})`, error)
    }
  }

  /** The working tree's changes that are the tasks': not those that were there before any task ran. */
  private async changes(): Promise<Change[]> {
    return (await changedPaths(this.options.repoDir)).filter((c) => !this.notOurs.has(c.path))
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const mine = this.queue.then(work, work)
    this.queue = mine.catch(() => undefined)
    return mine
  }
}

function pushError(branch: string, remote: GitRemote, error: unknown, moved: boolean): WorkBranchError {
  const detail = error instanceof GitError ? error.stderr : String(error)
  return new WorkBranchError(
    moved
      ? `Could not push ${branch}: it moved on ${displayUrl(remote.url)} since this run fetched it (someone else pushed); rerun to continue from there`
      : `Could not push ${branch} to ${displayUrl(remote.url)}: ${detail}`,
    error,
  )
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

interface Change {
  path: string
  /** Staged as deleted (and not recreated since). */
  deletedInIndex: boolean
  untracked: boolean
}

/** Paths with changes in the working tree or index, relative to the repository root. */
async function changedPaths(repoDir: string): Promise<Change[]> {
  const out = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames'], repoDir)
  return out
    .split('\0')
    .filter((entry) => entry.length > 3)
    .map((entry) => ({ path: entry.slice(3), deletedInIndex: entry[0] === 'D' && entry[1] === ' ', untracked: entry.startsWith('??') }))
}

const nulList = (paths: readonly string[]) => `${paths.join('\0')}\0`

/** Whether `path` is one of `declared` or inside one of them (a declared directory). */
function covers(declared: readonly string[], path: string): boolean {
  return declared.some((d) => path === d || path.startsWith(d.endsWith('/') ? d : `${d}/`))
}

async function isAncestor(repoDir: string, ancestor: string, descendant: string): Promise<boolean> {
  try {
    await git(['merge-base', '--is-ancestor', ancestor, descendant], repoDir)
    return true
  } catch (error) {
    if (error instanceof GitError && error.exitCode === 1) return false
    throw error
  }
}

/** A local git command in the checkout: no hook, fsmonitor or signing program an agent planted runs inside it. */
async function git(args: string[], cwd: string, env?: Record<string, string>, input?: string): Promise<string> {
  const { stdout } = await runGit([...NO_CHECKOUT_PROGRAMS, ...args], { cwd, ...(env ? { env } : {}), ...(input !== undefined ? { input } : {}) })
  return stdout
}

function fetchError(branch: string, remote: GitRemote, error: unknown): WorkBranchError {
  const detail = error instanceof GitError ? error.stderr : String(error)
  return new WorkBranchError(`Could not fetch ${branch} from ${displayUrl(remote.url)}: ${detail}`, error)
}

/** A URL without any credentials in it, for messages. */
function displayUrl(url: string): string {
  const parsed = new URL(url)
  parsed.username = ''
  parsed.password = ''
  return parsed.toString()
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 72 ? `${line.slice(0, 71)}…` : line
}
