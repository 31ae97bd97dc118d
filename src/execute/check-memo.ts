/**
 * Results already known within a run (SPEC §7 "Evidence"): a command run on checkout content it already ran on is
 * not run again. Two tasks that start from one tree share their baseline; a task's baseline on the tree another
 * task's checks just ran on takes their result. Content is `contentKey`'s (tracked and untracked files, and the
 * ignored files' stamps); a run is kept only when the content was the same when it ended as when it began, and
 * never when it was killed or timed out. A differential run's tree that holds exactly what a run here ran on takes
 * its result too (a task that wrote only its checks: its forward tree is what its checks ran on).
 */
import { contentKey, contentKeyOf } from '../git/task-change.js'
import { runInconclusive, type EvidenceRun } from '../model/index.js'

export class CheckMemo {
  private readonly runs = new Map<string, Promise<EvidenceRun | undefined>>()

  constructor(private readonly repoDir: string) {}

  key(): Promise<string> {
    return contentKey(this.repoDir)
  }

  /** The key of a variant tree laid out from `tree` with the checkout's ignored files (`differential.ts`). */
  keyOf(tree: string): Promise<string> {
    return contentKeyOf(this.repoDir, tree)
  }

  /** The run of `command` on content `key` when it is known (or under way), else undefined; nothing is run. */
  async known(command: string, key: string): Promise<EvidenceRun | undefined> {
    return this.runs.get(runId(key, command))?.catch(() => undefined)
  }

  /**
   * The run of `command` on content `key`: the one known (or under way), else `run()`'s — kept for later when the
   * content did not change while it ran. `run` resolves undefined when it was cancelled.
   */
  async run(command: string, key: string, run: () => Promise<EvidenceRun | undefined>): Promise<EvidenceRun | undefined> {
    const id = runId(key, command)
    // Looked up and claimed in one step (no await between), so two tasks starting together share one run.
    const pending = this.runs.get(id)
    if (pending) {
      const known = await pending.catch(() => undefined)
      if (known) return known
    }
    let result: EvidenceRun | undefined
    const holds = run().then(async (ran) => {
      result = ran
      return ran && !runInconclusive(ran) && (await this.key()) === key ? ran : undefined
    })
    this.runs.set(id, holds)
    try {
      if (!(await holds)) this.runs.delete(id)
    } catch (error) {
      this.runs.delete(id)
      throw error
    }
    return result
  }

  /** Runs that ran on content `key`, as they were (the checks of a task), for a later run to take. */
  keep(key: string, runs: readonly EvidenceRun[]): void {
    for (const run of runs) if (!runInconclusive(run)) this.runs.set(runId(key, run.command), Promise.resolve(run))
  }
}

/** A command's run on one content. */
function runId(key: string, command: string): string {
  return `${key}\0${command}`
}
