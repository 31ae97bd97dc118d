import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gitHttpRoute, serveGitHttp, type GitHttpRoute } from './git/smart-http.js'
import { syncPullRefs } from './git/pull-refs.js'
import { errorBody } from './http.js'
import type { RequestRecord } from './journal.js'
import { RequestPipeline, type EmulatorParts, type Outcome } from './pipeline.js'
import { DEFAULT_DOCS_URL } from './openapi/route-table.js'
import { Urls } from './store/urls.js'

export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  url: string
  urls: Urls
  close(): Promise<void>
}

/** Starts the emulator's HTTP server on 127.0.0.1, on a free port. */
export async function startHttpServer(parts: EmulatorParts, htmlBase: string): Promise<RunningServer> {
  let pipeline: RequestPipeline | undefined
  let requestCount = 0
  const server = createServer((request, response) => {
    const requestId = `EMU0:${(++requestCount).toString(16).padStart(6, '0')}`
    void serve(pipeline!, parts, requestId, request, response)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const urls = new Urls(url, htmlBase, parts.store.repository)
  pipeline = new RequestPipeline(parts, urls)
  return {
    url,
    urls,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

async function serve(
  pipeline: RequestPipeline,
  parts: EmulatorParts,
  requestId: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://emulator.invalid')
  const record: RequestRecord = {
    method: (request.method ?? 'GET').toUpperCase(),
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    status: 0,
    notModified: false,
  }
  parts.journal.requests.push(record)
  const gitRoute = gitHttpRoute(url.pathname)
  if (gitRoute !== undefined) {
    await serveGit(parts, gitRoute, request, response, record, requestId)
    return
  }
  let outcome: Outcome
  try {
    await syncPullRefs(parts.store, parts.git)
    outcome = await pipeline.process(request, record, requestId)
  } catch (error) {
    // A client that went away mid-request (a killed runner, a request it timed out) is not the emulator's error.
    if (clientGone(request, error)) {
      record.status = 499
      return
    }
    parts.journal.violations.push({ kind: 'emulator-error', method: record.method, path: record.path, problems: [String(error)] })
    const reply = { status: 500, body: errorBody(500, 'Server Error', DEFAULT_DOCS_URL) }
    outcome = { kind: 'reply', reply, resource: 'core', chargeable: false }
  }
  if (outcome.kind === 'reset') {
    request.socket.destroy()
    return
  }
  const { reply, resource } = outcome
  if (outcome.chargeable) parts.rateLimit.charge(resource)
  const data = reply.raw?.data ?? (reply.body === undefined ? '' : JSON.stringify(reply.body))
  const contentType = reply.raw?.contentType ?? 'application/json; charset=utf-8'
  record.status = reply.status
  record.notModified = outcome.conditional === true
  response.writeHead(reply.status, {
    ...(reply.status === 204 || reply.status === 304 ? {} : { 'content-type': contentType }),
    'x-github-request-id': requestId,
    'x-github-media-type': 'github.v3; format=json',
    'x-github-api-version-selected': '2022-11-28',
    ...parts.rateLimit.headers(resource),
    ...reply.headers,
  })
  response.end(reply.status === 304 ? '' : data)
}

/** Whether `error` came from the client closing its request before the emulator had read it. */
function clientGone(request: IncomingMessage, error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return request.destroyed && (code === 'ECONNRESET' || (error as Error | undefined)?.message === 'aborted')
}

/** Git over HTTP: outside the REST pipeline (no OpenAPI route, no rate limit, no faults), logged like every request. */
async function serveGit(
  parts: EmulatorParts,
  route: GitHttpRoute,
  request: IncomingMessage,
  response: ServerResponse,
  record: RequestRecord,
  requestId: string,
): Promise<void> {
  try {
    await syncPullRefs(parts.store, parts.git)
    await serveGitHttp(parts, route, request, response, record, requestId)
  } catch (error) {
    parts.journal.violations.push({ kind: 'emulator-error', method: record.method, path: record.path, problems: [String(error)] })
    record.status = 500
    if (response.headersSent) {
      response.destroy()
    } else {
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'x-github-request-id': requestId })
      response.end('Server Error\n')
    }
  }
}
