import { json } from '../http.js'
import { pagedReply } from '../pagination.js'
import type { IssueRecord } from '../store/records.js'
import { issueShape } from '../store/shapes.js'
import { isoSeconds } from '../time.js'
import {
  checkBodyLength,
  directionOf,
  existingIssue,
  sortByTime,
  type Direction,
  type RestContext,
  type RestHandler,
} from './context.js'
import { labelNames, type LabelsInput } from './labels.js'

interface IssueInput {
  title?: string | number
  body?: string | null
  state?: 'open' | 'closed'
  state_reason?: IssueRecord['stateReason']
  labels?: LabelsInput
  assignees?: string[] | null
  assignee?: string | null
}

const SORT_FIELDS: Record<string, (issue: IssueRecord) => string> = {
  created: (issue) => issue.createdAt,
  updated: (issue) => issue.updatedAt,
}

const listForRepo: RestHandler = (context) => {
  const { query, store } = context
  const state = query.get('state') ?? 'open'
  const wanted = (query.get('labels') ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean)
  const since = query.get('since')
  const creator = query.get('creator')?.toLowerCase()
  let issues = store.issues().filter((issue) => state === 'all' || issue.state === state)
  if (wanted.length > 0) {
    issues = issues.filter((issue) => wanted.every((name) => issue.labels.some((label) => label.toLowerCase() === name)))
  }
  if (since !== null) issues = issues.filter((issue) => Date.parse(issue.updatedAt) >= Date.parse(since))
  if (creator !== undefined) issues = issues.filter((issue) => issue.author.toLowerCase() === creator)
  const direction = directionOf(query, 'desc')
  const sorted =
    query.get('sort') === 'comments'
      ? sortByCommentCount(context, issues, direction)
      : sortByTime(issues, SORT_FIELDS[query.get('sort') ?? 'created'] ?? SORT_FIELDS.created!, direction)
  return pagedReply(
    sorted.map((issue) => issueShape(context, issue)),
    query,
    context.urls.repositoryById('/issues'),
  )
}

function sortByCommentCount(context: RestContext, issues: IssueRecord[], direction: Direction): IssueRecord[] {
  const sign = direction === 'asc' ? 1 : -1
  const count = (issue: IssueRecord) => context.store.comments(issue.number).length
  return [...issues].sort((a, b) => sign * (count(a) - count(b) || a.id - b.id))
}

const get: RestHandler = (context) => json(200, issueShape(context, existingIssue(context)))

const create: RestHandler = (context) => {
  const input = context.body as IssueInput & { title: string | number }
  checkBodyLength('Issue', input.body)
  const issue = context.store.addIssue({
    title: String(input.title),
    body: input.body ?? null,
    author: context.actor.login,
    labels: input.labels === undefined ? [] : labelNames(input.labels),
    assignees: input.assignees ?? (input.assignee ? [input.assignee] : []),
  })
  const shape = issueShape(context, issue)
  return json(201, shape, { location: shape.url })
}

const update: RestHandler = (context) => {
  const issue = existingIssue(context)
  const input = context.body as IssueInput
  checkBodyLength('Issue', input.body)
  if (input.title !== undefined) issue.title = String(input.title)
  if (input.body !== undefined) issue.body = input.body
  if (input.labels !== undefined) issue.labels = labelNames(input.labels).map((name) => context.store.ensureLabel(name).name)
  if (input.assignees !== undefined) issue.assignees = input.assignees ?? []
  if (input.state !== undefined && input.state !== issue.state) {
    issue.state = input.state
    issue.closedAt = input.state === 'closed' ? isoSeconds() : null
    issue.closedBy = input.state === 'closed' ? context.actor.login : null
    issue.stateReason = input.state === 'closed' ? (input.state_reason ?? 'completed') : 'reopened'
  } else if (input.state_reason !== undefined) {
    issue.stateReason = input.state_reason
  }
  context.store.touch(issue)
  return json(200, issueShape(context, issue))
}

export const issueHandlers: Record<string, RestHandler> = {
  'issues/list-for-repo': listForRepo,
  'issues/get': get,
  'issues/create': create,
  'issues/update': update,
}
