/**
 * The work branch of a run (`git/work-branch.ts`) as every host uses it: checked out when the run's tasks start
 * (after the gate and the run lock, never before), the committer of its tasks meanwhile, and left again after.
 */
import { runGit, type GitIdentity } from '../git/git.js'
import { WorkBranch, type GitRemote } from '../git/work-branch.js'
import { workBranchName } from '../model/state-layout.js'
import type { TaskCommitter } from './run-task.js'

export interface RunBranchOptions {
  n: number
  repoDir: string
  /** Where it is pushed; absent in local mode (commits stay in the repository). */
  remote?: GitRemote
  /** Who the commits are by; a function when that takes git to find out (the CLI's user). */
  identity: GitIdentity | (() => Promise<GitIdentity>)
  /** Uncommitted changes found in the checkout stay out of every task's commit (else: refused). */
  allowDirty?: boolean
  /** `WorkBranch`'s `pushRetries`: for matrix jobs pushing to one branch at once. */
  pushRetries?: number
  /**
   * Refuse a task's commit when another branch is checked out (a git command of the user's, meanwhile): the task
   * fails instead of committing there.
   */
  commitOnBranchOnly?: boolean
}

export class RunBranch {
  private branch: WorkBranch | undefined

  constructor(private readonly options: RunBranchOptions) {}

  get name(): string {
    return workBranchName(this.options.n)
  }

  /** The branch, once {@link prepare} checked it out. */
  get checkedOut(): WorkBranch | undefined {
    return this.branch
  }

  /** Checks out the work branch (`WorkBranch.prepare`): a host's `beforeTasks`. */
  async prepare(): Promise<void> {
    const { repoDir, remote, identity, pushRetries } = this.options
    this.branch = await WorkBranch.prepare({
      repoDir, branch: this.name, ...(remote ? { remote } : {}),
      identity: typeof identity === 'function' ? await identity() : identity,
      ...(pushRetries !== undefined ? { pushRetries } : {}),
      uncommitted: this.options.allowDirty ? 'keep-out' : 'refuse',
    })
  }

  /** Checks out again what was checked out before {@link prepare}, if it ran. */
  async leave(): Promise<void> {
    await this.branch?.leave()
  }

  /** The work branch as the tasks' committer, looked up when a task needs it (it is checked out once the run starts). */
  committer(): TaskCommitter {
    const branch = () => this.branch!
    return {
      commitTask: async (task, issue, others, checked) => {
        if (this.options.commitOnBranchOnly) await onBranch(this.options.repoDir, this.name)
        return branch().commitTask(task, issue, others, checked)
      },
      discardTask: (task, others) => branch().discardTask(task, others),
      settle: () => branch().settle(),
      taskPaths: (task, others) => branch().taskPaths(task, others),
      head: () => branch().head(),
    }
  }
}

/** Refuses a commit anywhere but on the work branch. */
async function onBranch(repoDir: string, workBranch: string): Promise<void> {
  const current = (await runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd: repoDir }).catch(() => undefined))?.stdout.trim()
  if (current !== workBranch) throw new Error(`${current ? `${current} is` : 'no branch is'} checked out in ${repoDir}, not ${workBranch}: Converge commits on ${workBranch} only`)
}
