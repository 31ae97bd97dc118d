/** Sub-issues (`…/sub_issues`, `…/sub_issue`, `…/parent`) and issue dependencies (`…/dependencies/blocked_by`, `…/blocking`). */
import { HttpError, json, notFound, validationFailed } from '../http.js'
import { pagedReply } from '../pagination.js'
import type { IssueRecord } from '../store/records.js'
import { issueShape } from '../store/shapes.js'
import { existingIssue, numberParam, type RestContext, type RestHandler } from './context.js'

/** GitHub's limit of sub-issues under one parent (docs: "up to 100 sub-issues per parent issue"). */
const MAX_SUB_ISSUES = 100

/** Changing relations takes the issues permission a triager has; a token without it gets GitHub's 403. */
function checkCanWrite(context: RestContext): void {
  if (!context.store.hasPermission(context.actor.login, 'triage')) throw new HttpError(403, 'Resource not accessible by integration')
}

/** The issue a body's `*_id` names (its database id, not its number); pull requests are not issues here. */
function issueWithId(context: RestContext, id: number): IssueRecord {
  const issue = context.store.issueById(id)
  if (issue === undefined) throw notFound()
  return issue
}

const invalid = (field: string, message: string) => validationFailed({ resource: 'Issue', code: 'custom', field, message })

function issueList(context: RestContext, issues: IssueRecord[], suffix: string) {
  const issue = existingIssue(context)
  return pagedReply(
    issues.map((i) => issueShape(context, i)),
    context.query,
    context.urls.repositoryById(`/issues/${issue.number}${suffix}`),
  )
}

const listSubIssues: RestHandler = (context) =>
  issueList(context, context.store.subIssues(existingIssue(context).number), '/sub_issues')

const addSubIssue: RestHandler = (context) => {
  const parent = existingIssue(context)
  checkCanWrite(context)
  const input = context.body as { sub_issue_id: number; replace_parent?: boolean }
  const child = issueWithId(context, input.sub_issue_id)
  const { store } = context
  if (child.number === parent.number) throw invalid('sub_issue_id', 'Sub issue cannot be the parent issue')
  const current = store.parentOf(child.number)
  if (current !== undefined && !input.replace_parent) throw invalid('sub_issue_id', 'Sub issue may only have one parent')
  for (let ancestor = store.parentOf(parent.number); ancestor !== undefined; ancestor = store.parentOf(ancestor.number)) {
    if (ancestor.number === child.number) throw invalid('sub_issue_id', 'Sub issue cannot be an ancestor of its parent')
  }
  if (store.subIssues(parent.number).length >= MAX_SUB_ISSUES) throw invalid('sub_issue_id', `Parent cannot have more than ${MAX_SUB_ISSUES} sub-issues`)
  store.addSubIssue(parent.number, child.number)
  store.touch(parent)
  return json(201, issueShape(context, parent), { location: context.urls.repoApi(`/issues/${parent.number}/sub_issues`) })
}

const removeSubIssue: RestHandler = (context) => {
  const parent = existingIssue(context)
  checkCanWrite(context)
  const child = issueWithId(context, (context.body as { sub_issue_id: number }).sub_issue_id)
  if (context.store.parentOf(child.number)?.number !== parent.number) throw notFound()
  context.store.removeSubIssue(child.number)
  context.store.touch(parent)
  return json(200, issueShape(context, parent), { location: context.urls.repoApi(`/issues/${parent.number}/sub_issue`) })
}

const reprioritizeSubIssue: RestHandler = (context) => {
  const parent = existingIssue(context)
  checkCanWrite(context)
  const input = context.body as { sub_issue_id: number; after_id?: number; before_id?: number }
  const isChild = (id: number) => context.store.subIssues(parent.number).find((child) => child.id === id)
  const child = isChild(input.sub_issue_id)
  if (child === undefined) throw notFound()
  if ((input.after_id === undefined) === (input.before_id === undefined)) {
    throw new HttpError(422, 'Either after_id or before_id must be given, not both')
  }
  const anchor = isChild((input.after_id ?? input.before_id)!)
  if (anchor === undefined || anchor.id === child.id) throw new HttpError(422, 'The position must be another sub-issue of this issue')
  context.store.placeSubIssue(parent.number, child.number, input.after_id !== undefined ? { after: anchor.number } : { before: anchor.number })
  return json(200, issueShape(context, parent))
}

const getParent: RestHandler = (context) => {
  const parent = context.store.parentOf(existingIssue(context).number)
  if (parent === undefined) throw notFound()
  return json(200, issueShape(context, parent))
}

const listBlockedBy: RestHandler = (context) =>
  issueList(context, context.store.blockedBy(existingIssue(context).number), '/dependencies/blocked_by')

const listBlocking: RestHandler = (context) =>
  issueList(context, context.store.blocking(existingIssue(context).number), '/dependencies/blocking')

/** Whether `from` is blocked by `to`, directly or through other issues. */
function reaches(context: RestContext, from: number, to: number, seen = new Set<number>()): boolean {
  if (from === to) return true
  if (seen.has(from)) return false
  seen.add(from)
  return context.store.blockedBy(from).some((blocker) => reaches(context, blocker.number, to, seen))
}

const addBlockedBy: RestHandler = (context) => {
  const issue = existingIssue(context)
  checkCanWrite(context)
  const blocker = issueWithId(context, (context.body as { issue_id: number }).issue_id)
  if (blocker.number === issue.number) throw invalid('issue_id', 'An issue cannot be blocked by itself')
  if (context.store.blockedBy(issue.number).some((b) => b.number === blocker.number)) {
    throw validationFailed({ resource: 'Issue', code: 'already_exists', field: 'issue_id', message: 'This dependency already exists' })
  }
  if (reaches(context, blocker.number, issue.number)) throw invalid('issue_id', 'This dependency would create a cycle')
  context.store.addBlockedBy(issue.number, blocker.number)
  context.store.touch(issue)
  return json(201, issueShape(context, issue), { location: context.urls.repoApi(`/issues/${issue.number}/dependencies/blocked_by`) })
}

const removeBlockedBy: RestHandler = (context) => {
  const issue = existingIssue(context)
  checkCanWrite(context)
  const blocker = issueWithId(context, numberParam(context, 'issue_id'))
  if (!context.store.blockedBy(issue.number).some((b) => b.number === blocker.number)) throw notFound()
  context.store.removeBlockedBy(issue.number, blocker.number)
  context.store.touch(issue)
  return json(200, issueShape(context, issue))
}

export const relationHandlers: Record<string, RestHandler> = {
  'issues/list-sub-issues': listSubIssues,
  'issues/add-sub-issue': addSubIssue,
  'issues/remove-sub-issue': removeSubIssue,
  'issues/reprioritize-sub-issue': reprioritizeSubIssue,
  'issues/get-parent': getParent,
  'issues/list-dependencies-blocked-by': listBlockedBy,
  'issues/add-blocked-by-dependency': addBlockedBy,
  'issues/remove-dependency-blocked-by': removeBlockedBy,
  'issues/list-dependencies-blocking': listBlocking,
}
