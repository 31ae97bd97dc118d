import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { startEmulator, type Emulator, type FaultKind } from '../support/emulator/index.js'
import { api, graphql } from './http-client.js'

let gh: Emulator
let head: string

beforeEach(async () => {
  gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n' } })
  head = (await gh.state.branchHead('main'))!
  gh.seed.issue({ number: 1, title: 'Original', labels: ['converge:plan'] })
})

afterEach(async () => {
  gh.expectNoViolations()
  await gh.close()
})

const issue = '/repos/octo-org/demo/issues/1'

describe('each kind of fault', () => {
  test('500 and 502 answer errors once, then the API works again', async () => {
    gh.faults.inject({ kind: '500' })
    gh.faults.inject({ kind: '502' })
    const first = await api(gh, 'GET', issue)
    const second = await api(gh, 'GET', issue)
    const third = await api(gh, 'GET', issue)
    expect(first).toMatchObject({ status: 500, body: { message: 'Server Error' } })
    expect(second.status).toBe(502)
    expect(second.headers.get('content-type')).toBe('text/html')
    expect(third.status).toBe(200)
    expect(gh.faults.injected).toBe(2)
    expect(gh.requests.map((r) => r.fault)).toEqual(['500', '502', undefined])
  })

  test('secondary-rate-limit is a 403 with retry-after and GitHub’s message', async () => {
    gh.faults.inject({ kind: 'secondary-rate-limit' })
    const answer = await api(gh, 'GET', issue)
    expect(answer.status).toBe(403)
    expect(answer.headers.get('retry-after')).toBe('1')
    expect(answer.body.message).toMatch(/^You have exceeded a secondary rate limit/)
  })

  test('429 carries retry-after', async () => {
    gh.faults.inject({ kind: '429' })
    const answer = await api(gh, 'GET', issue)
    expect(answer.status).toBe(429)
    expect(answer.headers.get('retry-after')).toBe('1')
  })

  test('reset drops the connection without an answer', async () => {
    gh.faults.inject({ kind: 'reset' })
    await expect(api(gh, 'GET', issue)).rejects.toThrow()
    expect(gh.requests[0]).toMatchObject({ status: 0, fault: 'reset' })
    expect((await api(gh, 'GET', issue)).status).toBe(200)
  })

  test('slow delays the answer by delayMs and then serves it', async () => {
    gh.faults.inject({ kind: 'slow', delayMs: 150 })
    const started = performance.now()
    const answer = await api(gh, 'GET', issue)
    expect(answer.status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(145)
  })

  test('stale-head moves the branch between a read and a non-forced ref update', async () => {
    const tree = (await api(gh, 'GET', `/repos/octo-org/demo/git/commits/${head}`)).body.tree.sha
    const commit = await api(gh, 'POST', '/repos/octo-org/demo/git/commits', { body: { message: 'mine', tree, parents: [head] } })
    gh.faults.inject({ kind: 'stale-head' })
    const update = await api(gh, 'PATCH', '/repos/octo-org/demo/git/refs/heads/main', { body: { sha: commit.body.sha } })
    expect(update).toMatchObject({ status: 422, body: { message: 'Update is not a fast forward' } })
    const [concurrent] = await gh.state.commits('main')
    expect(concurrent).toMatchObject({ parents: [head] })
    expect(concurrent!.sha).not.toBe(commit.body.sha)
    expect(gh.faults.history).toEqual([
      { kind: 'stale-head', method: 'PATCH', path: '/repos/octo-org/demo/git/refs/heads/main', operationId: 'git/update-ref' },
    ])
  })

  test('stale-head makes createCommitOnBranch fail its compare-and-swap; reads are never chosen for it', async () => {
    gh.faults.inject({ kind: 'stale-head' })
    const read = await graphql(gh, '{ repository(owner: "octo-org", name: "demo") { ref(qualifiedName: "main") { target { oid } } } }')
    expect(read.body.data.repository.ref.target.oid).toBe(head)
    const answer = await graphql(gh, 'mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }', {
      input: {
        branch: { repositoryNameWithOwner: 'octo-org/demo', branchName: 'main' },
        expectedHeadOid: head,
        message: { headline: 'mine' },
        fileChanges: { additions: [{ path: 'a.txt', contents: Buffer.from('a').toString('base64') }] },
      },
    })
    expect(answer.body.errors).toMatchObject([{ type: 'STALE_DATA' }])
    expect(await gh.state.readFile('main', 'a.txt')).toBeNull()
    expect(gh.faults.injected).toBe(1)
  })
})

describe('targeting and state safety', () => {
  test('match and times choose which requests fail; a faulted write never applies', async () => {
    gh.faults.inject({ kind: '500', times: 2, match: (request) => request.operationId === 'issues/create-comment' })
    const comment = () => api(gh, 'POST', `${issue}/comments`, { body: { body: 'hello' } })
    expect((await api(gh, 'GET', issue)).status).toBe(200)
    expect((await comment()).status).toBe(500)
    expect((await comment()).status).toBe(500)
    expect(gh.state.comments(1)).toEqual([])
    expect((await comment()).status).toBe(201)
    expect(gh.state.comments(1)).toHaveLength(1)
  })

  test.each(['500', '502', 'secondary-rate-limit', '429', 'reset'] satisfies FaultKind[])(
    'a %s on a write leaves issues, labels and refs untouched',
    async (kind) => {
      gh.faults.inject({ kind, times: Infinity, match: (request) => request.method !== 'GET' })
      const before = { issues: gh.state.issues(), labels: gh.state.labels(), head: await gh.state.branchHead('main') }
      await api(gh, 'PATCH', issue, { body: { title: 'Changed', state: 'closed' } }).catch(() => undefined)
      await api(gh, 'POST', `${issue}/labels`, { body: { labels: ['new'] } }).catch(() => undefined)
      await api(gh, 'POST', '/repos/octo-org/demo/git/refs', { body: { ref: 'refs/heads/x', sha: head } }).catch(() => undefined)
      expect({ issues: gh.state.issues(), labels: gh.state.labels(), head: await gh.state.branchHead('main') }).toEqual(before)
      expect(await gh.state.branchHead('x')).toBeNull()
      expect(gh.faults.injected).toBe(3)
    },
  )

  test('faulted requests cost no rate limit', async () => {
    gh.faults.inject({ kind: '502', times: 3 })
    for (let n = 0; n < 3; n++) await api(gh, 'GET', issue)
    expect(gh.rateLimit.used).toBe(0)
  })

  test('a random plan with a seed replays the same faults; clear() stops them', async () => {
    const pattern = async () => {
      gh.faults.clear()
      gh.faults.randomly({ rate: 0.5, kinds: ['500', '502'], seed: 7 })
      const statuses: number[] = []
      for (let n = 0; n < 12; n++) statuses.push((await api(gh, 'GET', issue)).status)
      return statuses
    }
    const first = await pattern()
    expect(await pattern()).toEqual(first)
    expect(first.some((status) => status !== 200)).toBe(true)
    expect(first.some((status) => status === 200)).toBe(true)
    gh.faults.clear()
    expect((await api(gh, 'GET', issue)).status).toBe(200)
  })

  test('a random plan never picks stale-head for requests that write no branch', async () => {
    gh.faults.randomly({ rate: 1, kinds: ['stale-head'], seed: 1 })
    for (let n = 0; n < 5; n++) expect((await api(gh, 'GET', issue)).status).toBe(200)
    expect(gh.faults.injected).toBe(0)
  })
})
