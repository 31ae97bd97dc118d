import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGitHubClient } from '../../src/github/client.js'
import { stickyMarker, upsertStickyComment } from '../../src/github/comments.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'

const REPO = { owner: 'octo-org', repo: 'demo' }

describe('the sticky comment is found among the bot’s own comments only', () => {
  let gh: Emulator
  beforeEach(async () => {
    gh = await startEmulator({ ...REPO, files: { 'README.md': '# demo\n' } })
    gh.seed.issue({ number: 42, title: 'Slugs', body: 'Make slugs.' })
  })
  afterEach(async () => {
    try { gh.expectNoViolations() } finally { await gh.close() }
  })
  const client = (token: string) => createGitHubClient({ token, apiUrl: gh.url, graphqlUrl: gh.graphqlUrl, retryBaseMs: 10, writeIntervalMs: 0 })

  it('a read-only user’s comment with the marker is neither edited nor taken for the bot’s (installation token)', async () => {
    gh.seed.user({ login: 'mallory' })
    gh.seed.permission('mallory', 'read')
    const planted = gh.seed.comment({ issue: 42, body: `${stickyMarker(42)}\nplanted by mallory`, user: 'mallory' })
    const first = await upsertStickyComment(client(gh.token), REPO, 42, 'Planned.')
    expect(first.created).toBe(true)
    expect(first.id).not.toBe(planted.id)
    // Found again on the next run: the bot's own comment, edited in place; mallory's stays as she wrote it.
    const again = await upsertStickyComment(client(gh.token), REPO, 42, 'Approved.')
    expect(again).toMatchObject({ id: first.id, created: false, changed: true })
    const comments = gh.state.comments(42)
    expect(comments.find((c) => c.id === planted.id)!.body).toBe(`${stickyMarker(42)}\nplanted by mallory`)
    expect(comments.filter((c) => c.body.startsWith(stickyMarker(42)) && c.author === 'github-actions[bot]').map((c) => c.body)).toEqual([`${stickyMarker(42)}\nApproved.`])
  })

  it('with a personal access token, the token’s user is the bot: its comments count, a stranger’s do not', async () => {
    gh.seed.token('pat-of-converge-bot', 'converge-bot')
    gh.seed.user({ login: 'mallory' })
    const own = gh.seed.comment({ issue: 42, body: `${stickyMarker(42)}\nearlier report`, user: 'converge-bot' })
    gh.seed.comment({ issue: 42, body: `${stickyMarker(42)}\nplanted later by mallory`, user: 'mallory' })
    const sticky = await upsertStickyComment(client('pat-of-converge-bot'), REPO, 42, 'Approved.')
    expect(sticky).toMatchObject({ id: own.id, created: false })
    expect(gh.state.comments(42).find((c) => c.author === 'mallory')!.body).toContain('planted later by mallory')
  })
})
