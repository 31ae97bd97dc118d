/**
 * The differential runs (SPEC §7 "Evidence integrity"): a task that changed what its own checks read proves itself
 * only if those checks, as it leaves them, would have failed without its code — and if the checks it found still
 * pass. The task's change is split into its check side (`model/check-files.ts`) and its code side; then
 * - **forward**: the commands on the end state with the code side put back as it was: they must fail (a vacuous new
 *   test, a skipped test, an `exit 0` script or a shim passes here);
 * - **reverse**: the commands on the end state with the check files that existed before put back: they must pass
 *   (an assertion rewritten to expect the new output, a deleted or skipped test, fails here).
 * Each runs in a tree of its own (`git/task-change.ts` materialize), so the checkout, where other tasks may be
 * running, is never touched. When the check side did not change, the baseline is the forward run: nothing runs.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runCommand } from '../processes/run-command.js'
import { existsIn, materialize, textIn, variantTree, type Content, type IgnoredChange, type Variant } from '../git/task-change.js'
import { checkSideRole, manifestChecksDiffer, scriptPathsOf } from '../model/check-files.js'
import type { CheckFile, EvidenceRun } from '../model/index.js'
import { evidenceRun } from './baseline.js'
import type { CheckMemo } from './check-memo.js'

/** The task's change as its checks saw it. */
export interface TaskChange {
  /** The work branch's head the change is measured against. */
  head: string
  /** Its paths in the commit-able tree, with their checked content (null: deleted). */
  files: ReadonlyMap<string, Content>
  /** Ignored files the executor created, changed or deleted (no commit holds them). */
  ignored: readonly IgnoredChange[]
}

/** Where the commands run and with what: their environment, timeout and secrets, as the task's checks had them. */
export interface DifferentialLaunch {
  repoDir: string
  commands: readonly string[]
  env: Record<string, string>
  timeoutMs: number
  secrets: readonly string[]
  signal?: AbortSignal
  /** The run's results by content: a command whose result on a variant's exact content is known is not run. */
  memo?: CheckMemo
}

export interface Differential {
  checkFiles: CheckFile[]
  forward?: EvidenceRun[]
  reverse?: EvidenceRun[]
}

/** The check files of a change: each changed file on the check side, with what it is. */
export async function checkFilesOf(change: TaskChange, repoDir: string, commands: readonly string[]): Promise<CheckFile[]> {
  const manifestNow = change.files.has('package.json') ? await readFile(join(repoDir, 'package.json'), 'utf8').catch(() => undefined) : undefined
  const manifestBefore = await textIn(repoDir, change.head, 'package.json')
  const scripts = scriptPathsOf(commands, { ...manifestScripts(manifestBefore), ...manifestScripts(manifestNow) })
  const files: CheckFile[] = []
  for (const [path, content] of change.files) {
    const role = checkSideRole({ path, ignored: false, manifestChecksChanged: path === 'package.json' && manifestChecksDiffer(manifestBefore, manifestNow) }, scripts)
    if (!role) continue
    const change_ = content === null ? 'deleted' : (await existsIn(repoDir, change.head, path)) ? 'changed' : 'created'
    files.push({ path, change: change_, role })
  }
  for (const { path, change: kind } of change.ignored) files.push({ path, change: kind, role: checkSideRole({ path, ignored: true }, scripts)! })
  return files
}

/** Runs the forward and, when check files that existed before changed, the reverse run. */
export async function differentialRuns(change: TaskChange, launch: DifferentialLaunch): Promise<Differential> {
  const checkFiles = await checkFilesOf(change, launch.repoDir, launch.commands)
  if (checkFiles.length === 0 || launch.commands.length === 0) return { checkFiles }
  const checkPaths = new Set(checkFiles.map((f) => f.path))
  const forwardOverlay = new Map([...change.files].filter(([path]) => checkPaths.has(path)))
  const forward = await runIn(launch, change.head, forwardOverlay)
  const existing = new Set(checkFiles.filter((f) => f.change !== 'created' && change.files.has(f.path)).map((f) => f.path))
  if (existing.size === 0 || !forward) return { checkFiles, ...(forward ? { forward } : {}) }
  const reverse = await runIn(launch, change.head, new Map([...change.files].filter(([path]) => !existing.has(path))))
  return { checkFiles, forward, ...(reverse ? { reverse } : {}) }
}

/**
 * The commands on `head` with `overlay`, in a tree of their own; undefined when cancelled. A command whose result
 * on exactly this content is known (the task's own checks, when the variant is what they ran on) is not run again,
 * and the tree is laid out only when a command has to run.
 */
async function runIn(launch: DifferentialLaunch, head: string, overlay: ReadonlyMap<string, Content>): Promise<EvidenceRun[] | undefined> {
  const tree = await variantTree(launch.repoDir, head, overlay)
  const key = await launch.memo?.keyOf(tree)
  let variant: Variant | undefined
  try {
    const runs: EvidenceRun[] = []
    for (const command of launch.commands) {
      const known = key ? await launch.memo!.known(command, key) : undefined
      if (known) {
        runs.push(known)
        continue
      }
      variant ??= await materialize(launch.repoDir, tree)
      const result = await runCommand({
        command, cwd: variant.dir, env: launch.env, timeoutMs: launch.timeoutMs, secrets: launch.secrets,
        ...(launch.signal ? { signal: launch.signal } : {}),
      })
      if (result.aborted) return undefined
      runs.push(evidenceRun(command, result))
    }
    return runs
  } finally {
    await variant?.dispose()
  }
}

function manifestScripts(text: string | undefined): Record<string, string> {
  try {
    const scripts = (JSON.parse(text ?? '{}') as { scripts?: unknown }).scripts
    if (!scripts || typeof scripts !== 'object') return {}
    return Object.fromEntries(Object.entries(scripts).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
  } catch {
    return {}
  }
}
