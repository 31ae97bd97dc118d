import { syncPullRefs } from '../git/pull-refs.js'
import { json, notFound, validationFailed } from '../http.js'
import { pagedReply } from '../pagination.js'
import type { IssueRecord } from '../store/records.js'
import { pullShape } from '../store/shapes.js'
import { isoSeconds } from '../time.js'
import { checkBodyLength, directionOf, existingIssue, sortByTime, type RestContext, type RestHandler } from './context.js'

interface PullInput {
  title?: string
  body?: string
  head?: string
  base?: string
  draft?: boolean
  state?: 'open' | 'closed'
  maintainer_can_modify?: boolean
}

function existingPull(context: RestContext): IssueRecord {
  const issue = existingIssue(context, 'pull_number')
  if (issue.pull === undefined) throw notFound()
  return issue
}

/**
 * The current heads of a pull request's branches: a head branch of this repository as it is now while the pull
 * request is open (else the recorded sha), a fork's head branch as recorded.
 */
async function pullReply(context: RestContext, issue: IssueRecord) {
  const pull = issue.pull!
  const branchHead =
    pull.headRepoOwner === undefined && issue.state === 'open' ? await context.git.resolveRef(`refs/heads/${pull.headRef}`) : null
  const headSha = branchHead ?? pull.headSha
  const baseSha = (await context.git.resolveRef(`refs/heads/${pull.baseRef}`)) ?? ''
  return pullShape(context, issue, { headSha, baseSha })
}

/** `owner:branch` or `branch` → `branch`, when the owner is this repository's. */
function headBranch(context: RestContext, head: string): string | null {
  const { owner, branch } = headFilter(context, head)
  return owner.toLowerCase() === context.store.repository.owner.toLowerCase() ? branch : null
}

/** `owner:branch` or `branch` (an owner of this repository's) → both parts. */
function headFilter(context: RestContext, head: string): { owner: string; branch: string } {
  const colon = head.indexOf(':')
  return colon === -1 ? { owner: context.store.repository.owner, branch: head } : { owner: head.slice(0, colon), branch: head.slice(colon + 1) }
}

/** The owner of the repository holding the head branch. */
function headOwner(context: RestContext, issue: IssueRecord): string {
  return issue.pull!.headRepoOwner ?? context.store.repository.owner
}

const list: RestHandler = async (context) => {
  const { query, store } = context
  const state = query.get('state') ?? 'open'
  const head = query.get('head')
  const headWanted = head === null ? null : headFilter(context, head)
  const base = query.get('base')
  const pulls = store
    .pulls()
    .filter((issue) => state === 'all' || issue.state === state)
    .filter(
      (issue) =>
        headWanted === null ||
        (issue.pull!.headRef === headWanted.branch && headOwner(context, issue).toLowerCase() === headWanted.owner.toLowerCase()),
    )
    .filter((issue) => base === null || issue.pull!.baseRef === base)
  const time = query.get('sort') === 'updated' ? (i: IssueRecord) => i.updatedAt : (i: IssueRecord) => i.createdAt
  const sorted = sortByTime(pulls, time, directionOf(query, query.get('sort') === 'created' || !query.has('sort') ? 'desc' : 'asc'))
  const shapes = await Promise.all(sorted.map((issue) => pullReply(context, issue)))
  return pagedReply(shapes, query, context.urls.repositoryById('/pulls'))
}

const get: RestHandler = async (context) => json(200, await pullReply(context, existingPull(context)))

const create: RestHandler = async (context) => {
  const { git, store } = context
  const input = context.body as PullInput & { head: string; base: string }
  checkBodyLength('PullRequest', input.body)
  const headRef = headBranch(context, input.head)
  const headSha = headRef === null ? null : await git.resolveRef(`refs/heads/${headRef}`)
  const baseSha = await git.resolveRef(`refs/heads/${input.base}`)
  if (headSha === null || headRef === null) throw validationFailed({ resource: 'PullRequest', code: 'invalid', field: 'head' })
  if (baseSha === null) throw validationFailed({ resource: 'PullRequest', code: 'invalid', field: 'base' })
  const owner = store.repository.owner
  const sameHead = (i: IssueRecord) => i.pull!.headRepoOwner === undefined && i.pull!.headRef === headRef
  if (store.pulls().some((i) => i.state === 'open' && sameHead(i) && i.pull!.baseRef === input.base)) {
    const message = `A pull request already exists for ${owner}:${headRef}.`
    throw validationFailed({ resource: 'PullRequest', code: 'custom', message })
  }
  if (await git.isAncestor(headSha, baseSha)) {
    throw validationFailed({ resource: 'PullRequest', code: 'custom', message: `No commits between ${input.base} and ${headRef}` })
  }
  const issue = store.addIssue({
    title: input.title ?? headRef,
    body: input.body ?? null,
    author: context.actor.login,
    pullId: store.nextId(),
    pull: {
      headRef,
      headSha,
      baseRef: input.base,
      draft: input.draft ?? false,
      merged: false,
      mergedAt: null,
      maintainerCanModify: input.maintainer_can_modify ?? true,
    },
  })
  await syncPullRefs(store, git)
  const shape = await pullReply(context, issue)
  return json(201, shape, { location: shape.url })
}

const update: RestHandler = async (context) => {
  const issue = existingPull(context)
  const input = context.body as PullInput
  checkBodyLength('PullRequest', input.body)
  if (input.base !== undefined && (await context.git.resolveRef(`refs/heads/${input.base}`)) === null) {
    throw validationFailed({ resource: 'PullRequest', code: 'invalid', field: 'base' })
  }
  if (input.title !== undefined) issue.title = input.title
  if (input.body !== undefined) issue.body = input.body
  if (input.base !== undefined) issue.pull!.baseRef = input.base
  if (input.maintainer_can_modify !== undefined) issue.pull!.maintainerCanModify = input.maintainer_can_modify
  if (input.state !== undefined && input.state !== issue.state) {
    issue.state = input.state
    issue.closedAt = input.state === 'closed' ? isoSeconds() : null
    issue.closedBy = input.state === 'closed' ? context.actor.login : null
  }
  context.store.touch(issue)
  return json(200, await pullReply(context, issue))
}

export const pullHandlers: Record<string, RestHandler> = {
  'pulls/list': list,
  'pulls/get': get,
  'pulls/create': create,
  'pulls/update': update,
}
