import type { Tokens } from './auth.js'
import { commitToBranch, writeFileCommit, type FileChanges } from './git/branch-commits.js'
import type { GitStore } from './git/git-store.js'
import { syncPullRefs } from './git/pull-refs.js'
import type { RepoStore } from './store/repo-store.js'
import type { AccountType, CommentRecord, IssueRecord, LabelRecord, Permission, UserRecord } from './store/records.js'
import { accountSignature } from './signature.js'
import { isoSeconds } from './time.js'

/** The author of seeded issues, comments and commits when none is given. */
const DEFAULT_SEED_AUTHOR = 'octocat'

export interface SeedIssue {
  number?: number
  title: string
  body?: string | null
  labels?: string[]
  state?: 'open' | 'closed'
  /** login of the author (default octocat) */
  user?: string
  assignees?: string[]
  createdAt?: Date
  updatedAt?: Date
}

export interface SeedPullRequest {
  number?: number
  title: string
  body?: string | null
  /**
   * The head branch. In this repository, `sha` defaults to the branch's head in the git store. For a fork, give
   * `sha` (a commit of the git store, e.g. made with `seed.commit({ branch: 'tmp', … })` on a branch deleted
   * afterwards) or `files`.
   */
  head: { ref: string; sha?: string }
  base: { ref: string }
  /** the head branch is in the fork `<fork.owner>/<repo>`: its commit is kept under `refs/pull/<n>/head` only */
  fork?: { owner: string }
  /**
   * Files of a new head commit (path → content; null deletes). In this repository they are committed on the head
   * branch (created at the base branch's head when missing); for a fork, on top of `head.sha` or else the base
   * branch's head, without any branch.
   */
  files?: Record<string, string | Buffer | null>
  /** message of the commit of `files` */
  message?: string
  /** login of the author (default: the fork's owner, else octocat) */
  user?: string
  draft?: boolean
  state?: 'open' | 'closed'
  labels?: string[]
}

export interface SeedCommit {
  /** default: the default branch; created (as an orphan) when missing */
  branch?: string
  /** path → content; null deletes the file */
  files: Record<string, string | Buffer | null>
  message?: string
  /** login of the author (default octocat) */
  author?: string
}

/** Puts data in the emulator directly, without requests (nothing is logged or counted). Returns copies of the records. */
export class Seeder {
  constructor(
    private readonly store: RepoStore,
    private readonly git: GitStore,
    private readonly tokens: Tokens,
  ) {}

  user(user: { login: string; type?: AccountType; id?: number }): UserRecord {
    return structuredClone(this.store.addUser(user.login, user.type ?? 'User', user.id))
  }

  /** Requests with `Authorization: token <token>` act as `login`. */
  token(token: string, login: string): void {
    this.store.ensureUser(login)
    this.tokens.register(token, login)
  }

  /** The collaborator permission of `login` (created as a user when unknown). */
  permission(login: string, permission: Permission): void {
    this.store.setPermission(login, permission)
  }

  label(label: { name: string; color?: string; description?: string }): LabelRecord {
    const record = this.store.addLabel(label.name, { color: label.color ?? 'ededed', description: label.description ?? null })
    return structuredClone(record)
  }

  issue(issue: SeedIssue): IssueRecord {
    const createdAt = isoSeconds(issue.createdAt)
    const record = this.store.addIssue({
      ...(issue.number === undefined ? {} : { number: issue.number }),
      title: issue.title,
      body: issue.body ?? null,
      labels: issue.labels ?? [],
      state: issue.state ?? 'open',
      closedAt: issue.state === 'closed' ? createdAt : null,
      closedBy: issue.state === 'closed' ? (issue.user ?? DEFAULT_SEED_AUTHOR) : null,
      stateReason: issue.state === 'closed' ? 'completed' : null,
      author: issue.user ?? DEFAULT_SEED_AUTHOR,
      assignees: issue.assignees ?? [],
      createdAt,
      updatedAt: issue.updatedAt ? isoSeconds(issue.updatedAt) : createdAt,
    })
    return structuredClone(record)
  }

  /** Makes issue `child` a sub-issue of `parent` (last in its list), as `POST …/sub_issues` does. */
  subIssue(parent: number, child: number): void {
    this.existing(parent)
    this.existing(child)
    this.store.addSubIssue(parent, child)
  }

  /** Records that issue `number` is blocked by issue `blocker`, as `POST …/dependencies/blocked_by` does. */
  blockedBy(number: number, blocker: number): void {
    this.existing(number)
    this.existing(blocker)
    this.store.addBlockedBy(number, blocker)
  }

  private existing(number: number): void {
    if (this.store.issue(number) === undefined) throw new Error(`seed the issue #${number} first`)
  }

  comment(comment: { issue: number; body: string; user?: string }): CommentRecord {
    if (this.store.issue(comment.issue) === undefined) throw new Error(`seed the issue #${comment.issue} before its comments`)
    return structuredClone(this.store.addComment(comment.issue, comment.body, comment.user ?? DEFAULT_SEED_AUTHOR))
  }

  /**
   * A pull request; `refs/pull/<n>/head` points at its head commit (for a fork, the only ref that holds it). The
   * head of a pull request from a branch of this repository follows the branch while the pull request is open.
   */
  async pullRequest(pull: SeedPullRequest): Promise<IssueRecord> {
    const author = pull.user ?? pull.fork?.owner ?? DEFAULT_SEED_AUTHOR
    const headSha = pull.fork === undefined ? await this.sameRepositoryHead(pull, author) : await this.forkHead(pull, author)
    if (pull.fork !== undefined) this.store.ensureUser(pull.fork.owner)
    const record = this.store.addIssue({
      ...(pull.number === undefined ? {} : { number: pull.number }),
      title: pull.title,
      body: pull.body ?? null,
      labels: pull.labels ?? [],
      state: pull.state ?? 'open',
      author,
      pullId: this.store.nextId(),
      pull: {
        headRef: pull.head.ref,
        headSha,
        ...(pull.fork === undefined ? {} : { headRepoOwner: pull.fork.owner }),
        baseRef: pull.base.ref,
        draft: pull.draft ?? false,
        merged: false,
        mergedAt: null,
        maintainerCanModify: true,
      },
    })
    await syncPullRefs(this.store, this.git)
    return structuredClone(record)
  }

  private async sameRepositoryHead(pull: SeedPullRequest, author: string): Promise<string> {
    const branchRef = `refs/heads/${pull.head.ref}`
    if (pull.files !== undefined) {
      if (pull.head.sha !== undefined) throw new Error('give head.sha or files, not both, for a pull request from a branch of this repository')
      if ((await this.git.resolveRef(branchRef)) === null) await this.branch(pull.head.ref, pull.base.ref)
      return this.commit({ branch: pull.head.ref, files: pull.files, author, ...(pull.message ? { message: pull.message } : {}) })
    }
    const headSha = pull.head.sha ?? (await this.git.resolveRef(branchRef))
    if (headSha === null) throw new Error(`seed the branch ${pull.head.ref} first, or give head.sha or files`)
    return headSha
  }

  private async forkHead(pull: SeedPullRequest, author: string): Promise<string> {
    if (pull.head.sha !== undefined && (await this.git.objectType(pull.head.sha)) !== 'commit') {
      throw new Error(`head.sha ${pull.head.sha} is not a commit of the git store`)
    }
    if (pull.files === undefined) {
      if (pull.head.sha === undefined) throw new Error('a pull request from a fork needs head.sha or files')
      return pull.head.sha
    }
    const parent = pull.head.sha ?? (await this.git.resolveRef(`refs/heads/${pull.base.ref}`))
    if (parent === null) throw new Error(`branch ${pull.base.ref} does not exist`)
    const files = Object.entries(pull.files)
    for (const [path, content] of files) {
      if (content === null && (await this.git.readObject(`${parent}:${path}`)) === null) throw new Error(`cannot delete ${path}: not in ${parent}`)
    }
    return writeFileCommit(this.git, {
      parent,
      changes: fileChanges(files),
      message: pull.message ?? `Update ${files.map(([path]) => path).join(', ')}`,
      author: accountSignature(this.store.ensureUser(author)),
    })
  }

  /** Commits files on a branch (default: the default branch); returns the new commit's sha. */
  async commit(commit: SeedCommit): Promise<string> {
    const files = Object.entries(commit.files)
    const author = this.store.ensureUser(commit.author ?? DEFAULT_SEED_AUTHOR)
    const result = await commitToBranch(this.git, {
      branch: commit.branch ?? this.store.repository.defaultBranch,
      createIfMissing: true,
      changes: fileChanges(files),
      message: commit.message ?? `Update ${files.map(([path]) => path).join(', ')}`,
      author: accountSignature(author),
    })
    if (result.outcome !== 'committed') throw new Error(`seed commit failed: ${result.outcome}`)
    return result.sha
  }

  /** Creates branch `name` at the head of `from` (default: the default branch); returns its sha. */
  async branch(name: string, from: string = this.store.repository.defaultBranch): Promise<string> {
    const sha = await this.git.resolveRef(`refs/heads/${from}`)
    if (sha === null) throw new Error(`branch ${from} does not exist`)
    if (!(await this.git.createRef(`refs/heads/${name}`, sha))) throw new Error(`branch ${name} already exists`)
    return sha
  }
}

function fileChanges(files: ReadonlyArray<[string, string | Buffer | null]>): FileChanges {
  return {
    additions: files.flatMap(([path, content]) => (content === null ? [] : [{ path, content: Buffer.from(content) }])),
    deletions: files.flatMap(([path, content]) => (content === null ? [path] : [])),
  }
}
