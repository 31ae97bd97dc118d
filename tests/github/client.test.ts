import { createServer, type Server } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { clientFromEnvironment, createGitHubClient } from '../../src/github/client.js'

describe('the GitHub client on GitHub Enterprise Server', () => {
  let server: Server
  let base: string
  const seen: string[] = []
  beforeEach(async () => {
    seen.length = 0
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`)
      res.setHeader('content-type', 'application/json')
      res.end(req.url === '/api/graphql' ? JSON.stringify({ data: { viewer: { login: 'octocat' } } }) : JSON.stringify({ number: 1, title: 'x' }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  })
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('sends REST requests under GITHUB_API_URL and GraphQL to GITHUB_GRAPHQL_URL, with the token', async () => {
    const client = clientFromEnvironment('ghs_secret', {
      GITHUB_API_URL: `${base}/api/v3`, GITHUB_GRAPHQL_URL: `${base}/api/graphql`, CONVERGE_WRITE_INTERVAL_MS: '0',
    })
    await client.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 })
    await client.graphql('query { viewer { login } }')
    expect(seen).toEqual(['GET /api/v3/repos/o/r/issues/1 token ghs_secret', 'POST /api/graphql token ghs_secret'])
    expect(client.stats).toMatchObject({ requests: 2, notModified: 0 })
  })

  it('refuses pacing settings that are not whole milliseconds', () => {
    expect(() => clientFromEnvironment('t', { CONVERGE_RETRY_UNIT_MS: 'fast' })).toThrow('CONVERGE_RETRY_UNIT_MS must be a whole number of milliseconds, got "fast"')
  })
})

describe('an API that cannot be reached', () => {
  it('says the connection was refused, by whom, for each attempt and in the final error (not "500")', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as { port: number }).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const log: string[] = []
    const client = createGitHubClient({
      token: 't', apiUrl: `http://127.0.0.1:${port}`, retries: 2, retryBaseMs: 1,
      log: { debug: (m) => log.push(m), warning: (m) => log.push(m) },
    })
    await expect(client.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 }))
      .rejects.toThrow(`GitHub API GET /repos/o/r/issues/1 failed: connection refused by 127.0.0.1:${port}`)
    expect(client.stats.requests).toBe(3)
    expect(log.filter((l) => l.includes('no answer'))).toEqual(Array(3).fill(`GitHub API GET /repos/{owner}/{repo}/issues/{n}: no answer: connection refused by 127.0.0.1:${port}`.replace('{owner}/{repo}', 'o/r')))
    expect(log.join('\n')).not.toMatch(/\b500\b/)
  })
})
