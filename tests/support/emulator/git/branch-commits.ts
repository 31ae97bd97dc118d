import type { GitStore, Signature, TreeChange } from './git-store.js'

export interface FileChanges {
  additions: ReadonlyArray<{ path: string; content: Buffer }>
  deletions: readonly string[]
}

export interface BranchCommitRequest {
  /** short branch name, e.g. `main` */
  branch: string
  /** the head the writer read; omitted: commit on whatever the head is */
  expectedHead?: string
  /** create the branch (as an orphan commit) when it does not exist */
  createIfMissing?: boolean
  changes: FileChanges
  message: string
  author: Signature
}

export type BranchCommitResult =
  | { outcome: 'committed'; sha: string; parent: string | null }
  | { outcome: 'missing-branch' }
  | { outcome: 'stale'; head: string }
  | { outcome: 'missing-path'; path: string; head: string }

/**
 * Commits file changes on a branch as one compare-and-swap: the head check, the commit and the ref move happen
 * while the branch's lock is held, and the ref moves with `git update-ref <ref> <new> <old>`.
 */
export function commitToBranch(git: GitStore, request: BranchCommitRequest): Promise<BranchCommitResult> {
  const ref = `refs/heads/${request.branch}`
  return git.withRefLock(ref, async (): Promise<BranchCommitResult> => {
    const head = await git.resolveRef(ref)
    if (head === null && !request.createIfMissing) return { outcome: 'missing-branch' }
    if (head !== null && request.expectedHead !== undefined && head !== request.expectedHead) {
      return { outcome: 'stale', head }
    }
    for (const path of request.changes.deletions) {
      if (head === null || (await git.readObject(`${head}:${path}`)) === null) {
        return { outcome: 'missing-path', path, head: head ?? '' }
      }
    }
    const sha = await writeFileCommit(git, { parent: head, changes: request.changes, message: request.message, author: request.author })
    if (!(await git.compareAndSwapRef(ref, sha, head))) {
      return { outcome: 'stale', head: (await git.resolveRef(ref)) ?? '' }
    }
    return { outcome: 'committed', sha, parent: head }
  })
}

/** Writes a commit of `changes` on top of `parent` (an orphan when null) without moving any ref; returns its sha. */
export async function writeFileCommit(
  git: GitStore,
  commit: { parent: string | null; changes: FileChanges; message: string; author: Signature },
): Promise<string> {
  const changes: TreeChange[] = commit.changes.deletions.map((path) => ({ path, delete: true as const }))
  for (const addition of commit.changes.additions) {
    changes.push({ path: addition.path, mode: '100644', type: 'blob', sha: await git.writeBlob(addition.content) })
  }
  const tree = await git.writeTree(commit.parent, changes)
  const parents = commit.parent === null ? [] : [commit.parent]
  return git.writeCommit({ tree, parents, message: commit.message, author: commit.author })
}
