import { randomUUID } from 'node:crypto'
import { assertTreePath } from '../git/tree-path.js'
import type { GitHubClient } from '../github/client.js'
import { blobText, refTarget } from '../github/repos.js'
import { StaleHeadError, withContext, type StateChange, type StateSnapshot, type StateStore } from './store.js'

export interface GitHubStoreOptions {
  client: GitHubClient
  owner: string
  repo: string
  branch: string
}

interface BlobNode { text: string | null; isTruncated: boolean; oid: string }

/**
 * The state branch in a GitHub repository. A snapshot is one GraphQL query (the head and every prefetched
 * file, read from that same commit); a commit is one `createCommitOnBranch` mutation whose
 * `expectedHeadOid` makes it a compare-and-swap. Only the first commit, which creates the orphan branch,
 * goes through the Git Data API (tree, commit, ref: three requests, once).
 */
export class GitHubStore implements StateStore {
  readonly branch: string
  private readonly client: GitHubClient
  private readonly owner: string
  private readonly repo: string

  constructor(options: GitHubStoreOptions) {
    this.client = options.client
    this.owner = options.owner
    this.repo = options.repo
    this.branch = options.branch
  }

  async snapshot(prefetch: readonly string[] = []): Promise<StateSnapshot> {
    return this.snapshotOf({ ref: `refs/heads/${this.branch}` }, prefetch).catch((error: unknown) => {
      throw withContext(error, `the state branch ${this.branch} could not be read`)
    })
  }

  /**
   * The commit a ref points to (or a given commit) and the files `paths` at it, in one query, so that the
   * head and the files belong together.
   */
  private async snapshotOf(at: { ref: string } | { oid: string }, paths: readonly string[], withText = true): Promise<StateSnapshot> {
    paths.forEach(assertTreePath)
    const vars = paths.map((_, i) => `, $p${i}: String!`).join('')
    const blob = withText ? 'text isTruncated oid' : 'oid'
    const files = paths.map((_, i) => `f${i}: file(path: $p${i}) { object { ... on Blob { ${blob} } } }`).join(' ')
    const commit = `oid ${files ? `... on Commit { ${files} }` : ''}`
    const query = 'ref' in at
      ? `query($owner: String!, $name: String!, $at: String!${vars}) { repository(owner: $owner, name: $name) { ref(qualifiedName: $at) { target { ${commit} } } } }`
      : `query($owner: String!, $name: String!, $at: GitObjectID!${vars}) { repository(owner: $owner, name: $name) { object(oid: $at) { ${commit} } } }`
    type Commit = { oid: string } & Record<string, { object: BlobNode | null } | null>
    const data = await this.client.graphql<{ repository: { ref?: { target: Commit } | null; object?: Commit | null } }>(query, {
      owner: this.owner,
      name: this.repo,
      at: 'ref' in at ? at.ref : at.oid,
      ...Object.fromEntries(paths.map((path, i) => [`p${i}`, path])),
    })
    // GitHub answers a query whose files are too large to send as text (tens of megabytes) with no data at all:
    // the same snapshot without their text, each file then read through the Git Data API.
    if (!data?.repository) {
      if (withText && paths.length) return this.snapshotOf(at, paths, false)
      throw new Error(`GitHub's GraphQL API answered no repository for ${this.owner}/${this.repo}`)
    }
    const target = 'ref' in at ? data.repository.ref?.target : data.repository.object
    const head = target?.oid ?? null
    const cache = new Map<string, Promise<string | undefined>>()
    for (const [i, path] of paths.entries()) {
      const found = target?.[`f${i}`]?.object ?? null
      // A directory answers an object without a blob's fields: no file there.
      cache.set(path, found && 'oid' in found && found.oid ? this.blobText({ text: null, isTruncated: true, ...(found as Partial<BlobNode> & { oid: string }) }) : Promise.resolve(undefined))
    }
    return {
      head,
      read: async (path) => {
        assertTreePath(path)
        if (head === null) return undefined
        let text = cache.get(path)
        if (!text) {
          text = this.readAt(head, path).catch((error: unknown) => {
            cache.delete(path) // a failed read is tried again by the next caller
            throw withContext(error, `${path} could not be read from the state branch ${this.branch}`)
          })
          cache.set(path, text)
        }
        return text
      },
    }
  }

  async commit(change: StateChange, expectedHead: string | null): Promise<string> {
    const paths = Object.keys(change.files)
    paths.forEach(assertTreePath)
    return expectedHead === null ? this.createBranch(change) : this.commitOnBranch(change, expectedHead)
  }

  private async commitOnBranch(change: StateChange, expectedHead: string): Promise<string> {
    const writeId = newWriteId()
    const [headline, ...rest] = withWriteId(change.message, writeId).split('\n')
    const body = rest.join('\n').trim()
    const entries = await this.withoutAbsentDeletions(Object.entries(change.files), expectedHead)
    const mutation = `mutation($input: CreateCommitOnBranchInput!) {
      createCommitOnBranch(input: $input) { commit { oid } }
    }`
    const input = {
      branch: { repositoryNameWithOwner: `${this.owner}/${this.repo}`, branchName: this.branch },
      expectedHeadOid: expectedHead,
      message: { headline, body },
      fileChanges: {
        additions: entries.filter(([, c]) => c !== null).map(([path, c]) => ({ path, contents: Buffer.from(c!, 'utf8').toString('base64') })),
        deletions: entries.filter(([, c]) => c === null).map(([path]) => ({ path })),
      },
    }
    try {
      const data = await this.client.graphql<{ createCommitOnBranch: { commit: { oid: string } } }>(mutation, { input })
      return data.createCommitOnBranch.commit.oid
    } catch (error) {
      if (isStaleHead(error)) {
        const landed = await this.landedWrite(expectedHead, writeId)
        if (landed !== null) return landed
        throw new StaleHeadError(this.branch, expectedHead, null)
      }
      throw error
    }
  }

  /**
   * This write's commit when it is on the branch although the mutation said the head moved: a mutation retried
   * after its answer was lost (the first attempt landed) finds the head moved by itself. Looks at the commits on
   * top of `expectedHead`, newest first (a few at most: they landed since the first attempt).
   */
  private async landedWrite(expectedHead: string, writeId: string): Promise<string | null> {
    type Node = { oid: string; message: string; parents?: { nodes: Node[] } }
    let selection = 'oid message'
    for (let i = 0; i < 10; i++) selection = `oid message parents(first: 1) { nodes { ${selection} } }`
    const data = await this.client.graphql<{ repository: { ref: { target: Node } | null } }>(
      `query($owner: String!, $name: String!, $at: String!) { repository(owner: $owner, name: $name) { ref(qualifiedName: $at) { target { ... on Commit { ${selection} } } } } }`,
      { owner: this.owner, name: this.repo, at: `refs/heads/${this.branch}` },
    )
    for (let node = data.repository.ref?.target; node && node.oid !== expectedHead; node = node.parents?.nodes[0]) {
      if (node.message.includes(writeId)) return node.oid
    }
    return null
  }

  /**
   * GitHub refuses to delete a path that does not exist; deleting what is absent is a no-op here, as in
   * git. Costs one query, only for changes that delete (rare: state files are seldom removed).
   */
  private async withoutAbsentDeletions(entries: Array<[string, string | null]>, head: string): Promise<Array<[string, string | null]>> {
    const deletions = entries.filter(([, content]) => content === null).map(([path]) => path)
    if (!deletions.length) return entries
    const snapshot = await this.snapshotOf({ oid: head }, deletions)
    const absent = new Set<string>()
    for (const path of deletions) if ((await snapshot.read(path)) === undefined) absent.add(path)
    return entries.filter(([path, content]) => content !== null || !absent.has(path))
  }

  /** The orphan branch: a root commit, then a ref that must not exist yet (422 otherwise). */
  private async createBranch(change: StateChange): Promise<string> {
    const { rest } = this.client
    const repo = { owner: this.owner, repo: this.repo }
    const tree = Object.entries(change.files)
      .filter(([, content]) => content !== null)
      .map(([path, content]) => ({ path, mode: '100644' as const, type: 'blob' as const, content: content! }))
    const { data: treeData } = await rest.git.createTree({ ...repo, tree })
    // Two writers making the same first change in the same second would make the same commit (same sha): the write
    // id tells them apart, so that only the writer whose ref request created the branch takes it for its own.
    const message = withWriteId(change.message, newWriteId())
    const { data: commit } = await rest.git.createCommit({ ...repo, message, tree: treeData.sha, parents: [] })
    try {
      await rest.git.createRef({ ...repo, ref: `refs/heads/${this.branch}`, sha: commit.sha })
    } catch (error) {
      if ((error as { status?: number }).status === 422) {
        // A ref request retried after its answer was lost finds the branch it created: pointing to this commit.
        if (await this.branchPointsTo(commit.sha)) return commit.sha
        throw new StaleHeadError(this.branch, null, 'an existing branch')
      }
      throw error
    }
    return commit.sha
  }

  private async branchPointsTo(sha: string): Promise<boolean> {
    return (await refTarget(this.client, { owner: this.owner, repo: this.repo }, `heads/${this.branch}`)) === sha
  }

  private async readAt(head: string, path: string, withText = true): Promise<string | undefined> {
    const data = await this.client.graphql<{ repository: { object: Partial<BlobNode> & { oid: string } | null } }>(
      `query($owner: String!, $name: String!, $expression: String!) {
        repository(owner: $owner, name: $name) { object(expression: $expression) { ... on Blob { ${withText ? 'text isTruncated oid' : 'oid'} } } }
      }`,
      { owner: this.owner, name: this.repo, expression: `${head}:${path}` },
    )
    // No data for a file too large to send as text: its oid alone, then the Git Data API (see snapshotOf).
    if (!data?.repository) {
      if (withText) return this.readAt(head, path, false)
      throw new Error(`GitHub's GraphQL API answered no repository for ${this.owner}/${this.repo}`)
    }
    const found = data.repository.object
    return found?.oid ? this.blobText({ text: null, isTruncated: true, ...found }) : undefined
  }

  /** GraphQL truncates large blobs; those are fetched whole through the Git Data API. */
  private async blobText(blob: BlobNode): Promise<string | undefined> {
    if (blob.text !== null && !blob.isTruncated) return blob.text
    return blobText(this.client, { owner: this.owner, repo: this.repo }, blob.oid)
  }
}

/**
 * Every commit names the write that made it in a trailer, so that a request retried after its answer was lost
 * can tell its own commit (already on the branch) from another writer's.
 */
function newWriteId(): string {
  return `Converge-Write: ${randomUUID()}`
}

function withWriteId(message: string, writeId: string): string {
  return `${message.trimEnd()}\n\n${writeId}`
}

/**
 * GitHub reports a moved branch head as STALE_DATA ("Expected branch to point to …"), and a branch that
 * no longer exists as NOT_FOUND: either way the head is not the one expected.
 */
function isStaleHead(error: unknown): boolean {
  const errors = (error as { errors?: Array<{ type?: string; message?: string }> }).errors ?? []
  return errors.some((e) => e.type === 'STALE_DATA' || e.type === 'NOT_FOUND' || /Expected branch to point to/.test(e.message ?? ''))
}
