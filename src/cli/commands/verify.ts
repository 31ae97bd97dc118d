/**
 * `converge verify --number <n>`: the approved plan's checks, run on the work branch's content where the project's
 * dependencies are (SPEC §10): in the working tree of --repo when it is clean (the work branch checked out for the
 * checks, then the user's branch again, as execute does), else in a checkout of its own, prepared by the issue's
 * setup command (`--setup 'npm ci'`, given once and kept in issue.json). Without a work branch: the working tree as
 * it is (work a person did). A check that cannot start for a missing program changes nothing recorded; the answer
 * names the program and the fix.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { executorEnvironment } from '../../processes/environment.js'
import { runGit } from '../../git/git.js'
import { WorkBranch } from '../../git/work-branch.js'
import { verifyIssue } from '../../pipeline/run-plan.js'
import { recordSetupCommand, runSetup, setupCommandOf } from '../../pipeline/setup-command.js'
import { removeRunFolder, verifyRunRequest } from '../run-request.js'
import { runOf } from '../../pipeline/run-request.js'
import { progressIo, type Output } from '../output.js'
import { progressLines } from '../progress.js'
import { hasBranch, userIdentity } from '../repository.js'
import { unprovenLine } from '../terminal-report.js'
import { printResult, required, storeOf, type IssueArgs } from './issue.js'
import { workBranchName } from '../../model/state-layout.js'

export interface VerifyArgs extends IssueArgs {
  maxParallel: number
  timeoutMinutes: number
  /** The setup command given now (recorded for the next verify). */
  setup?: string
  signal?: AbortSignal
}

/** Where the checks run, and how to say so. */
interface Place {
  dir: string
  /** `<work branch> at 1a2b3c4 in your working tree (…)` */
  where: string
  /** The work branch checked, when there is one. */
  branch?: string
  before?: () => Promise<void>
  after: () => Promise<void>
  /** What to do when a check's program is missing there. */
  fix: string
}

export async function verifyCommand(args: VerifyArgs, output: Output): Promise<number> {
  const n = required(args.number, 'verify')
  const store = await storeOf(args)
  const repoDir = resolve(args.repo)
  if (args.setup !== undefined) await recordSetupCommand(store, n, args.setup, new Date().toISOString())
  const setup = args.setup ?? (await setupCommandOf(store, n))
  const workBranch = workBranchName(n)
  const place = await placeOf(n, repoDir, workBranch, setup, args.timeoutMinutes * 60_000, args.signal)
  const progress = progressLines(progressIo(output))
  const request = verifyRunRequest(args, place.dir, place.fix, progress)
  try {
    const { options } = runOf(request, n, { commit: false, before: place.before })
    const result = await verifyIssue(store, n, options).finally(() => progress.close())
    await place.after()
    const code = await printResult(n, repoDir, result, output, place.branch)
    if (result.ok && !output.json) output.io.out(`\nChecked ${place.where}.`)
    const unproven = result.ok && !output.json ? unprovenLine(result.record) : undefined
    if (unproven) output.io.out(unproven)
    return code
  } finally {
    await place.after()
    await removeRunFolder(request)
  }
}

async function placeOf(n: number, repoDir: string, branch: string, setup: string | undefined, timeoutMs: number, signal?: AbortSignal): Promise<Place> {
  const setupFix = `give the command that installs them, once: converge verify --number ${n} --setup '<command>' (npm ci, pip install -r requirements.txt, …)`
  if (!(await hasBranch(repoDir, branch)))
    return { dir: repoDir, where: `the working tree of ${repoDir} (there is no ${branch})`, after: async () => {}, fix: `Install the project's dependencies in ${repoDir}, then verify again` }
  const commit = (await runGit(['rev-parse', '--short=7', branch], { cwd: repoDir })).stdout.trim()
  if (setup !== undefined) {
    const tree = await temporaryCheckout(repoDir, branch)
    return {
      dir: tree.dir, branch,
      where: `${branch} at ${commit} in a checkout of its own, prepared with \`${setup}\``,
      before: () => runSetup(setup, { cwd: tree.dir, env: executorEnvironment(process.env), timeoutMs, ...(signal ? { signal } : {}) }),
      after: tree.remove,
      fix: `The setup command \`${setup}\` did not install it: give one that does: converge verify --number ${n} --setup '<command>'`,
    }
  }
  if ((await runGit(['status', '--porcelain'], { cwd: repoDir })).stdout.trim() === '') {
    let checkedOut: WorkBranch | undefined
    return {
      dir: repoDir, branch,
      where: `${branch} at ${commit} in your working tree (checked out for the checks, then your branch again)`,
      // After the run is recorded as started (one run of a plan at a time): an execute in this working tree is not
      // running. prepare refuses changes that appeared meanwhile.
      before: async () => {
        checkedOut = await WorkBranch.prepare({ repoDir, branch, identity: await userIdentity(repoDir) })
      },
      after: async () => {
        await checkedOut?.leave()
        checkedOut = undefined
      },
      fix: `Install the project's dependencies in ${repoDir} and verify again, or ${setupFix}`,
    }
  }
  const tree = await temporaryCheckout(repoDir, branch)
  return {
    dir: tree.dir, branch,
    where: `${branch} at ${commit} in a checkout of its own (your working tree has changes of its own), without what git does not track there`,
    after: tree.remove,
    fix: `Verify from a clean working tree of ${repoDir}, where they are installed (commit or stash your changes), or ${setupFix}`,
  }
}

/** A detached checkout of `branch` in a temporary folder (a git worktree); `remove` is safe to call twice. */
async function temporaryCheckout(repoDir: string, branch: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-verify-'))
  await runGit(['worktree', 'add', '--quiet', '--detach', dir, branch], { cwd: repoDir })
  let removed = false
  return {
    dir,
    remove: async () => {
      if (removed) return
      removed = true
      await runGit(['worktree', 'remove', '--force', dir], { cwd: repoDir }).catch(() => undefined)
      await rm(dir, { recursive: true, force: true })
    },
  }
}
