import type { IncomingHttpHeaders } from 'node:http'
import type { GitStore } from '../git/git-store.js'
import { HttpError, notFound, type Reply } from '../http.js'
import type { RateLimitMeter } from '../rate-limit.js'
import type { IssueRecord, UserRecord } from '../store/records.js'
import type { ShapeContext } from '../store/shapes.js'

/** Everything a REST handler sees: the request (already routed, authenticated and schema-checked) and the stores. */
export interface RestContext extends ShapeContext {
  git: GitStore
  rateLimit: RateLimitMeter
  actor: UserRecord
  /** path parameters of the OpenAPI template, percent-decoded */
  params: Record<string, string>
  query: URLSearchParams
  headers: IncomingHttpHeaders
  /** the parsed JSON body; it conforms to the operation's requestBody schema */
  body: unknown
}

export type RestHandler = (context: RestContext) => Reply | Promise<Reply>

/** A numeric path parameter; GitHub answers 404 when it is not a number. */
export function numberParam(context: RestContext, name: string): number {
  const value = Number(context.params[name])
  if (!Number.isInteger(value) || value <= 0) throw notFound()
  return value
}

export function stringParam(context: RestContext, name: string): string {
  const value = context.params[name]
  if (value === undefined) throw new Error(`route has no parameter ${name}`)
  return value
}

export function existingIssue(context: RestContext, name = 'issue_number'): IssueRecord {
  const issue = context.store.issue(numberParam(context, name))
  if (issue === undefined) throw notFound()
  return issue
}

/** GitHub limits issue and comment bodies to 65536 characters. */
const MAX_BODY_LENGTH = 65536

export function checkBodyLength(resource: 'Issue' | 'IssueComment' | 'PullRequest', body: string | null | undefined): void {
  if (body !== null && body !== undefined && body.length > MAX_BODY_LENGTH) {
    throw new HttpError(422, 'Validation Failed', [
      { resource, code: 'custom', field: 'body', message: `body is too long (maximum is ${MAX_BODY_LENGTH} characters)` },
    ])
  }
}

export type Direction = 'asc' | 'desc'

/** The `direction` query parameter, or the endpoint's default. */
export function directionOf(query: URLSearchParams, fallback: Direction): Direction {
  const direction = query.get('direction')
  return direction === 'asc' || direction === 'desc' ? direction : fallback
}

/** Sorts by a timestamp field, ties broken by id. */
export function sortByTime<T extends { id: number }>(items: T[], time: (item: T) => string, direction: Direction): T[] {
  const sign = direction === 'asc' ? 1 : -1
  return [...items].sort((a, b) => sign * (time(a).localeCompare(time(b)) || a.id - b.id))
}
