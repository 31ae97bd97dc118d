import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { api } from './http-client.js'

let gh: Emulator

beforeEach(async () => {
  gh = await startEmulator({ owner: 'octo-org', repo: 'demo' })
})

const initialCommit = () => gh.seed.commit({ files: { 'README.md': '# demo\n' } })

afterEach(async () => {
  gh.expectNoViolations()
  await gh.close()
})

const numbers = (body: Array<{ number: number }>) => body.map((issue) => issue.number)

describe('listing issues', () => {
  beforeEach(() => {
    const day = (n: number) => new Date(Date.UTC(2024, 0, n))
    gh.seed.issue({ number: 1, title: 'one', labels: ['converge:plan'], createdAt: day(1) })
    gh.seed.issue({ number: 2, title: 'two', labels: ['converge:plan', 'bug'], createdAt: day(2), updatedAt: day(9) })
    gh.seed.issue({ number: 3, title: 'three', state: 'closed', createdAt: day(3) })
    gh.seed.issue({ number: 4, title: 'four', labels: ['bug'], createdAt: day(4) })
  })

  test('open issues, newest first, by default', async () => {
    expect(numbers((await api(gh, 'GET', '/repos/octo-org/demo/issues')).body)).toEqual([4, 2, 1])
  })

  test('state, labels (all must match, any case), since, sort and direction filters', async () => {
    const list = async (query: string) => numbers((await api(gh, 'GET', `/repos/octo-org/demo/issues?${query}`)).body)
    expect(await list('state=all')).toEqual([4, 3, 2, 1])
    expect(await list('state=closed')).toEqual([3])
    expect(await list('labels=converge:plan')).toEqual([2, 1])
    expect(await list('labels=Converge:Plan,BUG')).toEqual([2])
    expect(await list('since=2024-01-05T00:00:00Z')).toEqual([2])
    expect(await list('sort=updated&direction=desc')).toEqual([2, 4, 1])
    expect(await list('direction=asc')).toEqual([1, 2, 4])
  })

  test('pull requests are issues too', async () => {
    await initialCommit()
    await gh.seed.branch('feature')
    await gh.seed.pullRequest({ number: 5, title: 'A PR', head: { ref: 'feature' }, base: { ref: 'main' } })
    const issues = (await api(gh, 'GET', '/repos/octo-org/demo/issues')).body
    expect(issues[0]).toMatchObject({ number: 5, pull_request: { url: `${gh.url}/repos/octo-org/demo/pulls/5` } })
  })

  test('per_page is capped at 100 and a page past the end is empty with prev/first links', async () => {
    for (let n = 5; n <= 105; n++) gh.seed.issue({ number: n, title: `issue ${n}` })
    const capped = await api(gh, 'GET', '/repos/octo-org/demo/issues?per_page=500')
    expect(capped.body).toHaveLength(100)
    expect(capped.headers.get('link')).toContain('per_page=500&page=2>; rel="next"')
    const beyond = await api(gh, 'GET', '/repos/octo-org/demo/issues?per_page=50&page=9')
    expect(beyond.body).toEqual([])
    expect(beyond.headers.get('link')).toMatch(/page=3>; rel="prev", <[^>]+page=1>; rel="first"$/)
  })
})

describe('conditional requests and rate limit', () => {
  test('a GET carries an ETag; If-None-Match answers 304 with an empty body and costs nothing', async () => {
    gh.seed.issue({ number: 1, title: 'cached' })
    const first = await api(gh, 'GET', '/repos/octo-org/demo/issues/1')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/)
    expect(first.headers.get('x-ratelimit-used')).toBe('1')
    expect(gh.rateLimit.used).toBe(1)

    const cached = await api(gh, 'GET', '/repos/octo-org/demo/issues/1', { headers: { 'if-none-match': etag } })
    expect(cached.status).toBe(304)
    expect(cached.body).toBeUndefined()
    expect(cached.headers.get('etag')).toBe(etag)
    expect(gh.rateLimit.used).toBe(1)
    expect(gh.requests.at(-1)).toMatchObject({ status: 304, notModified: true, operationId: 'issues/get' })

    await api(gh, 'PATCH', '/repos/octo-org/demo/issues/1', { body: { title: 'changed' } })
    const changed = await api(gh, 'GET', '/repos/octo-org/demo/issues/1', { headers: { 'if-none-match': `W/${etag}` } })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
    expect(gh.rateLimit.used).toBe(3)
    expect(changed.headers.get('x-ratelimit-remaining')).toBe(String(gh.rateLimit.limit - 3))
  })

  test('GET /rate_limit reports usage without costing any', async () => {
    await api(gh, 'GET', '/repos/octo-org/demo')
    const answer = await api(gh, 'GET', '/rate_limit')
    expect(answer.body.resources.core).toMatchObject({ limit: 5000, used: 1, remaining: 4999 })
    expect(gh.rateLimit.used).toBe(1)
  })
})

describe('writing issues, labels, comments and reactions', () => {
  beforeEach(() => {
    gh.seed.issue({ number: 7, title: 'Plan me', body: 'Do it', labels: ['converge:plan'] })
  })

  test('updating an issue: title, body, labels, closing records who and when', async () => {
    const answer = await api(gh, 'PATCH', '/repos/octo-org/demo/issues/7', {
      body: { title: 'Planned', labels: ['converge:planned', { name: 'bug' }], state: 'closed', state_reason: 'not_planned' },
    })
    expect(answer.status).toBe(200)
    expect(gh.state.issue(7)).toMatchObject({
      title: 'Planned',
      body: 'Do it',
      labels: ['converge:planned', 'bug'],
      state: 'closed',
      stateReason: 'not_planned',
      closedBy: 'github-actions[bot]',
    })
  })

  test('adding and removing labels; removing one the issue lacks is 404 Label does not exist', async () => {
    const added = await api(gh, 'POST', '/repos/octo-org/demo/issues/7/labels', { body: { labels: ['converge:execute'] } })
    expect(added.body.map((label: { name: string }) => label.name)).toEqual(['converge:plan', 'converge:execute'])
    const removed = await api(gh, 'DELETE', '/repos/octo-org/demo/issues/7/labels/converge%3Aplan')
    expect(removed.body.map((label: { name: string }) => label.name)).toEqual(['converge:execute'])
    const missing = await api(gh, 'DELETE', '/repos/octo-org/demo/issues/7/labels/nope')
    expect(missing).toMatchObject({ status: 404, body: { message: 'Label does not exist' } })
    const onIssue = await api(gh, 'GET', '/repos/octo-org/demo/issues/7/labels')
    expect(onIssue.body).toHaveLength(1)
    expect((await api(gh, 'GET', '/repos/octo-org/demo/labels')).body.length).toBeGreaterThanOrEqual(2)
  })

  test('comments: create, get, update in place, list with pagination', async () => {
    const created = await api(gh, 'POST', '/repos/octo-org/demo/issues/7/comments', { body: { body: '<!-- converge:ISS-7 -->\nplanning' } })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ user: { login: 'github-actions[bot]', type: 'Bot' }, body: '<!-- converge:ISS-7 -->\nplanning' })
    const id = created.body.id as number
    const updated = await api(gh, 'PATCH', `/repos/octo-org/demo/issues/comments/${id}`, { body: { body: 'done' } })
    expect(updated.body).toMatchObject({ id, body: 'done' })
    expect((await api(gh, 'GET', `/repos/octo-org/demo/issues/comments/${id}`)).body.body).toBe('done')
    for (let n = 0; n < 3; n++) gh.seed.comment({ issue: 7, body: `more ${n}` })
    const page = await api(gh, 'GET', '/repos/octo-org/demo/issues/7/comments?per_page=2')
    expect(page.body.map((c: { body: string }) => c.body)).toEqual(['done', 'more 0'])
    expect(page.headers.get('link')).toContain(`/repositories/1296269/issues/7/comments?per_page=2&page=2>; rel="next"`)
    expect(gh.state.comments(7)).toHaveLength(4)
  })

  test('a comment longer than 65536 characters is rejected and not stored', async () => {
    const answer = await api(gh, 'POST', '/repos/octo-org/demo/issues/7/comments', { body: { body: 'x'.repeat(65537) } })
    expect(answer.status).toBe(422)
    expect(answer.body.errors[0]).toMatchObject({ resource: 'IssueComment', field: 'body', code: 'custom' })
    expect(gh.state.comments(7)).toEqual([])
  })

  test('reactions on issues and comments: 201 when new, 200 when the user already reacted', async () => {
    const comment = gh.seed.comment({ issue: 7, body: '/converge plan', user: 'alice' })
    const first = await api(gh, 'POST', `/repos/octo-org/demo/issues/comments/${comment.id}/reactions`, { body: { content: 'eyes' } })
    const again = await api(gh, 'POST', `/repos/octo-org/demo/issues/comments/${comment.id}/reactions`, { body: { content: 'eyes' } })
    expect([first.status, again.status]).toEqual([201, 200])
    expect(again.body.id).toBe(first.body.id)
    expect((await api(gh, 'POST', '/repos/octo-org/demo/issues/7/reactions', { body: { content: 'rocket' } })).status).toBe(201)
    expect(gh.state.reactions()).toMatchObject([
      { subject: { type: 'comment', id: comment.id }, content: 'eyes', user: 'github-actions[bot]' },
      { subject: { type: 'issue', number: 7 }, content: 'rocket' },
    ])
    const fetched = await api(gh, 'GET', `/repos/octo-org/demo/issues/comments/${comment.id}`)
    expect(fetched.body.reactions).toMatchObject({ total_count: 1, eyes: 1 })
  })

  test('a registered token acts as its user', async () => {
    gh.seed.token('alice-token', 'alice')
    await api(gh, 'POST', '/repos/octo-org/demo/issues/7/comments', { body: { body: 'hi' }, token: 'alice-token' })
    expect(gh.state.comments(7)[0]!.author).toBe('alice')
    expect(gh.requests.at(-1)!.actor).toBe('alice')
  })
})

describe('accounts and permissions', () => {
  test.each([
    ['admin', 'admin'],
    ['maintain', 'write'],
    ['write', 'write'],
    ['triage', 'read'],
    ['read', 'read'],
    ['none', 'none'],
  ] as const)('role %s reads as permission %s', async (role, permission) => {
    gh.seed.permission('alice', role)
    const answer = await api(gh, 'GET', '/repos/octo-org/demo/collaborators/alice/permission')
    expect(answer.body).toMatchObject({ permission, role_name: role, user: { login: 'alice' } })
  })

  test('users have their account type; unknown users are 404', async () => {
    gh.seed.user({ login: 'renovate[bot]', type: 'Bot' })
    expect((await api(gh, 'GET', '/users/renovate%5Bbot%5D')).body).toMatchObject({ login: 'renovate[bot]', type: 'Bot' })
    expect((await api(gh, 'GET', '/users/github-actions%5Bbot%5D')).body).toMatchObject({ id: 41898282, type: 'Bot' })
    expect((await api(gh, 'GET', '/users/nobody')).status).toBe(404)
    expect((await api(gh, 'GET', '/repos/octo-org/demo/collaborators/nobody/permission')).status).toBe(404)
  })
})

describe('pull requests', () => {
  test('create, find by head, get with the live head sha, update, and no duplicates', async () => {
    await initialCommit()
    await gh.seed.branch('converge/issue-7')
    const sha = await gh.seed.commit({ branch: 'converge/issue-7', files: { 'a.txt': 'a' } })
    const created = await api(gh, 'POST', '/repos/octo-org/demo/pulls', {
      body: { title: 'Converge ISS-7: x', head: 'converge/issue-7', base: 'main', body: 'Closes #7', draft: true },
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ number: 1, draft: true, head: { ref: 'converge/issue-7', sha }, base: { ref: 'main' } })

    const again = await api(gh, 'POST', '/repos/octo-org/demo/pulls', { body: { title: 'dup', head: 'converge/issue-7', base: 'main' } })
    expect(again.status).toBe(422)
    expect(again.body.errors[0].message).toBe('A pull request already exists for octo-org:converge/issue-7.')

    const found = await api(gh, 'GET', '/repos/octo-org/demo/pulls?head=octo-org:converge/issue-7&state=open')
    expect(numbers(found.body)).toEqual([1])
    expect((await api(gh, 'GET', '/repos/octo-org/demo/pulls?head=octo-org:other')).body).toEqual([])

    const moved = await gh.seed.commit({ branch: 'converge/issue-7', files: { 'b.txt': 'b' } })
    expect((await api(gh, 'GET', '/repos/octo-org/demo/pulls/1')).body.head.sha).toBe(moved)

    const updated = await api(gh, 'PATCH', '/repos/octo-org/demo/pulls/1', { body: { body: 'Closes #7\n\n| T1 | done |' } })
    expect(updated.body.body).toContain('| T1 | done |')
    expect(gh.state.pulls()[0]).toMatchObject({ number: 1, body: 'Closes #7\n\n| T1 | done |' })
  })

  test('a head branch without new commits cannot be proposed', async () => {
    await initialCommit()
    await gh.seed.branch('empty')
    const answer = await api(gh, 'POST', '/repos/octo-org/demo/pulls', { body: { title: 't', head: 'empty', base: 'main' } })
    expect(answer.status).toBe(422)
    expect(answer.body.errors[0].message).toBe('No commits between main and empty')
  })
})
