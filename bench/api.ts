/**
 * API requests per command through the GitHub API emulator: Converge against the naive way (one
 * Contents API call per file, no conditional requests), measured in the same run.
 */
import { createGitHubClient, type GitHubClient } from '../src/github/client.js'
import { pipelinePlan } from '../src/pipeline/plan-command.js'
import { syncIssues } from '../src/pipeline/sync.js'
import { GitHubStore } from '../src/state/github-store.js'
import { statePaths } from '../src/model/state-layout.js'
import { startEmulator, type Emulator } from '../tests/support/emulator/index.js'
import { readIssueFile } from '../src/cli/issue-file.js'
import { table } from './measure.js'
import { naiveSync, naiveWriteFiles } from './naive-github.js'

const REPO = { owner: 'octo-org', repo: 'bench' }
const BRANCH = 'converge/state'

interface Cost { requests: number; rest: number; graphql: number; commits: number }

async function measure(gh: Emulator, client: GitHubClient, work: () => Promise<unknown>): Promise<Cost> {
  const requests = client.stats.requests
  const rest = gh.rateLimit.used
  const graphql = gh.rateLimit.graphqlUsed
  const commits = (await gh.state.branchHead(BRANCH)) ? (await gh.state.commits(BRANCH)).length : 0
  await work()
  const after = (await gh.state.branchHead(BRANCH)) ? (await gh.state.commits(BRANCH)).length : 0
  return { requests: client.stats.requests - requests, rest: gh.rateLimit.used - rest, graphql: gh.rateLimit.graphqlUsed - graphql, commits: after - commits }
}

async function emulator(issues: number) {
  const gh = await startEmulator({ ...REPO, files: { 'README.md': '# bench\n' }, validateResponses: false })
  for (let n = 1; n <= issues; n++) gh.seed.issue({ number: n, title: `Issue ${n}`, updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)) })
  const client = createGitHubClient({ token: gh.token, apiUrl: gh.url, graphqlUrl: gh.graphqlUrl, retryBaseMs: 10, writeIntervalMs: 0 })
  return { gh, client, store: new GitHubStore({ client, ...REPO, branch: BRANCH }) }
}

export async function benchApi(): Promise<string> {
  const rows: Array<Array<string | number>> = []
  const row = (command: string, ours: Cost, naive: Cost) =>
    rows.push([command, ours.requests, `${ours.rest} + ${ours.graphql}`, ours.commits, naive.requests, `${naive.rest} + ${naive.graphql}`, naive.commits, `${(naive.requests / Math.max(ours.requests, 1)).toFixed(1)}×`])

  {
    const issue = await readIssueFile(new URL('../examples/demo/issue.md', import.meta.url).pathname)
    const { gh, client, store } = await emulator(0)
    const seed = await measure(gh, client, () => pipelinePlan(store, { ...issue, number: 1 }, 'builtin', '2026-01-01T00:00:00Z'))
    const ours = await measure(gh, client, () => pipelinePlan(store, issue, 'builtin', '2026-01-01T00:00:00Z'))
    const snapshot = await store.snapshot([statePaths.runState, statePaths.issue(42), statePaths.plan(42), statePaths.events(42)])
    const files = Object.fromEntries(
      await Promise.all([statePaths.runState, statePaths.issue(42), statePaths.plan(42), statePaths.events(42)].map(async (p) => [p.replace('42', '43'), (await snapshot.read(p))!])),
    )
    const naive = await measure(gh, client, () => naiveWriteFiles(client, REPO, BRANCH, files))
    row('plan (state commit, branch exists)', ours, naive)
    rows.push(['  first plan (creates the branch)', seed.requests, `${seed.rest} + ${seed.graphql}`, seed.commits, '', '', '', ''])
    await gh.close()
  }
  for (const issues of [1_000]) {
    const { gh, client, store } = await emulator(issues)
    const first = await measure(gh, client, () => syncIssues(store, client, REPO, { now: '2026-02-01T00:00:00Z' }))
    const again = await measure(gh, client, () => syncIssues(store, client, REPO, { now: '2026-02-02T00:00:00Z' }))
    const naiveFirst = await measure(gh, client, () => naiveSync(client, REPO, BRANCH))
    const naiveAgain = await measure(gh, client, () => naiveSync(client, REPO, BRANCH))
    row(`sync of ${issues} issues`, first, naiveFirst)
    row('same sync again, unchanged', again, naiveAgain)
    await gh.close()
  }
  return [
    'API requests per command (rate limit: REST requests + GraphQL points; 304 answers are free)',
    table(['command', 'ours: requests', 'rate limit', 'commits', 'naive: requests', 'rate limit', 'commits', 'ratio'], rows),
  ].join('\n')
}
