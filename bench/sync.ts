/**
 * `npm run bench -- only=sync`: `sync` of 1,000 and 10,000 open issues through the GitHub API emulator, 5% of
 * them planned with overlapping files so that the sync also builds the queue (planned → queued). Per step:
 * requests, rate-limit cost, state commits, wall time and memory (peak heap above the step's start, sampled,
 * and the growth of the process's max RSS), against the naive way measured in the same run (bench/naive-github.ts:
 * list every open issue every time, one Contents API call per file read or written).
 *
 * The emulator runs in this process: memory and wall time include its side of every request.
 */
import { createGitHubClient, type GitHubClient } from '../src/github/client.js'
import type { RepoRef } from '../src/github/issues.js'
import { SolutionInputSchema, type IssueState } from '../src/model/index.js'
import { syncIssues } from '../src/pipeline/sync.js'
import { GitHubStore } from '../src/state/github-store.js'
import { statePaths, toStateJson } from '../src/model/state-layout.js'
import { initialRunState, recordIssues, registeredIssue } from '../src/state/transitions.js'
import { startEmulator, type Emulator } from '../tests/support/emulator/index.js'
import { table } from './measure.js'
import { naiveSync, naiveWriteFiles } from './naive-github.js'

const REPO = { owner: 'octo-org', repo: 'bench' }
const BRANCH = 'converge/state'
/** One issue in twenty is planned. */
const PLANNED_EVERY = 20

interface Cost { requests: number; rest: number; graphql: number; commits: number; ms: number; heapMB: number; rssMB: number }

async function measure(gh: Emulator, client: GitHubClient, work: () => Promise<unknown>): Promise<Cost> {
  const commitCount = async () => ((await gh.state.branchHead(BRANCH)) ? (await gh.state.commits(BRANCH)).length : 0)
  const commits = await commitCount()
  ;(globalThis as { gc?: () => void }).gc?.()
  const requests = client.stats.requests
  const rest = gh.rateLimit.used
  const graphql = gh.rateLimit.graphqlUsed
  const heapStart = process.memoryUsage().heapUsed
  const rssStart = process.resourceUsage().maxRSS
  let heapPeak = heapStart
  const sampler = setInterval(() => { heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed) }, 2)
  const started = performance.now()
  try {
    await work()
  } finally {
    clearInterval(sampler)
  }
  const ms = performance.now() - started
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)
  return {
    requests: client.stats.requests - requests,
    rest: gh.rateLimit.used - rest,
    graphql: gh.rateLimit.graphqlUsed - graphql,
    commits: (await commitCount()) - commits,
    ms,
    heapMB: (heapPeak - heapStart) / 2 ** 20,
    rssMB: (process.resourceUsage().maxRSS - rssStart) / 1024,
  }
}

/** `issues` open issues; every PLANNED_EVERY-th one planned on the state branch (one seeding commit). */
async function emulator(issues: number) {
  const gh = await startEmulator({ ...REPO, files: { 'README.md': '# bench\n' }, validateResponses: false })
  for (let n = 1; n <= issues; n++) gh.seed.issue({ number: n, title: `Issue ${n}`, updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)) })
  const client = createGitHubClient({ token: gh.token, apiUrl: gh.url, graphqlUrl: gh.graphqlUrl, retryBaseMs: 10, writeIntervalMs: 0 })
  const store = new GitHubStore({ client, ...REPO, branch: BRANCH })
  const now = '2026-01-15T00:00:00Z'
  const files: Record<string, string> = {}
  const planned: IssueState[] = []
  for (let k = 0, n = 1; n <= issues; k++, n += PLANNED_EVERY) {
    // Half the plans also change one of ten shared files: sequential groups; the rest run in parallel.
    const paths = [`src/feature-${n}.ts`, ...(k % 2 === 0 ? [`src/shared/hot-${(k / 2) % 10}.ts`] : [])]
    const solution = SolutionInputSchema.parse({
      id: `SOL-ISS-${n}-1`, issue_id: `ISS-${n}`, description: `Solve issue ${n}`,
      tasks: [{ id: 'T1', title: `Change ${paths.join(', ')}`, priority: (['high', 'medium', 'low'] as const)[k % 3], files: paths.map((path) => ({ path, action: 'modify', changes: ['change it'] })) }],
    })
    const issue: IssueState = { ...registeredIssue({ number: n, title: `Issue ${n}`, labels: [] }, now), status: 'planned', solution_id: solution.id, planned_at: now }
    planned.push(issue)
    files[statePaths.plan(n)] = toStateJson(solution)
    files[statePaths.issue(n)] = toStateJson(issue)
  }
  files[statePaths.runState] = toStateJson(recordIssues(initialRunState(now), planned.map((issue) => ({ issue })), now, { phase: 'planning' }))
  await store.commit({ message: 'bench: seed planned issues', files }, null)
  return { gh, client, store, planned: planned.map((i) => i.number) }
}

/**
 * The naive way with the queue: list every open issue and write state.json (bench/naive-github.ts), then read
 * every planned issue's plan and write its issue file, one Contents API call each, on every sync.
 */
async function naiveSyncWithQueue(client: GitHubClient, repo: RepoRef, planned: number[]): Promise<void> {
  await naiveSync(client, repo, BRANCH)
  const issueFiles: Record<string, string> = {}
  for (const n of planned) {
    await client.rest.repos.getContent({ ...repo, path: statePaths.plan(n), ref: BRANCH })
    issueFiles[statePaths.issue(n)] = `{"status":"queued"}\n`
  }
  await naiveWriteFiles(client, repo, BRANCH, issueFiles)
}

export async function benchSync(sizes: readonly number[] = [1_000, 10_000]): Promise<string> {
  const rows: Array<Array<string | number>> = []
  const mb = (n: number) => n.toFixed(1)
  const row = (step: string, ours: Cost, naive?: Cost) =>
    rows.push([
      step, ours.requests, `${ours.rest} + ${ours.graphql}`, ours.commits, ours.ms.toFixed(0), mb(ours.heapMB), mb(ours.rssMB),
      naive?.requests ?? '', naive ? `${naive.rest} + ${naive.graphql}` : '', naive ? naive.ms.toFixed(0) : '', naive ? mb(naive.heapMB) : '',
      naive ? `${(naive.requests / Math.max(ours.requests, 1)).toFixed(1)}×` : '',
    ])
  for (const issues of sizes) {
    const ours = await emulator(issues)
    const queued = ours.planned.length
    const first = await measure(ours.gh, ours.client, () => syncIssues(ours.store, ours.client, REPO, { now: '2026-02-01T00:00:00Z' }))
    const again = await measure(ours.gh, ours.client, () => syncIssues(ours.store, ours.client, REPO, { now: '2026-02-02T00:00:00Z' }))
    for (let n = 2; n <= 20; n += 2) await ours.client.rest.issues.update({ ...REPO, issue_number: n, title: `Issue ${n}, edited` })
    const edited = await measure(ours.gh, ours.client, () => syncIssues(ours.store, ours.client, REPO, { now: '2026-02-03T00:00:00Z' }))
    await ours.gh.close()

    const naive = await emulator(issues)
    const naiveFirst = await measure(naive.gh, naive.client, () => naiveSyncWithQueue(naive.client, REPO, naive.planned))
    const naiveAgain = await measure(naive.gh, naive.client, () => naiveSyncWithQueue(naive.client, REPO, naive.planned))
    await naive.gh.close()

    row(`sync of ${issues.toLocaleString('en')} issues (${queued} planned → queued)`, first, naiveFirst)
    row('  same sync again, unchanged', again, naiveAgain)
    row('  after 10 issues were edited', edited, naiveAgain)
  }
  return [
    'sync through the API emulator: requests, rate limit (REST requests + GraphQL points; 304 answers are free), state commits,',
    'wall time (ms) and memory (MB: peak heap above the start of the step, sampled every 2 ms; growth of the max RSS), ours against the naive way',
    table(
      ['step', 'requests', 'rate limit', 'commits', 'wall ms', 'heap Δ', 'max RSS Δ', 'naive: requests', 'rate limit', 'wall ms', 'heap Δ', 'ratio'],
      rows,
    ),
  ].join('\n')
}
