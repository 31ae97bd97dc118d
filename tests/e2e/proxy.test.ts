/**
 * The action behind the runner's proxy (`http_proxy`, `https_proxy`, `no_proxy`), as `dist/index.js` runs it: the
 * bundle loads undici only when a proxy applies (`src/github/undici-on-demand.ts`), so this is the one test of
 * that path. The API's host name resolves nowhere; only the proxy, which tunnels every CONNECT to the emulator,
 * can reach it, so a request that bypasses the proxy fails the run.
 */
import { createServer, connect, type Server, type Socket } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { issueLabeledEvent } from '../support/events.js'
import { disposeRuns, runAction } from '../support/runner.js'

/** A host name no resolver knows (`.invalid` is reserved for that, RFC 6761). */
const API_HOST = 'api.converge-proxy-test.invalid'

interface Proxy {
  url: string
  /** The `host:port` of every CONNECT it tunnelled. */
  tunnels: string[]
  close(): Promise<void>
}

/** An HTTP proxy that answers CONNECT only, and tunnels each one to `port` on 127.0.0.1, whatever host it names. */
async function startProxy(port: number): Promise<Proxy> {
  const tunnels: string[] = []
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    sockets.add(client)
    client.on('close', () => sockets.delete(client))
    client.once('data', (head) => {
      const request = /^CONNECT (\S+) HTTP\/1\.[01]\r\n/.exec(head.toString('latin1'))
      if (!request) return client.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n')
      tunnels.push(request[1]!)
      const upstream = connect(port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        upstream.pipe(client).pipe(upstream)
      })
      sockets.add(upstream)
      upstream.on('close', () => sockets.delete(upstream))
      upstream.on('error', () => client.destroy())
      client.on('error', () => upstream.destroy())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${address.port}`,
    tunnels,
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    }),
  }
}

describe('the action behind a proxy (dist/index.js against the API emulator)', () => {
  let gh: Emulator
  let proxy: Proxy
  beforeEach(async () => {
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n' } })
    gh.seed.user({ login: 'alice' })
    gh.seed.permission('alice', 'write')
    gh.seed.issue({ number: 42, title: 'Slugs with accents', body: '- [ ] Fix `src/slugify.js` so accented letters become ASCII\n\n```sh\nnode --test\n```\n', labels: ['converge:plan'], user: 'alice' })
    proxy = await startProxy(Number(new URL(gh.url).port))
  })
  afterEach(async () => {
    await disposeRuns()
    await proxy.close()
    try { gh.expectNoViolations() } finally { await gh.close() }
  })

  it('sends every API request through http_proxy when one is set, and plans the issue', async () => {
    const port = new URL(gh.url).port
    const api = `http://${API_HOST}:${port}`
    const run = await runAction({
      gh, event: issueLabeledEvent({ gh, issue: 42, label: 'converge:plan', sender: 'alice' }),
      env: { GITHUB_API_URL: api, GITHUB_GRAPHQL_URL: `${api}/graphql`, http_proxy: proxy.url },
    })
    expect(run.errors).toEqual([])
    expect(run.exitCode).toBe(0)
    expect(run.outputs.status).toBe('planned')
    expect(gh.requests.length).toBeGreaterThan(0)
    expect(new Set(proxy.tunnels)).toEqual(new Set([`${API_HOST}:${port}`]))
  })
})
