import { isSha } from '../git/git-store.js'
import { HttpError, json, notFound, unprocessable } from '../http.js'
import { pagedReply } from '../pagination.js'
import type { AnnotationRecord, CheckRunRecord } from '../store/records.js'
import { checkRunShape } from '../store/shapes.js'
import { isoSeconds } from '../time.js'
import { numberParam, stringParam, type RestContext, type RestHandler } from './context.js'

/**
 * Fields of a create or update request. The request schema already enforces GitHub's limits:
 * at most 50 annotations per request, summary and text at most 65535 characters, known annotation levels.
 */
interface CheckRunInput {
  name?: string
  head_sha?: string
  details_url?: string
  external_id?: string
  status?: CheckRunRecord['status']
  conclusion?: string
  started_at?: string
  completed_at?: string
  output?: { title?: string; summary?: string; text?: string; annotations?: AnnotationRecord[] }
}

function existingRun(context: RestContext): CheckRunRecord {
  const run = context.store.checkRun(numberParam(context, 'check_run_id'))
  if (run === undefined) throw notFound()
  return run
}

/** Applies a create or update request: a conclusion completes the run, annotations are appended. */
function applyInput(run: Omit<CheckRunRecord, 'id'>, input: CheckRunInput): void {
  if (input.name !== undefined) run.name = input.name
  if (input.details_url !== undefined) run.detailsUrl = input.details_url
  if (input.external_id !== undefined) run.externalId = input.external_id
  if (input.started_at !== undefined) run.startedAt = isoSeconds(new Date(input.started_at))
  if (input.status !== undefined) run.status = input.status
  if (input.conclusion !== undefined) {
    run.status = 'completed'
    run.conclusion = input.conclusion
  }
  if (run.status === 'completed') {
    if (run.conclusion === null) throw new HttpError(422, 'Invalid request.\n\n"conclusion" wasn\'t supplied.')
    run.completedAt = input.completed_at ? isoSeconds(new Date(input.completed_at)) : (run.completedAt ?? isoSeconds())
  }
  if (input.output !== undefined) {
    const { title, summary, text, annotations } = input.output
    if (title !== undefined) run.output.title = title
    if (summary !== undefined) run.output.summary = summary
    if (text !== undefined) run.output.text = text
    run.annotations.push(...(annotations ?? []))
  }
}

const create: RestHandler = async (context) => {
  const input = context.body as CheckRunInput & { name: string; head_sha: string }
  if ((await context.git.objectType(input.head_sha)) !== 'commit') throw unprocessable(`No commit found for SHA: ${input.head_sha}`)
  const run: Omit<CheckRunRecord, 'id'> = {
    name: input.name,
    headSha: input.head_sha,
    status: 'queued',
    conclusion: null,
    startedAt: isoSeconds(),
    completedAt: null,
    detailsUrl: null,
    externalId: null,
    output: { title: null, summary: null, text: null },
    annotations: [],
    creator: context.actor.login,
  }
  applyInput(run, input)
  return json(201, checkRunShape(context, context.store.addCheckRun(run)))
}

const update: RestHandler = (context) => {
  const run = existingRun(context)
  const draft = structuredClone(run)
  applyInput(draft, context.body as CheckRunInput)
  Object.assign(run, draft)
  return json(200, checkRunShape(context, run))
}

const get: RestHandler = (context) => json(200, checkRunShape(context, existingRun(context)))

const listForRef: RestHandler = async (context) => {
  const { query } = context
  const ref = stringParam(context, 'ref')
  const sha = isSha(ref) ? ref : (await context.git.readObject(`${ref}^{commit}`))?.sha
  if (sha === undefined) throw unprocessable(`No commit found for SHA: ${ref}`)
  let runs = context.store.checkRuns().filter((run) => run.headSha === sha)
  const name = query.get('check_name')
  const status = query.get('status')
  if (name !== null) runs = runs.filter((run) => run.name === name)
  if (status !== null) runs = runs.filter((run) => run.status === status)
  if (query.get('filter') !== 'all') {
    runs = runs.filter((run) => !runs.some((other) => other.name === run.name && other.id > run.id))
  }
  runs.sort((a, b) => b.id - a.id)
  const page = pagedReply(
    runs.map((run) => checkRunShape(context, run)),
    query,
    context.urls.repositoryById(`/commits/${ref}/check-runs`),
  )
  return { ...page, body: { total_count: runs.length, check_runs: page.body } }
}

const listAnnotations: RestHandler = (context) => {
  const run = existingRun(context)
  const annotations = run.annotations.map((annotation) => ({
    path: annotation.path,
    blob_href: context.urls.repoHtml(`/blob/${run.headSha}/${annotation.path}`),
    start_line: annotation.start_line,
    end_line: annotation.end_line,
    start_column: annotation.start_column ?? null,
    end_column: annotation.end_column ?? null,
    annotation_level: annotation.annotation_level,
    title: annotation.title ?? null,
    message: annotation.message,
    raw_details: annotation.raw_details ?? null,
  }))
  return pagedReply(annotations, context.query, context.urls.repositoryById(`/check-runs/${run.id}/annotations`))
}

export const checkHandlers: Record<string, RestHandler> = {
  'checks/create': create,
  'checks/update': update,
  'checks/get': get,
  'checks/list-for-ref': listForRef,
  'checks/list-annotations': listAnnotations,
}
