import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGitHubClient, type GitHubClient } from '../../src/github/client.js'
import { RunStateSchema } from '../../src/model/index.js'
import { syncIssues } from '../../src/pipeline/sync.js'
import { GitHubStore } from '../../src/state/github-store.js'
import { statePaths } from '../../src/model/state-layout.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'

const REPO = { owner: 'octo-org', repo: 'demo' }

describe('sync through the API emulator', () => {
  let gh: Emulator
  let client: GitHubClient
  let store: GitHubStore
  const runState = async () => RunStateSchema.parse(JSON.parse((await gh.state.readFile('converge/state', statePaths.runState))!))

  beforeEach(async () => {
    gh = await startEmulator({ ...REPO, files: { 'README.md': '# demo\n' } })
    client = createGitHubClient({ token: gh.token, apiUrl: gh.url, graphqlUrl: gh.graphqlUrl, retryBaseMs: 10, writeIntervalMs: 0 })
    store = new GitHubStore({ client, ...REPO, branch: 'converge/state' })
    for (let n = 1; n <= 250; n++)
      gh.seed.issue({ number: n, title: `Issue ${n}`, labels: n % 5 === 0 ? ['converge'] : ['other'], updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)) })
    gh.seed.issue({ number: 251, title: 'Closed long ago', state: 'closed' })
    await gh.seed.branch('feature')
    await gh.seed.pullRequest({ number: 252, title: 'A pull request', head: { ref: 'feature' }, base: { ref: 'main' } })
  })
  afterEach(async () => {
    try { gh.expectNoViolations() } finally { await gh.close() }
  })

  it('reads every open issue over several pages, then finds nothing changed for free', async () => {
    const first = await syncIssues(store, client, REPO, { now: '2026-02-01T00:00:00Z' })
    expect(first).toMatchObject({ unchanged: false, added: 250, removed: 0, total: 250 })
    const run = await runState()
    expect(Object.keys(run.issues)).toHaveLength(250)
    expect(run.issues['ISS-17']).toMatchObject({ number: 17, title: 'Issue 17', status: 'registered' })
    expect(run.issues['ISS-251']).toBeUndefined() // closed
    expect(run.issues['ISS-252']).toBeUndefined() // a pull request
    expect(run.sync).toMatchObject({ label: null, etag: expect.any(String) })
    expect(await gh.state.commits('converge/state')).toHaveLength(1)

    const restBefore = gh.rateLimit.used
    const requestsBefore = client.stats.requests
    const second = await syncIssues(store, client, REPO, { now: '2026-02-02T00:00:00Z' })
    expect(second).toMatchObject({ unchanged: true, commit: null, total: 250 })
    expect(gh.rateLimit.used - restBefore).toBe(0) // the listing was answered 304
    expect(client.stats.requests - requestsBefore).toBe(2) // one state read, one conditional listing
    expect(await gh.state.commits('converge/state')).toHaveLength(1)
  })

  it('sees new, renamed and closed issues on the next sync without listing everything again', async () => {
    await syncIssues(store, client, REPO, { now: '2026-02-01T00:00:00Z' })
    gh.seed.issue({ number: 300, title: 'Brand new' })
    await client.rest.issues.update({ ...REPO, issue_number: 3, state: 'closed' })
    await client.rest.issues.update({ ...REPO, issue_number: 4, title: 'Issue 4, renamed' })

    const before = client.stats.requests
    const result = await syncIssues(store, client, REPO, { now: '2026-02-02T00:00:00Z' })
    expect(result).toMatchObject({ unchanged: false, added: 1, updated: 1, removed: 1, total: 250 })
    expect(client.stats.requests - before).toBeLessThanOrEqual(5) // state read, one listing page, next ETag, commit
    const run = await runState()
    expect(run.issues['ISS-300']).toMatchObject({ status: 'registered' })
    expect(run.issues['ISS-3']).toBeUndefined()
    expect(run.issues['ISS-4']!.title).toBe('Issue 4, renamed')
    expect(await syncIssues(store, client, REPO, { now: '2026-02-03T00:00:00Z' })).toMatchObject({ unchanged: true })
  })

  it('filters by label, and drops an issue whose label was removed', async () => {
    const first = await syncIssues(store, client, REPO, { label: 'converge', now: '2026-02-01T00:00:00Z' })
    expect(first).toMatchObject({ added: 50, total: 50 })
    await client.rest.issues.removeLabel({ ...REPO, issue_number: 10, name: 'converge' })
    const second = await syncIssues(store, client, REPO, { label: 'converge', now: '2026-02-02T00:00:00Z' })
    expect(second).toMatchObject({ removed: 1, total: 49 })
    expect((await runState()).issues['ISS-10']).toBeUndefined()
  })

  it('keeps the record of an issue Converge worked on when it is closed', async () => {
    await syncIssues(store, client, REPO, { now: '2026-02-01T00:00:00Z' })
    const run = await runState()
    const snapshot = await store.snapshot([statePaths.runState])
    await store.commit(
      { message: 'ISS-5: planned', files: { [statePaths.runState]: `${JSON.stringify({ ...run, issues: { ...run.issues, 'ISS-5': { ...run.issues['ISS-5']!, status: 'completed' } } }, null, 2)}\n` } },
      snapshot.head,
    )
    await client.rest.issues.update({ ...REPO, issue_number: 5, state: 'closed' })
    await syncIssues(store, client, REPO, { now: '2026-02-02T00:00:00Z' })
    expect((await runState()).issues['ISS-5']).toMatchObject({ status: 'completed' })
  })
})
