import { json, noContent, notFound, validationFailed } from '../http.js'
import { pagedReply } from '../pagination.js'
import type { LabelRecord } from '../store/records.js'
import { labelShape } from '../store/shapes.js'
import { existingIssue, stringParam, type RestContext, type RestHandler } from './context.js'

type LabelName = string | { name: string }

/** Every form GitHub accepts for "these labels": `{labels: [...]}`, a bare array, names or `{name}` objects, or one name. */
export type LabelsInput = string | LabelName[] | { labels?: LabelName[] }

export function labelNames(input: LabelsInput): string[] {
  const list = typeof input === 'string' ? [input] : Array.isArray(input) ? input : (input.labels ?? [])
  return list.map((label) => (typeof label === 'string' ? label : label.name))
}

const COLOR = /^[0-9a-fA-F]{6}$/

function existingLabel(context: RestContext): LabelRecord {
  const label = context.store.label(stringParam(context, 'name'))
  if (label === undefined) throw notFound()
  return label
}

function checkColor(color: string | undefined): void {
  if (color !== undefined && !COLOR.test(color)) throw validationFailed({ resource: 'Label', code: 'invalid', field: 'color' })
}

function issueLabelsReply(context: RestContext, names: string[]) {
  return json(200, names.map((name) => labelShape(context, context.store.ensureLabel(name))))
}

const listForRepo: RestHandler = (context) =>
  pagedReply(
    context.store.labels().map((label) => labelShape(context, label)),
    context.query,
    context.urls.repositoryById('/labels'),
  )

const createLabel: RestHandler = (context) => {
  const input = context.body as { name: string; color?: string; description?: string }
  checkColor(input.color)
  if (context.store.label(input.name) !== undefined) {
    throw validationFailed({ resource: 'Label', code: 'already_exists', field: 'name' })
  }
  const label = context.store.addLabel(input.name, { color: input.color ?? 'ededed', description: input.description ?? null })
  const shape = labelShape(context, label)
  return json(201, shape, { location: shape.url })
}

const getLabel: RestHandler = (context) => json(200, labelShape(context, existingLabel(context)))

const updateLabel: RestHandler = (context) => {
  const label = existingLabel(context)
  const input = context.body as { new_name?: string; color?: string; description?: string }
  checkColor(input.color)
  if (input.new_name !== undefined && input.new_name !== label.name) context.store.renameLabel(label, input.new_name)
  if (input.color !== undefined) label.color = input.color
  if (input.description !== undefined) label.description = input.description
  return json(200, labelShape(context, label))
}

const deleteLabel: RestHandler = (context) => {
  context.store.deleteLabel(existingLabel(context))
  return noContent()
}

const listOnIssue: RestHandler = (context) => {
  const issue = existingIssue(context)
  return pagedReply(
    issue.labels.map((name) => labelShape(context, context.store.ensureLabel(name))),
    context.query,
    context.urls.repositoryById(`/issues/${issue.number}/labels`),
  )
}

const addToIssue: RestHandler = (context) => {
  const issue = existingIssue(context)
  for (const name of labelNames(context.body as LabelsInput)) {
    const label = context.store.ensureLabel(name)
    if (!issue.labels.some((existing) => existing.toLowerCase() === label.name.toLowerCase())) issue.labels.push(label.name)
  }
  context.store.touch(issue)
  return issueLabelsReply(context, issue.labels)
}

const setOnIssue: RestHandler = (context) => {
  const issue = existingIssue(context)
  issue.labels = labelNames(context.body as LabelsInput).map((name) => context.store.ensureLabel(name).name)
  context.store.touch(issue)
  return issueLabelsReply(context, issue.labels)
}

const removeFromIssue: RestHandler = (context) => {
  const issue = existingIssue(context)
  const name = stringParam(context, 'name').toLowerCase()
  if (!issue.labels.some((label) => label.toLowerCase() === name)) throw notFound('Label does not exist')
  issue.labels = issue.labels.filter((label) => label.toLowerCase() !== name)
  context.store.touch(issue)
  return issueLabelsReply(context, issue.labels)
}

export const labelHandlers: Record<string, RestHandler> = {
  'issues/list-labels-for-repo': listForRepo,
  'issues/create-label': createLabel,
  'issues/get-label': getLabel,
  'issues/update-label': updateLabel,
  'issues/delete-label': deleteLabel,
  'issues/list-labels-on-issue': listOnIssue,
  'issues/add-labels': addToIssue,
  'issues/set-labels': setOnIssue,
  'issues/remove-label': removeFromIssue,
}
