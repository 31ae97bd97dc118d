/**
 * What a task's proof rests on (SPEC §7 "Evidence integrity"), gathered around each of its executor runs: the
 * ignored files it touched, `.git/` taken back after it (its commits, index flags, config and hooks), and the
 * content of its paths as its checks are about to run on them — which is exactly what its commit may hold.
 */
import { ignoredChanges, ignoredFiles, fingerprint, type Content, type IgnoredChange } from '../git/task-change.js'
import type { EvidenceRun, Task } from '../model/index.js'
import type { CheckMemo } from '../execute/check-memo.js'
import type { ExecutorGuard } from '../execute/task-loop.js'
import type { TaskChange } from '../execute/differential.js'

/** What of the work branch the proof needs: the parts of `WorkBranch` beyond committing. */
export interface ProofBranch {
  /** Takes `.git/` back after an executor ran (`WorkBranch.settle`). */
  settle(): Promise<unknown>
  /** The task's changed paths, as its commit would take them. */
  taskPaths(task: Task, othersRunning: readonly Task[]): Promise<string[]>
  head(): Promise<string>
}

export class TaskProof implements ExecutorGuard {
  private stamps: Map<string, string> | undefined
  private readonly ignored = new Map<string, IgnoredChange>()
  private checked: { head: string; files: Map<string, Content>; key?: string } | undefined

  constructor(
    private readonly repoDir: string,
    private readonly branch: ProofBranch,
    private readonly task: Task,
    private readonly othersRunning: () => Task[],
    private readonly memo?: CheckMemo,
  ) {}

  async before(): Promise<void> {
    this.stamps = await ignoredFiles(this.repoDir)
  }

  async after(): Promise<void> {
    await this.branch.settle()
    if (this.stamps) for (const change of ignoredChanges(this.stamps, await ignoredFiles(this.repoDir))) this.ignored.set(change.path, change)
    const paths = await this.branch.taskPaths(this.task, this.othersRunning())
    this.checked = { head: await this.branch.head(), files: await fingerprint(this.repoDir, paths), ...(this.memo ? { key: await this.memo.key() } : {}) }
  }

  /** Keeps the runs of the task's checks for later tasks, when the checkout still holds what they ran on. */
  async keepChecks(runs: readonly EvidenceRun[]): Promise<void> {
    const key = this.checked?.key
    if (this.memo && key && (await this.memo.key()) === key) this.memo.keep(key, runs)
  }

  /** The change the last checks ran on; undefined when no executor ran. */
  change(): TaskChange | undefined {
    return this.checked && { head: this.checked.head, files: this.checked.files, ignored: [...this.ignored.values()] }
  }
}
