/**
 * `verify` on a pull request (SPEC §5, §7): the plan's commands run once on the pull request's base — the baseline —
 * before they run on its head, so that its evidence says what the pull request changed: a check that passed on the
 * base already proves nothing about it.
 */
import { runBaseline } from '../execute/baseline.js'
import { checkoutCommit } from '../git/checkout.js'
import { runGit } from '../git/git.js'
import { NO_CHECKOUT_PROGRAMS, sealedLocalEnv } from '../git/sealed-remote.js'
import type { GitRemote } from '../git/work-branch.js'
import type { EvidenceRun, Solution } from '../model/index.js'

/**
 * Checks out the base, runs every task's commands there, and leaves the checkout at the base (the caller checks out
 * the head next). Only for an approved plan: its commands are what was approved.
 */
export async function pullRequestBaseline(
  repoDir: string, plan: Solution, base: { sha: string; ref: string },
  options: { remote?: GitRemote; issue: number; timeoutMs: number; secrets: readonly string[]; signal?: AbortSignal },
): Promise<Map<string, EvidenceRun[]>> {
  await checkoutCommit(repoDir, base.sha, { ...(options.remote ? { remote: options.remote } : {}), ref: `refs/heads/${base.ref}` })
  const baselines = new Map<string, EvidenceRun[]>()
  for (const task of plan.tasks)
    baselines.set(task.id, await runBaseline(task, {
      repoDir, issue: options.issue, timeoutMs: options.timeoutMs, secrets: options.secrets, ...(options.signal ? { signal: options.signal } : {}),
    }))
  // Put back what the commands changed in tracked files, so that the head can be checked out; with none of the
  // programs the base's commands may have planted in .git (hooks, fsmonitor, filter drivers).
  await runGit([...NO_CHECKOUT_PROGRAMS, 'checkout', '--quiet', '--', '.'], { cwd: repoDir, env: await sealedLocalEnv(repoDir, { own: true }) })
  return baselines
}

/** Whether two commits of the checkout hold different trees: whether the pull request changes any file. */
export async function treesDiffer(repoDir: string, base: string, head: string): Promise<boolean> {
  const tree = async (sha: string) => (await runGit(['rev-parse', `${sha}^{tree}`], { cwd: repoDir })).stdout.trim()
  return (await tree(base)) !== (await tree(head))
}
