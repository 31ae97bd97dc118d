import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { matchRoute, operationById } from '../support/emulator/openapi/route-table.js'
import { descriptionReads } from '../support/emulator/openapi/description.js'
import { responseBodyProblems } from '../support/emulator/openapi/schema-validation.js'
import { restHandlers } from '../support/emulator/rest/handlers.js'
import { api } from './http-client.js'

const SAMPLE_PARAMS: Record<string, string> = {
  owner: 'octo-org',
  repo: 'demo',
  ref: 'heads/feature/x',
  path: 'docs/guide.md',
  branch: 'feature/x',
  name: 'bug',
  username: 'alice',
  file_sha: 'a'.repeat(40),
  tree_sha: 'b'.repeat(40),
  commit_sha: 'c'.repeat(40),
}

describe('the emulator serves only operations of GitHub’s OpenAPI description', () => {
  test.each(Object.keys(restHandlers))('%s exists and its path routes back to it', (operationId) => {
    const route = operationById(operationId)
    expect(route, `${operationId} is not in GitHub's description`).toBeDefined()
    const path = route!.template.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE_PARAMS[name] ?? '7')
    const match = matchRoute(route!.method, path)
    expect(match.kind === 'operation' && match.route.operationId).toBe(operationId)
  })

  test('the most specific template wins and slash-spanning parameters keep their slashes', () => {
    const branchProtection = matchRoute('GET', '/repos/o/r/branches/feature/x/protection')
    expect(branchProtection.kind === 'operation' && branchProtection.route.operationId).toBe('repos/get-branch-protection')
    const ref = matchRoute('PATCH', '/repos/o/r/git/refs/heads/feature/x')
    expect(ref.kind === 'operation' && ref.params).toMatchObject({ ref: 'heads/feature/x' })
    const encoded = matchRoute('GET', '/repos/o/r/labels/needs%20review')
    expect(encoded.kind === 'operation' && encoded.params.name).toBe('needs review')
  })

  test('response schemas catch a malformed answer', () => {
    const route = operationById('issues/get')!
    expect(responseBodyProblems(route, 200, { id: 'not a number' })).toContain('"number" wasn\'t supplied (in the body).')
    expect(responseBodyProblems(route, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com' })).toEqual([])
  })
})

test('the description is read once per process, however many emulators start and answer', async () => {
  const answered = async () => {
    const gh = await startEmulator({ owner: 'o', repo: 'r' })
    try {
      // An answer is checked against the description's schemas: the route table and the validators both read it.
      expect((await api(gh, 'GET', '/repos/o/r')).status).toBe(200)
    } finally {
      await gh.close()
    }
  }
  await answered()
  expect(descriptionReads()).toBe(1)
  for (let attempt = 0; attempt < 3; attempt++) await answered()
  expect(descriptionReads()).toBe(1)
})

describe('requests that break the contract are violations', () => {
  let gh: Emulator

  beforeAll(async () => {
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo' })
    gh.seed.issue({ number: 1, title: 'Existing' })
  })
  afterAll(() => gh.close())

  const lastViolation = () => gh.violations[gh.violations.length - 1]

  test('an unknown route answers 404 and is reported', async () => {
    const answer = await api(gh, 'GET', '/repos/octo-org/demo/no-such-thing')
    expect(answer.status).toBe(404)
    expect(answer.body.message).toBe('Not Found')
    expect(lastViolation()).toMatchObject({ kind: 'unknown-route', method: 'GET', path: '/repos/octo-org/demo/no-such-thing' })
  })

  test('an unknown method on a known path answers 404 and is reported', async () => {
    const answer = await api(gh, 'PUT', '/repos/octo-org/demo/issues/1', { body: { title: 'x' } })
    expect(answer.status).toBe(404)
    expect(lastViolation()).toMatchObject({ kind: 'unknown-method' })
    expect(lastViolation()!.problems[0]).toContain('/repos/{owner}/{repo}/issues/{issue_number} has no PUT')
  })

  test('a body that fails the requestBody schema answers 422, is reported and changes nothing', async () => {
    const answer = await api(gh, 'POST', '/repos/octo-org/demo/issues', { body: { body: 'no title' } })
    expect(answer.status).toBe(422)
    expect(answer.body.message).toContain('"title" wasn\'t supplied')
    expect(lastViolation()).toMatchObject({ kind: 'invalid-body', operationId: 'issues/create' })
    expect(gh.state.issues()).toHaveLength(1)
  })

  test('a wrongly typed field and an unknown enum value are reported', async () => {
    await api(gh, 'PATCH', '/repos/octo-org/demo/issues/1', { body: { state: 'merged' } })
    expect(lastViolation()!.problems.join()).toContain("'/state'")
    await api(gh, 'POST', '/repos/octo-org/demo/issues/1/labels', { body: { labels: 'bug' } })
    expect(lastViolation()).toMatchObject({ kind: 'invalid-body', operationId: 'issues/add-labels' })
    expect(gh.state.issue(1)).toMatchObject({ state: 'open', labels: [] })
  })

  test('a body that is not JSON answers 400 Problems parsing JSON', async () => {
    const response = await fetch(`${gh.url}/repos/octo-org/demo/issues`, {
      method: 'POST',
      headers: { authorization: `token ${gh.token}`, 'content-type': 'application/json' },
      body: '{"title": ',
    })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toBe('Problems parsing JSON')
    expect(lastViolation()).toMatchObject({ kind: 'invalid-body' })
  })

  test('a real operation the emulator does not serve is reported as not emulated', async () => {
    const answer = await api(gh, 'GET', '/repos/octo-org/demo/releases')
    expect(answer.status).toBe(404)
    expect(lastViolation()).toMatchObject({ kind: 'not-emulated', operationId: 'repos/list-releases' })
  })

  test('expectNoViolations lists every violation readably', () => {
    expect(() => gh.expectNoViolations()).toThrowError(/unknown-route: GET \/repos\/octo-org\/demo\/no-such-thing/)
    expect(() => gh.expectNoViolations()).toThrowError(/not-emulated: GET \/repos\/octo-org\/demo\/releases \(repos\/list-releases\)/)
  })

  test('valid requests are not violations; other repositories are simply not found', async () => {
    const before = gh.violations.length
    expect((await api(gh, 'GET', '/repos/octo-org/demo/issues/1')).status).toBe(200)
    expect((await api(gh, 'GET', '/repos/someone-else/demo/issues/1')).status).toBe(404)
    expect((await api(gh, 'GET', '/repositories/1296269/issues?page=1')).status).toBe(200)
    expect(gh.violations.length).toBe(before)
    expect(gh.requests.at(-1)).toMatchObject({ operationId: 'issues/list-for-repo', status: 200 })
  })

  test('a request without a token answers 401 like GitHub', async () => {
    const answer = await api(gh, 'GET', '/repos/octo-org/demo/issues/1', { token: null })
    expect(answer.status).toBe(401)
    expect(answer.body.message).toBe('Requires authentication')
  })
})
