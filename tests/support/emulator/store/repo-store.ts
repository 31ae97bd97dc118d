import { isoSeconds } from '../time.js'
import { PERMISSION_RANK } from './records.js'
import type {
  AccountType,
  CheckRunRecord,
  CommentRecord,
  IssueRecord,
  LabelRecord,
  Permission,
  ReactionContent,
  ReactionRecord,
  ReactionSubject,
  RepositoryRecord,
  UserRecord,
} from './records.js'

const key = (name: string) => name.toLowerCase()

/** In-memory records of one repository: users, permissions, labels, issues and pull requests, comments, reactions, check runs. */
export class RepoStore {
  private lastId = 1000
  private readonly users = new Map<string, UserRecord>()
  private readonly permissions = new Map<string, Permission>()
  private readonly labelsByName = new Map<string, LabelRecord>()
  private readonly issuesByNumber = new Map<number, IssueRecord>()
  private readonly commentsById = new Map<number, CommentRecord>()
  private readonly reactionList: ReactionRecord[] = []
  private readonly checkRunsById = new Map<number, CheckRunRecord>()
  private readonly forkIds = new Map<string, number>()
  /** parent number → its sub-issues' numbers, in the parent's order */
  private readonly subIssueLists = new Map<number, number[]>()
  /** issue number → the numbers of the issues it is blocked by, in the order they were added */
  private readonly blockedByLists = new Map<number, number[]>()

  constructor(readonly repository: RepositoryRecord) {}

  nextId(): number {
    return ++this.lastId
  }

  // users and permissions

  addUser(login: string, type: AccountType, id = this.nextId()): UserRecord {
    const user = { id, login, type }
    this.users.set(key(login), user)
    return user
  }

  user(login: string): UserRecord | undefined {
    return this.users.get(key(login))
  }

  /** The user named `login`, created as a plain user when unknown. */
  ensureUser(login: string): UserRecord {
    return this.user(login) ?? this.addUser(login, 'User')
  }

  setPermission(login: string, permission: Permission): void {
    this.ensureUser(login)
    this.permissions.set(key(login), permission)
  }

  permission(login: string): Permission {
    return this.permissions.get(key(login)) ?? 'none'
  }

  /** Whether the role of `login` is `level` or a more privileged one. */
  hasPermission(login: string, level: Permission): boolean {
    return PERMISSION_RANK.indexOf(this.permission(login)) >= PERMISSION_RANK.indexOf(level)
  }

  // forks

  /** The repository id of the fork owned by `owner` (allocated on first use). */
  forkId(owner: string): number {
    let id = this.forkIds.get(key(owner))
    if (id === undefined) {
      id = this.nextId()
      this.forkIds.set(key(owner), id)
    }
    return id
  }

  // labels

  addLabel(name: string, options: { color?: string; description?: string | null; isDefault?: boolean } = {}): LabelRecord {
    const label = {
      id: this.nextId(),
      name,
      color: options.color ?? 'ededed',
      description: options.description ?? null,
      isDefault: options.isDefault ?? false,
    }
    this.labelsByName.set(key(name), label)
    return label
  }

  label(name: string): LabelRecord | undefined {
    return this.labelsByName.get(key(name))
  }

  /** The label named `name`, created with GitHub's default colour when unknown (as adding labels to an issue does). */
  ensureLabel(name: string): LabelRecord {
    return this.label(name) ?? this.addLabel(name)
  }

  labels(): LabelRecord[] {
    return [...this.labelsByName.values()]
  }

  renameLabel(label: LabelRecord, newName: string): void {
    this.labelsByName.delete(key(label.name))
    for (const issue of this.issuesByNumber.values()) {
      issue.labels = issue.labels.map((name) => (key(name) === key(label.name) ? newName : name))
    }
    label.name = newName
    this.labelsByName.set(key(newName), label)
  }

  deleteLabel(label: LabelRecord): void {
    this.labelsByName.delete(key(label.name))
    for (const issue of this.issuesByNumber.values()) {
      issue.labels = issue.labels.filter((name) => key(name) !== key(label.name))
    }
  }

  // issues and pull requests

  nextIssueNumber(): number {
    return Math.max(0, ...this.issuesByNumber.keys()) + 1
  }

  addIssue(fields: Partial<IssueRecord> & Pick<IssueRecord, 'title' | 'author'>): IssueRecord {
    const now = isoSeconds()
    const number = fields.number ?? this.nextIssueNumber()
    if (this.issuesByNumber.has(number)) throw new Error(`issue #${number} already exists`)
    const issue: IssueRecord = {
      id: this.nextId(),
      number,
      body: null,
      state: 'open',
      stateReason: null,
      labels: [],
      assignees: [],
      locked: false,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      closedBy: null,
      ...fields,
    }
    issue.labels = issue.labels.map((name) => this.ensureLabel(name).name)
    this.ensureUser(issue.author)
    this.issuesByNumber.set(number, issue)
    return issue
  }

  issue(number: number): IssueRecord | undefined {
    return this.issuesByNumber.get(number)
  }

  issues(): IssueRecord[] {
    return [...this.issuesByNumber.values()]
  }

  pulls(): IssueRecord[] {
    return this.issues().filter((issue) => issue.pull !== undefined)
  }

  touch(issue: IssueRecord): void {
    issue.updatedAt = isoSeconds()
  }

  /** The issue (not pull request) with database id `id`. */
  issueById(id: number): IssueRecord | undefined {
    return this.issues().find((issue) => issue.id === id && issue.pull === undefined)
  }

  // sub-issues and dependencies

  subIssues(parent: number): IssueRecord[] {
    return (this.subIssueLists.get(parent) ?? []).map((n) => this.issuesByNumber.get(n)!)
  }

  parentOf(child: number): IssueRecord | undefined {
    for (const [parent, children] of this.subIssueLists) if (children.includes(child)) return this.issuesByNumber.get(parent)
    return undefined
  }

  /** Appends `child` to the sub-issues of `parent`, taking it from its current parent if it has one. */
  addSubIssue(parent: number, child: number): void {
    this.removeSubIssue(child)
    this.subIssueLists.set(parent, [...(this.subIssueLists.get(parent) ?? []), child])
  }

  removeSubIssue(child: number): void {
    for (const [parent, children] of this.subIssueLists) {
      if (children.includes(child)) this.subIssueLists.set(parent, children.filter((n) => n !== child))
    }
  }

  /** Moves `child` right after `after` (or right before `before`) among the sub-issues of `parent`. */
  placeSubIssue(parent: number, child: number, where: { after: number } | { before: number }): void {
    const rest = (this.subIssueLists.get(parent) ?? []).filter((n) => n !== child)
    const at = 'after' in where ? rest.indexOf(where.after) + 1 : rest.indexOf(where.before)
    rest.splice(at, 0, child)
    this.subIssueLists.set(parent, rest)
  }

  blockedBy(number: number): IssueRecord[] {
    return (this.blockedByLists.get(number) ?? []).map((n) => this.issuesByNumber.get(n)!)
  }

  blocking(number: number): IssueRecord[] {
    return [...this.blockedByLists].filter(([, blockers]) => blockers.includes(number)).map(([n]) => this.issuesByNumber.get(n)!)
  }

  addBlockedBy(number: number, blocker: number): void {
    this.blockedByLists.set(number, [...(this.blockedByLists.get(number) ?? []), blocker])
  }

  removeBlockedBy(number: number, blocker: number): void {
    this.blockedByLists.set(number, (this.blockedByLists.get(number) ?? []).filter((n) => n !== blocker))
  }

  // comments

  addComment(issueNumber: number, body: string, author: string): CommentRecord {
    const now = isoSeconds()
    const comment = { id: this.nextId(), issueNumber, body, author, createdAt: now, updatedAt: now }
    this.ensureUser(author)
    this.commentsById.set(comment.id, comment)
    return comment
  }

  comment(id: number): CommentRecord | undefined {
    return this.commentsById.get(id)
  }

  comments(issueNumber?: number): CommentRecord[] {
    const all = [...this.commentsById.values()]
    return issueNumber === undefined ? all : all.filter((comment) => comment.issueNumber === issueNumber)
  }

  deleteComment(id: number): void {
    this.commentsById.delete(id)
  }

  // reactions

  /** Adds a reaction; `created` is false when the user had already reacted with that content (GitHub answers 200). */
  addReaction(subject: ReactionSubject, content: ReactionContent, user: string): { reaction: ReactionRecord; created: boolean } {
    const existing = this.reactions(subject).find((r) => r.content === content && key(r.user) === key(user))
    if (existing !== undefined) return { reaction: existing, created: false }
    const reaction = { id: this.nextId(), subject, content, user, createdAt: isoSeconds() }
    this.reactionList.push(reaction)
    return { reaction, created: true }
  }

  reactions(subject?: ReactionSubject): ReactionRecord[] {
    if (subject === undefined) return [...this.reactionList]
    return this.reactionList.filter((r) =>
      subject.type === 'issue'
        ? r.subject.type === 'issue' && r.subject.number === subject.number
        : r.subject.type === 'comment' && r.subject.id === subject.id,
    )
  }

  // check runs

  addCheckRun(run: Omit<CheckRunRecord, 'id'>): CheckRunRecord {
    const record = { id: this.nextId(), ...run }
    this.checkRunsById.set(record.id, record)
    return record
  }

  checkRun(id: number): CheckRunRecord | undefined {
    return this.checkRunsById.get(id)
  }

  checkRuns(): CheckRunRecord[] {
    return [...this.checkRunsById.values()]
  }
}
