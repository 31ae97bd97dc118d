import type { CommitData, GitStore } from './git/git-store.js'
import type { RepoStore } from './store/repo-store.js'
import { relationCounts } from './store/shapes.js'
import type {
  CheckRunRecord,
  CommentRecord,
  IssueRecord,
  LabelRecord,
  ReactionRecord,
  ReactionSubject,
  RepositoryRecord,
  UserRecord,
} from './store/records.js'

/** Read access to everything the emulator holds, for assertions. Records are copies: changing them changes nothing. */
export class EmulatorState {
  constructor(
    private readonly store: RepoStore,
    private readonly git: GitStore,
  ) {}

  get repository(): RepositoryRecord {
    return structuredClone(this.store.repository)
  }

  user(login: string): UserRecord | undefined {
    return copy(this.store.user(login))
  }

  /** The sub-issue and dependency summaries of an issue, as its REST object and webhook payloads carry them. */
  relationSummaries(number: number) {
    return relationCounts(this.store, number)
  }

  /** An issue or a pull request (they share numbers). */
  issue(number: number): IssueRecord | undefined {
    return copy(this.store.issue(number))
  }

  /** Issues and pull requests, by number. */
  issues(): IssueRecord[] {
    return copy(this.store.issues().sort((a, b) => a.number - b.number))
  }

  pulls(): IssueRecord[] {
    return this.issues().filter((issue) => issue.pull !== undefined)
  }

  /** Numbers of the sub-issues of `parent`, in its order. */
  subIssues(parent: number): number[] {
    return this.store.subIssues(parent).map((issue) => issue.number)
  }

  /** Numbers of the issues `number` is blocked by. */
  blockedBy(number: number): number[] {
    return this.store.blockedBy(number).map((issue) => issue.number)
  }

  labels(): LabelRecord[] {
    return copy(this.store.labels())
  }

  /** Comments of one issue (or all), oldest first. */
  comments(issueNumber?: number): CommentRecord[] {
    return copy(this.store.comments(issueNumber).sort((a, b) => a.id - b.id))
  }

  reactions(subject?: ReactionSubject): ReactionRecord[] {
    return copy(this.store.reactions(subject))
  }

  checkRun(id: number): CheckRunRecord | undefined {
    return copy(this.store.checkRun(id))
  }

  checkRuns(): CheckRunRecord[] {
    return copy(this.store.checkRuns())
  }

  /** The sha `branch` points to, or null. */
  branchHead(branch: string): Promise<string | null> {
    return this.git.resolveRef(`refs/heads/${branch}`)
  }

  /** The utf-8 text of `path` at `ref` (branch or sha), or null. */
  async readFile(ref: string, path: string): Promise<string | null> {
    const object = await this.git.readObject(`${ref}:${path}`)
    return object?.type === 'blob' ? object.content.toString('utf8') : null
  }

  /** Paths of all files at `ref`, sorted. */
  async listFiles(ref: string): Promise<string[]> {
    const entries = await this.git.listTree(ref, { recursive: true })
    return entries.filter((entry) => entry.type === 'blob').map((entry) => entry.path)
  }

  /** First-parent history of `ref`, newest first. */
  async commits(ref: string): Promise<CommitData[]> {
    const history: CommitData[] = []
    const start = await this.git.readObject(`${ref}^{commit}`)
    let commit = start === null ? null : await this.git.readCommit(start.sha)
    while (commit !== null) {
      history.push(commit)
      commit = commit.parents[0] === undefined ? null : await this.git.readCommit(commit.parents[0])
    }
    return history
  }
}

function copy<T>(value: T): T {
  return value === undefined ? value : structuredClone(value)
}
