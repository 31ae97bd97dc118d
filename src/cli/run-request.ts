/**
 * The run request of a CLI command (`pipeline/run-request.ts`): the one place the parsed options of `execute`,
 * `retry`, `execute-task` and `demo` become a run's policy, workspace and observers.
 */
import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { credentialValues, executorEnvironment } from '../processes/environment.js'
import { CONVERGE_IDENTITY, type GitIdentity } from '../git/git.js'
import type { RunObservers, RunRequest } from '../pipeline/run-request.js'
import { localHolder } from './local-run.js'
import { userIdentity } from './repository.js'

/** The options of a run as the CLI parses them (`command-table.ts`). */
export interface RunArgs {
  repo: string
  executor: string
  maxParallel?: number
  maxIterations: number
  maxRetries: number
  maxErrors?: number
  onFailure: 'retry' | 'skip' | 'abort'
  timeoutMinutes: number
  maxCostUsd?: number
  maxTurns?: number
  /** Uncommitted changes in --repo stay where they are, out of every task commit (else: refused). */
  allowDirty?: boolean
  /** `off`: no baseline before each task's executor (evidence `not-measured`). */
  evidence?: 'on' | 'off'
  signal?: AbortSignal
}

/** Where the run happens: the user's working tree (the default), or a place of its own (`demo`). */
export interface RunPlace {
  /**
   * A run of the whole plan in the user's working tree (`execute`, `retry`): it holds the plan (one run at a time)
   * and commits on its work branch only.
   */
  wholePlan?: boolean
  workRoot?: string
  executorEnv?: Record<string, string>
  identity?: GitIdentity
  /** How to install what a check could not find, where the checks run. */
  missingProgramFix?: string
}

export function cliRunRequest(args: RunArgs, observers: RunObservers = {}, place: RunPlace = {}): RunRequest {
  const repoDir = resolve(args.repo)
  // The executor is the user's agent CLI on the user's machine: it gets their environment (its API key), less what
  // GitHub's tokens are; values named like credentials are masked in everything recorded.
  const executorEnv = place.executorEnv ?? executorEnvironment(process.env)
  return {
    policy: {
      executorCommand: args.executor,
      maxParallel: args.maxParallel ?? 1,
      maxIterations: args.maxIterations,
      onFailure: args.onFailure,
      maxRetries: args.maxRetries,
      maxErrors: args.maxErrors ?? Number.POSITIVE_INFINITY,
      timeoutMs: args.timeoutMinutes * 60_000,
      measureEvidence: args.evidence !== 'off',
      maxTurns: args.maxTurns,
      maxCostUsd: args.maxCostUsd,
      allowDirty: args.allowDirty ?? false,
    },
    workspace: {
      repoDir,
      workRoot: place.workRoot ?? runFolder(),
      secrets: credentialValues(executorEnv),
      executorEnv,
      signal: args.signal,
      identity: place.identity ?? (() => userIdentity(repoDir)),
      // One execute of a plan at a time: a second one is refused, naming this process, until it ends (or dies).
      holder: place.wholePlan ? localHolder() : undefined,
      // A task's commit goes on the work branch only: were anything else checked out (a git command of the user's,
      // meanwhile), the task fails instead of committing there.
      commitOnBranchOnly: place.wholePlan,
      missingProgramFix: place.missingProgramFix,
    },
    observers,
  }
}

/** The work folders `cliRunRequest` named for its runs, until `removeRunFolder` removes them. */
const runFolders = new Set<string>()

/**
 * A folder of the run's own under the temporary folder (an unguessable name, made when a task first needs it), not one
 * shared by every run on the machine: an earlier run's agent output there was read as this run's.
 */
function runFolder(): string {
  const dir = join(tmpdir(), `converge-${randomBytes(8).toString('hex')}`)
  runFolders.add(dir)
  return dir
}

/**
 * Once its run has ended: removes the work folder `cliRunRequest` named for it (the attempts' briefs, agent outputs
 * and feedback; what the run found is recorded on the state branch), or else every run would leave one behind. A
 * folder the caller gave (the demo's) is the caller's.
 */
export async function removeRunFolder(request: RunRequest): Promise<void> {
  const dir = request.workspace.workRoot
  if (runFolders.delete(dir)) await rm(dir, { recursive: true, force: true })
}

/** The demo's runs (`commands/demo.ts`): two tasks at a time, three attempts each, a minute a command, in its own copy, as Converge. */
export function demoRunRequest(repo: string, workRoot: string, executor: string): RunRequest {
  const args = { repo, executor, maxParallel: 2, maxIterations: 3, maxRetries: 0, maxErrors: 3, onFailure: 'skip' as const, timeoutMinutes: 1 }
  return cliRunRequest(args, {}, { workRoot, executorEnv: {}, identity: CONVERGE_IDENTITY })
}

/** `verify`'s run: the checks alone, in `dir` (the user's working tree or a checkout of the work branch), with no credentials to mask. */
export function verifyRunRequest(args: { maxParallel: number; timeoutMinutes: number; signal?: AbortSignal }, dir: string, fix: string, observers: RunObservers): RunRequest {
  const run = { repo: dir, executor: 'none', maxParallel: args.maxParallel, maxIterations: 1, maxRetries: 0, onFailure: 'skip' as const, timeoutMinutes: args.timeoutMinutes }
  return cliRunRequest({ ...run, ...(args.signal ? { signal: args.signal } : {}) }, observers, { wholePlan: true, executorEnv: {}, missingProgramFix: fix })
}
