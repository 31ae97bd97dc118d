/**
 * What a run needs, grouped by what it is: the policy (the limits and choices a workflow author or CLI user sets),
 * the workspace (where it runs and with what) and the observers (who is told as it goes). Each host maps its inputs
 * to one request, once (`action/inputs.ts`, `cli/run-request.ts`); {@link runOf} turns it into the options of
 * `executeIssue`, `verifyIssue` and `executeTask`, with the work branch its tasks are committed to.
 */
import type { EvidenceSettings } from '../execute/baseline.js'
import type { GitIdentity } from '../git/git.js'
import type { GitRemote } from '../git/work-branch.js'
import type { ExecutionRecord, Solution, Task } from '../model/index.js'
import { RunBranch } from './run-branch.js'
import { systemClock } from './run-context.js'
import type { ExecuteOptions, PlanPolicy } from './run-plan.js'
import type { RunHolder } from './run-start.js'

/**
 * How a run behaves: what the workflow author or the CLI's user chose. Each field is declared where it is used —
 * a task's loop (`LoopPolicy`, `execute/task-loop.ts`), its rounds (`TaskPolicy`, `run-task.ts`), the run of the
 * plan (`PlanPolicy`, `run-plan.ts`), or here for what `runOf` reads — and the policy reaches each of them whole.
 */
export interface RunPolicy extends PlanPolicy {
  /** `false`: no baseline before each task's executor (evidence `not-measured`). */
  measureEvidence: boolean
  /** Uncommitted changes found in the checkout stay out of every task's commit (else: refused). */
  allowDirty: boolean
}

/** Where a run happens and with what: the checkout, scratch space, credentials, who commits and where to. */
export interface RunWorkspace {
  /** The checkout the tasks run in. */
  repoDir: string
  /** Scratch space for per-task files. */
  workRoot: string
  /** Values masked in everything recorded. */
  secrets: string[]
  /** Extra environment for the executor alone (its API keys). */
  executorEnv: Record<string, string>
  /** Cancellation (Ctrl-C, a cancelled job). */
  signal?: AbortSignal | undefined
  /** Who the work branch's commits are by (a function when that takes git to find out). */
  identity: GitIdentity | (() => Promise<GitIdentity>)
  /** Where the work branch is pushed; absent: it stays in the local repository. */
  remote?: GitRemote | undefined
  /** The run that holds the plan while it runs (the workflow run, the local process). */
  holder?: RunHolder | undefined
  /** How the host's user installs what a check could not find. */
  missingProgramFix?: string | undefined
  /** A task's commit is refused while another branch is checked out (the CLI, in the user's own working tree). */
  commitOnBranchOnly?: boolean | undefined
}

/** Who is told as a run goes. */
export interface RunObservers {
  /** The record after every finished task (check-run progress). */
  onProgress?: ((record: ExecutionRecord, plan: Solution) => void) | undefined
  /** A task starts (the CLI's live progress). */
  onTaskStart?: ((task: Task) => void) | undefined
  /** Each non-empty line a task's executor prints, secrets masked (the CLI's status line). */
  onOutput?: ((taskId: string, line: string) => void) | undefined
}

export interface RunRequest {
  policy: RunPolicy
  workspace: RunWorkspace
  observers: RunObservers
}

/** What one run of a request adds: whether its tasks are committed, what it retries, how evidence is measured. */
export interface RunOf {
  /** Commit converged tasks to the work branch (false: a dry run, or `verify`). */
  commit: boolean
  retry?: readonly string[] | 'failed' | undefined
  /** Baselines measured already (a pull request's base), instead of the policy's plain setting. */
  evidence?: EvidenceSettings | undefined
  /** Matrix jobs pushing to one branch at once rebase and push again this many times. */
  pushRetries?: number | undefined
  /** Runs once the run is recorded as started, before the work branch is checked out (the action's setup command). */
  before?: (() => Promise<void>) | undefined
}

/**
 * The pipeline's options for one run of `request` on issue `n`, and its work branch (checked out once the run
 * is recorded as started, after `run.before`).
 */
export function runOf(request: RunRequest, n: number, run: RunOf): { options: ExecuteOptions; branch: RunBranch } {
  const { policy, workspace, observers } = request
  const branch = new RunBranch({
    n, repoDir: workspace.repoDir, identity: workspace.identity, allowDirty: policy.allowDirty,
    ...(workspace.remote ? { remote: workspace.remote } : {}),
    ...(run.pushRetries !== undefined ? { pushRetries: run.pushRetries } : {}),
    ...(workspace.commitOnBranchOnly ? { commitOnBranchOnly: true } : {}),
  })
  const before = run.before
  const options: ExecuteOptions = {
    policy,
    repoDir: workspace.repoDir,
    workRoot: workspace.workRoot,
    secrets: workspace.secrets,
    now: systemClock,
    executorEnv: workspace.executorEnv,
    evidence: run.evidence ?? { measure: policy.measureEvidence },
    ...(run.retry ? { retry: run.retry } : {}),
    ...(workspace.signal ? { signal: workspace.signal } : {}),
    ...(workspace.holder ? { holder: workspace.holder } : {}),
    ...(workspace.missingProgramFix ? { missingProgramFix: workspace.missingProgramFix } : {}),
    ...(observers.onProgress ? { onProgress: observers.onProgress } : {}),
    ...(observers.onTaskStart ? { onTaskStart: observers.onTaskStart } : {}),
    ...(observers.onOutput ? { onOutput: observers.onOutput } : {}),
    ...(run.commit
      ? {
          // Before the work branch is checked out: what `before` leaves that git tracks is refused like any change a
          // step before Converge made, not committed with a task.
          beforeTasks: async () => {
            await before?.()
            await branch.prepare()
          },
          committer: branch.committer(),
        }
      : before ? { beforeTasks: before } : {}),
  }
  return { options, branch }
}
