import { json, noContent, notFound } from '../http.js'
import { pagedReply } from '../pagination.js'
import type { CommentRecord, ReactionContent, ReactionSubject } from '../store/records.js'
import { commentShape, reactionShape } from '../store/shapes.js'
import { isoSeconds } from '../time.js'
import { checkBodyLength, existingIssue, numberParam, sortByTime, type RestContext, type RestHandler } from './context.js'

function existingComment(context: RestContext): CommentRecord {
  const comment = context.store.comment(numberParam(context, 'comment_id'))
  if (comment === undefined) throw notFound()
  return comment
}

const listForIssue: RestHandler = (context) => {
  const issue = existingIssue(context)
  const since = context.query.get('since')
  const comments = context.store
    .comments(issue.number)
    .filter((comment) => since === null || Date.parse(comment.updatedAt) >= Date.parse(since))
  return pagedReply(
    sortByTime(comments, (comment) => comment.createdAt, 'asc').map((c) => commentShape(context, c)),
    context.query,
    context.urls.repositoryById(`/issues/${issue.number}/comments`),
  )
}

const create: RestHandler = (context) => {
  const issue = existingIssue(context)
  const { body } = context.body as { body: string }
  checkBodyLength('IssueComment', body)
  const comment = context.store.addComment(issue.number, body, context.actor.login)
  context.store.touch(issue)
  const shape = commentShape(context, comment)
  return json(201, shape, { location: shape.url })
}

const get: RestHandler = (context) => json(200, commentShape(context, existingComment(context)))

const update: RestHandler = (context) => {
  const comment = existingComment(context)
  const { body } = context.body as { body: string }
  checkBodyLength('IssueComment', body)
  comment.body = body
  comment.updatedAt = isoSeconds()
  return json(200, commentShape(context, comment))
}

const remove: RestHandler = (context) => {
  context.store.deleteComment(existingComment(context).id)
  return noContent()
}

function createReaction(context: RestContext, subject: ReactionSubject) {
  const { content } = context.body as { content: ReactionContent }
  const { reaction, created } = context.store.addReaction(subject, content, context.actor.login)
  return json(created ? 201 : 200, reactionShape(context, reaction))
}

function listReactions(context: RestContext, subject: ReactionSubject, linkPath: string) {
  const content = context.query.get('content')
  const reactions = context.store.reactions(subject).filter((r) => content === null || r.content === content)
  return pagedReply(
    reactions.map((reaction) => reactionShape(context, reaction)),
    context.query,
    context.urls.repositoryById(linkPath),
  )
}

export const commentHandlers: Record<string, RestHandler> = {
  'issues/list-comments': listForIssue,
  'issues/create-comment': create,
  'issues/get-comment': get,
  'issues/update-comment': update,
  'issues/delete-comment': remove,
  'reactions/create-for-issue': (context) => createReaction(context, { type: 'issue', number: existingIssue(context).number }),
  'reactions/create-for-issue-comment': (context) => createReaction(context, { type: 'comment', id: existingComment(context).id }),
  'reactions/list-for-issue': (context) => {
    const { number } = existingIssue(context)
    return listReactions(context, { type: 'issue', number }, `/issues/${number}/reactions`)
  },
  'reactions/list-for-issue-comment': (context) => {
    const { id } = existingComment(context)
    return listReactions(context, { type: 'comment', id }, `/issues/comments/${id}/reactions`)
  },
}
