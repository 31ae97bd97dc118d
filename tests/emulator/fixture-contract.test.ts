/**
 * Contract tests: the emulator against real GitHub answers recorded in @octokit/fixtures. Status codes, the keys of
 * the bodies (the emulator may send newer keys, never fewer) and the formats of Link, ETag and Location are compared;
 * ids and URLs are not.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { afterEach, describe, expect, test } from 'vitest'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { api, type ApiResponse } from './http-client.js'

interface RecordedExchange {
  method: string
  path: string
  body: unknown
  status: number
  response: unknown
  headers: Record<string, string>
}

const require = createRequire(import.meta.url)

function scenario(name: string): RecordedExchange[] {
  const file = require.resolve(`@octokit/fixtures/scenarios/api.github.com/${name}/normalized-fixture.json`)
  return JSON.parse(readFileSync(file, 'utf8')) as RecordedExchange[]
}

/** Keys of `recorded` (recursively, through the first element of arrays of objects) that `actual` lacks. */
function missingKeys(recorded: unknown, actual: unknown, at = ''): string[] {
  if (Array.isArray(recorded)) {
    if (recorded[0] === null || typeof recorded[0] !== 'object') return []
    if (!Array.isArray(actual) || actual.length === 0) return [`${at}[0]`]
    return missingKeys(recorded[0], actual[0], `${at}[0]`)
  }
  if (recorded === null || typeof recorded !== 'object') return []
  if (actual === null || typeof actual !== 'object') return [at || '(root)']
  return Object.entries(recorded).flatMap(([key, value]) => {
    const path = at ? `${at}.${key}` : key
    if (!(key in actual)) return [path]
    return missingKeys(value, (actual as Record<string, unknown>)[key], path)
  })
}

/** A Link header with the host and the repository id taken out, so recorded and emulated headers compare. */
function normalizedLink(link: string | null): string | null {
  return link?.replace(/<https?:\/\/[^/]+\/repositories\/\d+/g, '<API/repositories/ID') ?? null
}

const ETAG_FORMAT = /^(W\/)?"[0-9a-f]{32,64}"$/

let gh: Emulator | undefined

afterEach(async () => {
  gh?.expectNoViolations()
  await gh?.close()
  gh = undefined
})

describe('recorded GitHub answers (@octokit/fixtures)', () => {
  test('paginate-issues: page sizes, Link headers and ETags match', async () => {
    const recorded = scenario('paginate-issues')
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo' })
    for (let n = 1; n <= 13; n++) gh.seed.issue({ number: n, title: `Test issue ${n}` })

    let next: string | undefined = '/repos/octo-org/demo/issues?per_page=3'
    for (const exchange of recorded) {
      const page: ApiResponse = await api(gh, 'GET', next!)
      expect(page.status).toBe(exchange.status)
      expect(page.body).toHaveLength((exchange.response as unknown[]).length)
      expect(normalizedLink(page.headers.get('link'))).toBe(normalizedLink(exchange.headers.link!))
      expect(page.headers.get('etag')).toMatch(ETAG_FORMAT)
      expect(exchange.headers.etag).toMatch(ETAG_FORMAT)
      expect(missingKeys(exchange.response, page.body)).toEqual([])
      next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1]
    }
    expect(next).toBeUndefined()
    expect(gh.requests.map((r) => r.operationId)).toEqual(Array(5).fill('issues/list-for-repo'))
  })

  test('labels: list, create, get, update, delete', async () => {
    const [list, create, get, update, remove] = scenario('labels')
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo' })
    gh.seed.label({ name: 'bug', color: 'd73a4a', description: "Something isn't working" })

    const listed = await api(gh, 'GET', '/repos/octo-org/demo/labels')
    expect(listed.status).toBe(list!.status)
    expect(missingKeys(list!.response, listed.body)).toEqual([])

    const created = await api(gh, 'POST', '/repos/octo-org/demo/labels', { body: create!.body })
    expect(created.status).toBe(create!.status)
    expect(missingKeys(create!.response, created.body)).toEqual([])
    expect(created.headers.get('location')).toBe(created.body.url)

    const fetched = await api(gh, 'GET', '/repos/octo-org/demo/labels/test-label')
    expect(fetched.status).toBe(get!.status)
    expect(fetched.body).toEqual(created.body)

    const updated = await api(gh, 'PATCH', '/repos/octo-org/demo/labels/test-label', { body: update!.body })
    expect(updated.status).toBe(update!.status)
    expect({ name: updated.body.name, color: updated.body.color }).toEqual({
      name: (update!.response as { name: string }).name,
      color: (update!.response as { color: string }).color,
    })

    const deleted = await api(gh, 'DELETE', '/repos/octo-org/demo/labels/test-label-updated')
    expect(deleted.status).toBe(remove!.status)
    expect(deleted.body).toBeUndefined()
  })

  test('git-refs: create, fast-forward and delete a reference', async () => {
    const exchanges = scenario('git-refs').filter((exchange) => exchange.method !== 'get')
    const [create, update, remove] = exchanges
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo' })
    const first = await gh.seed.commit({ files: { '1.md': '# git-refs\n' } })
    const second = await gh.seed.commit({ files: { '2.md': '# git-refs\n' } })

    const created = await api(gh, 'POST', '/repos/octo-org/demo/git/refs', { body: { ref: 'refs/heads/test', sha: first } })
    expect(created.status).toBe(create!.status)
    expect(missingKeys(create!.response, created.body)).toEqual([])
    expect(created.headers.get('location')).toBe(created.body.url)

    const updated = await api(gh, 'PATCH', '/repos/octo-org/demo/git/refs/heads/test', { body: { sha: second } })
    expect(updated.status).toBe(update!.status)
    expect(missingKeys(update!.response, updated.body)).toEqual([])
    expect(updated.body.object.sha).toBe(second)

    const deleted = await api(gh, 'DELETE', '/repos/octo-org/demo/git/refs/heads/test')
    expect(deleted.status).toBe(remove!.status)
    expect(await gh.state.branchHead('test')).toBeNull()
  })

  test('add-labels-to-issue: labels are created on the fly, names kept as written', async () => {
    const [createIssue, addLabels] = scenario('add-labels-to-issue')
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo' })

    const issue = await api(gh, 'POST', '/repos/octo-org/demo/issues', { body: createIssue!.body })
    expect(issue.status).toBe(createIssue!.status)
    expect(missingKeys(createIssue!.response, issue.body)).toEqual([])
    expect(issue.headers.get('location')).toBe(issue.body.url)

    const labels = await api(gh, 'POST', '/repos/octo-org/demo/issues/1/labels', { body: addLabels!.body })
    expect(labels.status).toBe(addLabels!.status)
    expect(missingKeys(addLabels!.response, labels.body)).toEqual([])
    expect(labels.body.map((label: { name: string }) => label.name)).toEqual(
      (addLabels!.response as Array<{ name: string }>).map((label) => label.name),
    )
  })

  test('errors: an invalid label colour is a 422 Validation Failed with the same errors', async () => {
    const [invalid] = scenario('errors')
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo' })
    const answer = await api(gh, 'POST', '/repos/octo-org/demo/labels', { body: invalid!.body })
    const expected = invalid!.response as { message: string; errors: unknown[] }
    expect(answer.status).toBe(invalid!.status)
    expect(answer.body.message).toBe(expected.message)
    expect(answer.body.errors).toEqual(expected.errors)
    expect(answer.body.documentation_url).toMatch(/^https:\/\/docs\.github\.com\//)
  })

  test('create-file: the first file of an empty repository is a root commit', async () => {
    const [put] = scenario('create-file')
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo' })
    const created = await api(gh, 'PUT', '/repos/octo-org/demo/contents/test.txt', { body: put!.body })
    expect(created.status).toBe(put!.status)
    expect(missingKeys(put!.response, created.body)).toEqual([])
    expect(created.body.commit.parents).toEqual([])
    expect(created.body.content.sha).toBe((put!.response as { content: { sha: string } }).content.sha)
  })

  test('get-content: a directory listing and a raw file', async () => {
    const [listing, raw] = scenario('get-content')
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# hello-world' } })
    const root = await api(gh, 'GET', '/repos/octo-org/demo/contents/')
    expect(root.status).toBe(listing!.status)
    expect(missingKeys(listing!.response, root.body)).toEqual([])
    const file = await api(gh, 'GET', '/repos/octo-org/demo/contents/README.md', {
      headers: { accept: 'application/vnd.github.v3.raw' },
    })
    expect(file.status).toBe(raw!.status)
    expect(file.body).toBe(raw!.response)
  })

  test('get-repository: the repository has every recorded key', async () => {
    const [repository] = scenario('get-repository')
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo' })
    const answer = await api(gh, 'GET', '/repos/octo-org/demo')
    expect(answer.status).toBe(repository!.status)
    expect(missingKeys(repository!.response, answer.body)).toEqual([])
  })
})
