/** The state branch (SPEC §4) in a local git repository, written with plumbing only (SPEC §10). */
import { commitTree } from '../git/commit-tree.js'
import { CONVERGE_IDENTITY, type GitIdentity, GitError } from '../git/git.js'
import { readFiles } from '../git/read-files.js'
import { compareAndSwapRef, resolveRef } from '../git/refs.js'
import { assertTreePath } from '../git/tree-path.js'
import { writeTree } from '../git/write-tree.js'
import { DEFAULT_STATE_BRANCH } from '../model/state-layout.js'
import { type StateChange, type StateSnapshot, type StateStore, StaleHeadError } from './store.js'

export interface LocalGitStoreOptions {
  /** A repository (bare or not) or a directory inside one. */
  repoDir: string
  branch?: string
  /** Author and committer of state commits. */
  identity?: GitIdentity
}

/** Update-ref attempts while the ref stays at the expected head but is locked by a writer whose swap failed. */
const LOCKED_REF_ATTEMPTS = 5

/**
 * Commits go to `refs/heads/<branch>` without touching the working tree, the index or HEAD: blobs, a tree
 * built in a temporary index, a commit object, then a compare-and-swap `update-ref`, which is what makes each
 * commit atomic among any number of concurrent writers (processes included).
 */
export class LocalGitStore implements StateStore {
  readonly branch: string
  private readonly repoDir: string
  private readonly ref: string
  private readonly identity: GitIdentity

  constructor(options: LocalGitStoreOptions) {
    this.repoDir = options.repoDir
    this.branch = options.branch ?? DEFAULT_STATE_BRANCH
    this.ref = `refs/heads/${this.branch}`
    this.identity = options.identity ?? CONVERGE_IDENTITY
  }

  async snapshot(prefetch: readonly string[] = []): Promise<StateSnapshot> {
    const snapshot = new LocalGitSnapshot(this.repoDir, await resolveRef(this.repoDir, this.ref))
    await snapshot.prefetch(prefetch)
    return snapshot
  }

  async commit(change: StateChange, expectedHead: string | null): Promise<string> {
    for (const path of Object.keys(change.files)) assertTreePath(path)
    let commit: string
    try {
      commit = await commitTree(this.repoDir, {
        tree: await writeTree(this.repoDir, expectedHead, change.files),
        parent: expectedHead,
        message: change.message,
        identity: this.identity,
      })
    } catch (error) {
      // An expected head that is not a commit here (made up, or from another repository) is not the head either.
      await this.throwIfMoved(expectedHead)
      throw error
    }
    await this.moveBranch(commit, expectedHead, change.message)
    return commit
  }

  /** Points the branch at `commit` if it is still at `expectedHead`; the commit stays unreferenced otherwise. */
  private async moveBranch(commit: string, expectedHead: string | null, message: string): Promise<void> {
    const reason = `converge: ${message.split('\n', 1)[0]}`
    for (let attempt = 1; ; attempt++) {
      try {
        const update = { ref: this.ref, newOid: commit, oldOid: expectedHead, reason, identity: this.identity }
        await compareAndSwapRef(this.repoDir, update)
        return
      } catch (error) {
        if (!(error instanceof GitError)) throw error
        await this.throwIfMoved(expectedHead)
        // Still at the expected head: the ref was locked by a writer whose own swap then failed. Try again.
        if (attempt >= LOCKED_REF_ATTEMPTS) throw error
        await new Promise((resolve) => setTimeout(resolve, 10 * attempt))
      }
    }
  }

  private async throwIfMoved(expectedHead: string | null): Promise<void> {
    const actual = await resolveRef(this.repoDir, this.ref)
    if (actual !== expectedHead) throw new StaleHeadError(this.branch, expectedHead, actual)
  }
}

/** Files at one commit, each read from git at most once. */
class LocalGitSnapshot implements StateSnapshot {
  private readonly files = new Map<string, Promise<string | undefined>>()

  constructor(
    private readonly repoDir: string,
    readonly head: string | null,
  ) {}

  /** Reads `paths` in one git call. */
  async prefetch(paths: readonly string[]): Promise<void> {
    for (const path of paths) assertTreePath(path)
    const unread = [...new Set(paths)].filter((path) => !this.files.has(path))
    if (unread.length === 0 || this.head === null) return
    const batch = readFiles(this.repoDir, this.head, unread)
    for (const path of unread) this.files.set(path, batch.then((files) => files.get(path)))
    await batch
  }

  async read(path: string): Promise<string | undefined> {
    assertTreePath(path)
    if (this.head === null) return undefined
    let file = this.files.get(path)
    if (!file) {
      file = readFiles(this.repoDir, this.head, [path]).then((files) => files.get(path))
      this.files.set(path, file)
    }
    return file
  }
}
