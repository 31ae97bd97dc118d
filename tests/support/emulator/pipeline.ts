import type { IncomingMessage } from 'node:http'
import { setTimeout as delay } from 'node:timers/promises'
import type { Tokens } from './auth.js'
import { faultReply, type FaultDecision, type Faults } from './faults.js'
import { commitToBranch } from './git/branch-commits.js'
import type { GitStore } from './git/git-store.js'
import { executeGraphql, githubErrors } from './graphql/endpoint.js'
import { prepareGraphql } from './graphql/request.js'
import { githubGraphqlSchema } from './graphql/schema.js'
import { errorBody, etagOf, HttpError, ifNoneMatchHits, readBody, type Reply } from './http.js'
import type { Journal, RequestRecord, ViolationKind } from './journal.js'
import { DEFAULT_DOCS_URL, matchRoute, type OperationRoute } from './openapi/route-table.js'
import { requestBodyProblems, responseBodyProblems } from './openapi/schema-validation.js'
import type { RateLimitMeter, RateLimitResource } from './rate-limit.js'
import { restHandlers } from './rest/handlers.js'
import type { RepoStore } from './store/repo-store.js'
import type { UserRecord } from './store/records.js'
import type { Urls } from './store/urls.js'
import { isoSeconds } from './time.js'

/** The stores and instruments one emulator's requests go through. */
export interface EmulatorParts {
  store: RepoStore
  git: GitStore
  journal: Journal
  faults: Faults
  rateLimit: RateLimitMeter
  tokens: Tokens
  /** check every JSON answer against the operation's response schema and report mismatches as violations */
  validateResponses: boolean
}

/** How a request ends: an answer (with the rate-limit resource it is counted against) or a dropped connection. */
export type Outcome =
  | { kind: 'reply'; reply: Reply; resource: RateLimitResource; chargeable: boolean; conditional?: boolean }
  | { kind: 'reset' }

interface Exchange {
  request: IncomingMessage
  record: RequestRecord
  requestId: string
  url: URL
  method: string
  body: unknown
  actor: UserRecord
}

const NOT_FOUND_BODY = (docsUrl: string) => errorBody(404, 'Not Found', docsUrl)

/**
 * What happens to every request: authentication, then REST routing against GitHub's OpenAPI description (or GraphQL
 * validation against GitHub's schema), request-body validation, fault injection, the handler, response validation,
 * ETag / `304 Not Modified`, and rate-limit accounting.
 */
export class RequestPipeline {
  constructor(
    private readonly parts: EmulatorParts,
    private readonly urls: Urls,
  ) {}

  async process(request: IncomingMessage, record: RequestRecord, requestId: string): Promise<Outcome> {
    const url = new URL(request.url ?? '/', 'http://emulator.invalid')
    const rawBody = await readBody(request)
    const login = this.parts.tokens.actorFor(request.headers.authorization)
    if (login === undefined) {
      return this.answer(401, errorBody(401, 'Requires authentication', DEFAULT_DOCS_URL), 'core', false)
    }
    record.actor = login
    let body: unknown
    if (rawBody.length > 0) {
      try {
        body = JSON.parse(rawBody.toString('utf8'))
      } catch {
        this.violation(record, 'invalid-body', ['the body is not JSON'])
        return this.answer(400, errorBody(400, 'Problems parsing JSON', DEFAULT_DOCS_URL), 'core', true)
      }
      record.body = body
    }
    const exchange = { request, record, requestId, url, method: record.method, body, actor: this.parts.store.ensureUser(login) }
    return url.pathname === '/graphql' ? this.graphql(exchange) : this.rest(exchange)
  }

  private async rest(exchange: Exchange): Promise<Outcome> {
    const { record, method } = exchange
    const match = matchRoute(method, this.canonicalPath(exchange.url.pathname))
    if (match.kind !== 'operation') {
      const problem =
        match.kind === 'unknown-route'
          ? 'no path of GitHub\'s REST API matches'
          : `${match.template} has no ${method} (it has ${match.allowedMethods.join(', ')})`
      this.violation(record, match.kind, [problem])
      return this.answer(404, NOT_FOUND_BODY(DEFAULT_DOCS_URL), 'core', true)
    }
    const { route, params } = match
    record.operationId = route.operationId
    if (!this.isThisRepository(params)) return this.answer(404, NOT_FOUND_BODY(route.docsUrl), 'core', true)
    const problems = requestBodyProblems(route, exchange.body ?? {})
    if (problems.length > 0) {
      this.violation(record, 'invalid-body', problems)
      const message = `Invalid request.\n\n${problems.join('\n')}`
      return this.answer(422, errorBody(422, message, route.docsUrl), 'core', true)
    }
    const handler = restHandlers[route.operationId]
    if (handler === undefined) {
      this.violation(record, 'not-emulated', [`the emulator does not serve ${route.operationId}`])
      return this.answer(404, errorBody(404, `Not emulated: ${route.operationId}`, route.docsUrl), 'core', true)
    }
    const branchWrite = route.operationId === 'git/update-ref' ? /^(?:refs\/)?heads\/(.+)$/.exec(params.ref ?? '')?.[1] : undefined
    const faulted = await this.applyFault(exchange, { operationId: route.operationId, branchWrite }, 'core')
    if (faulted !== undefined) return faulted
    const { parts, urls } = this
    let reply: Reply
    try {
      reply = await handler({
        store: parts.store,
        git: parts.git,
        urls,
        rateLimit: parts.rateLimit,
        actor: exchange.actor,
        params,
        query: exchange.url.searchParams,
        headers: exchange.request.headers,
        body: exchange.body,
      })
    } catch (error) {
      reply = this.errorReply(record, route, error)
    }
    if (parts.validateResponses && reply.raw === undefined && reply.body !== undefined) {
      const responseProblems = responseBodyProblems(route, reply.status, reply.body)
      if (responseProblems.length > 0) this.violation(record, 'invalid-response', responseProblems)
    }
    return this.conditional(exchange, reply, route.operationId !== 'rate-limit/get')
  }

  private async graphql(exchange: Exchange): Promise<Outcome> {
    const { record } = exchange
    if (exchange.method !== 'POST') {
      this.violation(record, 'unknown-method', ['GitHub serves GraphQL on POST /graphql only'])
      return this.answer(404, NOT_FOUND_BODY(DEFAULT_DOCS_URL), 'graphql', true)
    }
    const schema = await githubGraphqlSchema()
    const prepared = prepareGraphql(schema, exchange.body)
    if (prepared.summary) record.graphql = prepared.summary
    if (!prepared.valid) {
      this.violation(record, 'invalid-graphql', prepared.errors.map((error) => error.message))
      return this.answer(200, { errors: githubErrors(prepared.errors) }, 'graphql', true)
    }
    const faulted = await this.applyFault(exchange, { branchWrite: prepared.branchWrites[0] }, 'graphql')
    if (faulted !== undefined) return faulted
    const notEmulated = new Set<string>()
    const { body, emulatorErrors } = await executeGraphql(schema, prepared, {
      git: this.parts.git,
      store: this.parts.store,
      urls: this.urls,
      actor: exchange.actor,
      notEmulated: (field) => notEmulated.add(field),
    })
    if (notEmulated.size > 0) this.violation(record, 'not-emulated', [...notEmulated].map((f) => `GraphQL field ${f}`))
    if (body.data === undefined) this.violation(record, 'invalid-graphql', (body.errors ?? []).map((e) => e.message))
    // A field that is not emulated resolves to null, which GraphQL reports as an error of its own: count it once.
    if (emulatorErrors.length > 0 && notEmulated.size === 0) this.violation(record, 'emulator-error', emulatorErrors)
    return this.answer(200, body, 'graphql', true)
  }

  /** Applies the fault the plan picks for this request: an answer, a dropped connection, or a delay / moved head before handling. */
  private async applyFault(
    exchange: Exchange,
    target: { operationId?: string; branchWrite: string | undefined },
    resource: RateLimitResource,
  ): Promise<Outcome | undefined> {
    const { record } = exchange
    const decision: FaultDecision | undefined = this.parts.faults.decide({
      method: record.method,
      path: record.path,
      query: record.query,
      body: exchange.body,
      ...(target.operationId ? { operationId: target.operationId } : {}),
      ...(record.graphql ? { graphql: record.graphql } : {}),
      ...(target.branchWrite ? { branchWrite: target.branchWrite } : {}),
    })
    if (decision === undefined) return undefined
    record.fault = decision.kind
    if (decision.kind === 'reset') return { kind: 'reset' }
    if (decision.kind === 'slow') {
      await delay(decision.delayMs)
      return undefined
    }
    if (decision.kind === 'stale-head') {
      await this.moveBranch(target.branchWrite!)
      return undefined
    }
    return { kind: 'reply', reply: faultReply(decision.kind, exchange.requestId), resource, chargeable: false }
  }

  /** Another writer's commit on `branch` (same tree), so a compare-and-swap based on the old head fails. */
  private async moveBranch(branch: string): Promise<void> {
    await commitToBranch(this.parts.git, {
      branch,
      changes: { additions: [], deletions: [] },
      message: 'Concurrent update (emulator stale-head fault)',
      author: { name: 'emulator', email: 'emulator@example.invalid', date: isoSeconds() },
    })
  }

  /** Adds the ETag of a successful GET and answers `304 Not Modified` when If-None-Match names it. */
  private conditional(exchange: Exchange, reply: Reply, chargeable: boolean): Outcome {
    if (exchange.method !== 'GET' || reply.status !== 200 || reply.raw !== undefined) {
      return { kind: 'reply', reply, resource: 'core', chargeable }
    }
    const etag = etagOf(JSON.stringify(reply.body))
    const headers = { ...reply.headers, etag }
    if (ifNoneMatchHits(exchange.request.headers['if-none-match'] as string | undefined, etag)) {
      return { kind: 'reply', reply: { status: 304, headers }, resource: 'core', chargeable: false, conditional: true }
    }
    return { kind: 'reply', reply: { ...reply, headers }, resource: 'core', chargeable }
  }

  private errorReply(record: RequestRecord, route: OperationRoute, error: unknown): Reply {
    if (error instanceof HttpError) {
      return { status: error.status, body: errorBody(error.status, error.message, route.docsUrl, error.errors) }
    }
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
    this.violation(record, 'emulator-error', [message])
    return { status: 500, body: errorBody(500, 'Server Error', route.docsUrl) }
  }

  private answer(status: number, body: unknown, resource: RateLimitResource, chargeable: boolean): Outcome {
    return { kind: 'reply', reply: { status, body }, resource, chargeable }
  }

  private violation(record: RequestRecord, kind: ViolationKind, problems: string[]): void {
    this.parts.journal.violations.push({
      kind,
      method: record.method,
      path: record.path,
      ...(record.operationId ? { operationId: record.operationId } : {}),
      problems,
    })
  }

  /** `/repositories/{id}/…` (the form of GitHub's pagination links) → `/repos/{owner}/{repo}/…`. */
  private canonicalPath(path: string): string {
    const { id, owner, name } = this.parts.store.repository
    const match = /^\/repositories\/(\d+)(\/.*)?$/.exec(path)
    return match !== null && Number(match[1]) === id ? `/repos/${owner}/${name}${match[2] ?? ''}` : path
  }

  private isThisRepository(params: Record<string, string>): boolean {
    const { owner, name } = this.parts.store.repository
    if (params.owner !== undefined && params.owner.toLowerCase() !== owner.toLowerCase()) return false
    return params.repo === undefined || params.repo.toLowerCase() === name.toLowerCase()
  }
}
