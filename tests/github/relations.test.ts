import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGitHubClient, type GitHubClient } from '../../src/github/client.js'
import {
  addBlockedBy, addSubIssue, closeIssue, createIssue, inRepository, IssuesPermissionError, listBlockedBy, listSubIssues, parentIssue,
} from '../../src/github/relations.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'

const repo = { owner: 'octo-org', repo: 'demo' }
let gh: Emulator
let client: GitHubClient

beforeEach(async () => {
  gh = await startEmulator(repo)
  client = createGitHubClient({ token: gh.token, apiUrl: gh.url, retries: 0, writeIntervalMs: 0 })
  for (const n of [1, 2, 3]) gh.seed.issue({ number: n, title: `issue ${n}` })
})

afterEach(async () => {
  gh.expectNoViolations()
  await gh.close()
})

describe('sub-issues and dependencies over the client', () => {
  it('lists every page of sub-issues, in order, and counts the requests', async () => {
    // More than a page of 100 (seeded: GitHub's own limit of 100 per parent is the endpoint's, see tests/emulator).
    for (let n = 10; n < 115; n++) {
      gh.seed.issue({ number: n, title: `child ${n}` })
      gh.seed.subIssue(1, n)
    }
    const before = client.stats.requests
    const children = await listSubIssues(client, repo, 1)
    expect(children.map((c) => c.number)).toEqual(Array.from({ length: 105 }, (_, i) => 10 + i))
    expect(client.stats.requests - before).toBe(2)
    expect(await parentIssue(client, repo, 10)).toMatchObject({ number: 1 })
    expect(await parentIssue(client, repo, 2)).toBeUndefined()
  })

  it('adds a sub-issue and a blocked_by link by database id, opens and closes issues', async () => {
    const made = await createIssue(client, repo, { title: 'T1: do it', body: 'body' })
    await addSubIssue(client, repo, 1, made)
    expect(gh.state.subIssues(1)).toEqual([made.number])
    await addBlockedBy(client, repo, 3, { id: gh.state.issue(2)!.id, number: 2 })
    expect((await listBlockedBy(client, repo, 3)).map((i) => i.number)).toEqual([2])
    await closeIssue(client, repo, made.number)
    expect(gh.state.issue(made.number)).toMatchObject({ state: 'closed', stateReason: 'completed' })
  })

  it('a token without the issues permission: a clear error naming the fix', async () => {
    gh.seed.token('reader-token', 'reader')
    gh.seed.permission('reader', 'read')
    const reader = createGitHubClient({ token: 'reader-token', apiUrl: gh.url, retries: 0, writeIntervalMs: 0 })
    const refused = addSubIssue(reader, repo, 1, { id: gh.state.issue(2)!.id, number: 2 })
    await expect(refused).rejects.toBeInstanceOf(IssuesPermissionError)
    await expect(refused).rejects.toThrow('Cannot add #2 as a sub-issue of #1: GitHub answered 403 (Resource not accessible by integration). The token needs the "issues: write" permission')
  })
})

describe('inRepository', () => {
  it('tells an issue of this repository from one of another, which Converge does not take for its number here', () => {
    expect(inRepository({ repository_url: 'https://api.github.com/repos/Octo-Org/Demo' }, repo)).toBe(true)
    expect(inRepository({ repository_url: 'https://api.github.com/repos/octo-org/other' }, repo)).toBe(false)
    expect(inRepository({ repository_url: 'https://ghe.example.com/api/v3/repos/octo-org/demo' }, repo)).toBe(true)
    expect(inRepository({}, repo)).toBe(true)
  })
})
