/** What the emulator stores besides git data. Logins and label names are kept as written; lookups ignore case. */

export type AccountType = 'User' | 'Bot' | 'Organization'

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none'

/** Roles from the least to the most privileged. */
export const PERMISSION_RANK: readonly Permission[] = ['none', 'read', 'triage', 'write', 'maintain', 'admin']

export interface RepositoryRecord {
  id: number
  owner: string
  name: string
  defaultBranch: string
  private: boolean
  createdAt: string
}

export interface UserRecord {
  id: number
  login: string
  type: AccountType
}

export interface LabelRecord {
  id: number
  name: string
  color: string
  description: string | null
  isDefault: boolean
}

export interface PullRecord {
  headRef: string
  /**
   * the head sha: the last known head of a head branch of this repository, and the only record of the head of a
   * fork's branch (whose commits are in the git store under `refs/pull/<n>/head` only)
   */
  headSha: string
  /** login of the owner of the fork holding the head branch (`<owner>/<repo>`); absent when the head branch is in this repository */
  headRepoOwner?: string
  baseRef: string
  draft: boolean
  merged: boolean
  mergedAt: string | null
  maintainerCanModify: boolean
}

/** An issue, or a pull request (GitHub numbers both in one sequence and serves pull requests as issues too). */
export interface IssueRecord {
  id: number
  number: number
  title: string
  body: string | null
  state: 'open' | 'closed'
  stateReason: 'completed' | 'not_planned' | 'reopened' | 'duplicate' | null
  labels: string[]
  author: string
  assignees: string[]
  locked: boolean
  createdAt: string
  updatedAt: string
  closedAt: string | null
  /** login of who closed it */
  closedBy: string | null
  pull?: PullRecord
  /** id of the pull request object, distinct from the issue id as on GitHub */
  pullId?: number
}

export interface CommentRecord {
  id: number
  issueNumber: number
  body: string
  author: string
  createdAt: string
  updatedAt: string
}

export const REACTION_CONTENTS = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'] as const

export type ReactionContent = (typeof REACTION_CONTENTS)[number]

export type ReactionSubject = { type: 'issue'; number: number } | { type: 'comment'; id: number }

export interface ReactionRecord {
  id: number
  subject: ReactionSubject
  content: ReactionContent
  user: string
  createdAt: string
}

export interface AnnotationRecord {
  path: string
  start_line: number
  end_line: number
  start_column?: number
  end_column?: number
  annotation_level: 'notice' | 'warning' | 'failure'
  message: string
  title?: string
  raw_details?: string
}

export interface CheckRunRecord {
  id: number
  name: string
  headSha: string
  status: 'queued' | 'in_progress' | 'completed' | 'waiting' | 'requested' | 'pending'
  conclusion: string | null
  startedAt: string | null
  completedAt: string | null
  detailsUrl: string | null
  externalId: string | null
  output: { title: string | null; summary: string | null; text: string | null }
  /** every annotation sent, in order: GitHub appends the annotations of each update */
  annotations: AnnotationRecord[]
  /** login of the actor that created the run */
  creator: string
}
