/**
 * A state file too large for GitHub's GraphQL API to send as text (the 39 MB execution.json of issue 35): GitHub
 * answers with no data, which used to fail every read of the state ("Cannot read properties of undefined (reading
 * 'repository')"). The store asks again without the text and reads the file through the Git Data API.
 */
import { describe, expect, it } from 'vitest'
import type { GitHubClient } from '../../src/github/client.js'
import { GitHubStore } from '../../src/state/github-store.js'

const LARGE = 'x'.repeat(2_000_000)

function fakeClient() {
  const queries: string[] = []
  const client = {
    graphql: async (query: string) => {
      queries.push(query)
      if (query.includes('text isTruncated')) return {} // what GitHub answers for a blob too large to send
      if (query.includes('expression')) return { repository: { object: { oid: 'blob-2' } } }
      return { repository: { ref: { target: { oid: 'head-1', f0: { object: { oid: 'blob-1' } } } } } }
    },
    rest: { git: { getBlob: async ({ file_sha }: { file_sha: string }) => ({ data: { content: Buffer.from(`${file_sha}:${LARGE}`).toString('base64'), encoding: 'base64' } }) } },
  }
  return { client: client as unknown as GitHubClient, queries }
}

describe('GitHubStore and a state file too large for GraphQL', () => {
  it('reads a prefetched file through the blob API', async () => {
    const { client, queries } = fakeClient()
    const store = new GitHubStore({ client, owner: 'o', repo: 'r', branch: 'converge/state' })
    const snapshot = await store.snapshot(['.converge/issues/1/execution.json'])
    expect(snapshot.head).toBe('head-1')
    expect((await snapshot.read('.converge/issues/1/execution.json'))?.length).toBe('blob-1:'.length + LARGE.length)
    expect(queries.filter((q) => !q.includes('text isTruncated'))).toHaveLength(1)
  })

  it('reads a file asked for later through the blob API', async () => {
    const { client } = fakeClient()
    const store = new GitHubStore({ client, owner: 'o', repo: 'r', branch: 'converge/state' })
    const snapshot = await store.snapshot(['.converge/issues/1/execution.json'])
    expect((await snapshot.read('.converge/issues/2/execution.json'))?.startsWith('blob-2:')).toBe(true)
  })
})
