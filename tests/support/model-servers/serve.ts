/**
 * What the three scripted model servers (anthropic.ts, openai.ts, gemini.ts) do alike: listen on 127.0.0.1 at a
 * free port, read each request's body, record it, hand it to the vendor's handler, and answer in JSON.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ModelServer, RecordedRequest } from './types.js'

/** A request as the vendor's handler gets it: its path without the query, its text, and that text parsed. */
export interface ReadRequest<B> {
  path: string
  text: string
  body: B
}

/**
 * Serves `handle` until `close`; `base` is added to the URL the CLI is given. A request the handler fails on
 * (a scenario that cannot be played) is answered by `failed`, as the vendor answers an error of its own.
 */
export async function serveModel<B>(
  handle: (request: IncomingMessage, response: ServerResponse, read: ReadRequest<B>) => Promise<void>,
  failed: (response: ServerResponse, error: unknown) => void,
  base = '',
): Promise<ModelServer> {
  const requests: RecordedRequest[] = []
  const server = createServer((request, response) => {
    void (async () => {
      let text = ''
      for await (const chunk of request) text += chunk
      const path = (request.url ?? '/').split('?')[0]!
      const body = (text ? JSON.parse(text) : {}) as B
      requests.push({ method: request.method ?? 'GET', path, body, headers: request.headers })
      await handle(request, response, { path, text, body })
    })().catch((error: unknown) => failed(response, error))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${base}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A JSON answer; `retryAfter`: with `retry-after: 0`, as the vendor sends with a rate limit or an overload. */
export function sendJson(response: ServerResponse, status: number, body: unknown, retryAfter = false): void {
  response.writeHead(status, { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': '0' } : {}) })
  response.end(JSON.stringify(body))
}
