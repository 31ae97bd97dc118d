import { createGitHubClient } from '../../src/github/client.js'
import { GitHubStore } from '../../src/state/github-store.js'
import { startEmulator } from '../support/emulator/index.js'
import { describeStoreContract } from '../support/store-contract.js'

describeStoreContract('GitHubStore through the API emulator', async () => {
  const gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n' } })
  const open = () =>
    new GitHubStore({
      client: createGitHubClient({ token: gh.token, apiUrl: gh.url, graphqlUrl: gh.graphqlUrl, retryBaseMs: 10, writeIntervalMs: 0 }),
      owner: 'octo-org',
      repo: 'demo',
      branch: 'converge/state',
    })
  return {
    store: open(),
    open,
    commitCount: async () => ((await gh.state.branchHead('converge/state')) ? (await gh.state.commits('converge/state')).length : 0),
    cleanup: async () => {
      try {
        gh.expectNoViolations()
      } finally {
        await gh.close()
      }
    },
  }
})
