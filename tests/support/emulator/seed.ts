import type { Tokens } from './auth.js'
import { commitToBranch } from './git/branch-commits.js'
import type { GitStore } from './git/git-store.js'
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
  /** `sha` defaults to the head of the branch `ref` in the git store */
  head: { ref: string; sha?: string }
  base: { ref: string }
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

  comment(comment: { issue: number; body: string; user?: string }): CommentRecord {
    if (this.store.issue(comment.issue) === undefined) throw new Error(`seed the issue #${comment.issue} before its comments`)
    return structuredClone(this.store.addComment(comment.issue, comment.body, comment.user ?? DEFAULT_SEED_AUTHOR))
  }

  async pullRequest(pull: SeedPullRequest): Promise<IssueRecord> {
    const headSha = pull.head.sha ?? (await this.git.resolveRef(`refs/heads/${pull.head.ref}`))
    if (headSha === null) throw new Error(`seed the branch ${pull.head.ref} first, or give head.sha`)
    const record = this.store.addIssue({
      ...(pull.number === undefined ? {} : { number: pull.number }),
      title: pull.title,
      body: pull.body ?? null,
      labels: pull.labels ?? [],
      state: pull.state ?? 'open',
      author: pull.user ?? DEFAULT_SEED_AUTHOR,
      pullId: this.store.nextId(),
      pull: {
        headRef: pull.head.ref,
        headSha,
        baseRef: pull.base.ref,
        draft: pull.draft ?? false,
        merged: false,
        mergedAt: null,
        maintainerCanModify: true,
      },
    })
    return structuredClone(record)
  }

  /** Commits files on a branch (default: the default branch); returns the new commit's sha. */
  async commit(commit: SeedCommit): Promise<string> {
    const files = Object.entries(commit.files)
    const author = this.store.ensureUser(commit.author ?? DEFAULT_SEED_AUTHOR)
    const result = await commitToBranch(this.git, {
      branch: commit.branch ?? this.store.repository.defaultBranch,
      createIfMissing: true,
      changes: {
        additions: files.flatMap(([path, content]) => (content === null ? [] : [{ path, content: Buffer.from(content) }])),
        deletions: files.flatMap(([path, content]) => (content === null ? [path] : [])),
      },
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
