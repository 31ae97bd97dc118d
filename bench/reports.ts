/**
 * Report updates per run through the GitHub API emulator: the check run's progress updates and the sticky
 * comment's edits, both coalesced by `CoalescingUpdater`, against the naive way (one update of each per task
 * finished), beside the stated bound. Time is scaled 1:1000: the 10 s least interval is 10 ms, and tasks
 * finish 0–60 s apart (steady) or all at once (burst, as when a rerun finds every task done).
 */
import { CheckRun, checkRunRequestBound, CoalescingUpdater, DEFAULT_COALESCING } from '../src/github/check-runs.js'
import { createGitHubClient } from '../src/github/client.js'
import type { Annotation } from '../src/report/annotations.js'
import { startEmulator } from '../tests/support/emulator/index.js'
import { table } from './measure.js'

const REPO = { owner: 'octo-org', repo: 'bench' }
const TIME_SCALE = 1_000
const ANNOTATIONS = 120

type Pace = 'steady' | 'burst'

interface Counts { checkRunUpdates: number; commentUpdates: number; checkRunRequests: number }

async function simulateRun(taskCount: number, pace: Pace): Promise<Counts> {
  const gh = await startEmulator({ ...REPO, files: { 'README.md': '# bench\n' }, validateResponses: false })
  try {
    const client = createGitHubClient({ token: gh.token, apiUrl: gh.url, graphqlUrl: gh.graphqlUrl, retryBaseMs: 10, writeIntervalMs: 0 })
    gh.seed.issue({ number: 42, title: 'Bench issue' })
    const progress = { ...DEFAULT_COALESCING, minIntervalMs: DEFAULT_COALESCING.minIntervalMs / TIME_SCALE }
    const status = (done: number) => ({ title: `${done}/${taskCount} tasks done`, summary: `Progress: ${done} of ${taskCount}` })
    const { data: comment } = await client.rest.issues.createComment({ ...REPO, issue_number: 42, body: 'Converge: starting' })
    const run = await CheckRun.start(client, REPO, { issueNumber: 42, headSha: (await gh.state.branchHead('main'))!, taskCount, output: status(0), progress })
    const failures: unknown[] = []
    const commentUpdates = new CoalescingUpdater(
      async (body: string) => { await client.rest.issues.updateComment({ ...REPO, comment_id: comment.id, body }) },
      taskCount,
      (error) => failures.push(error),
      progress,
    )
    let seed = taskCount
    const nextGapMs = () => (pace === 'burst' ? 0 : ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 60_000 / TIME_SCALE)
    for (let done = 1; done <= taskCount; done++) {
      await new Promise((resolve) => setTimeout(resolve, nextGapMs()))
      run.progress(status(done), done)
      commentUpdates.offer(status(done).summary, done)
    }
    await commentUpdates.stop()
    if (failures.length > 0) throw failures[0]
    await run.complete({ conclusion: 'failure', output: { title: 'Failed', summary: 'Some tasks failed' }, annotations: annotations(ANNOTATIONS) })
    const count = (operationId: string) => gh.requests.filter((r) => r.operationId === operationId).length
    return {
      checkRunUpdates: run.progressSent,
      commentUpdates: count('issues/update-comment'),
      checkRunRequests: count('checks/create') + count('checks/update'),
    }
  } finally {
    await gh.close()
  }
}

function annotations(count: number): Annotation[] {
  return Array.from({ length: count }, (_, i) => ({ path: `src/module-${i % 9}.ts`, start_line: i + 1, end_line: i + 1, annotation_level: 'failure', message: `problem ${i}` }))
}

export async function benchReports(): Promise<string> {
  const rows: Array<Array<string | number>> = []
  for (const pace of ['steady', 'burst'] as const) {
    for (const taskCount of [10, 200]) {
      const ours = await simulateRun(taskCount, pace)
      const bound = Math.min(taskCount, DEFAULT_COALESCING.maxUpdates)
      rows.push([
        pace, taskCount,
        ours.checkRunUpdates, ours.commentUpdates, taskCount, bound,
        ours.checkRunRequests, 1 + taskCount + Math.ceil(ANNOTATIONS / 50), checkRunRequestBound(taskCount, ANNOTATIONS),
      ])
    }
  }
  return [
    `Report updates per run (${ANNOTATIONS} annotations; progress at most every ${DEFAULT_COALESCING.minIntervalMs / 1000} s, at most min(N, ${DEFAULT_COALESCING.maxUpdates}) times; time scaled 1:${TIME_SCALE})`,
    table(
      ['pace', 'tasks N', 'check-run progress', 'comment edits', 'naive (each)', 'bound min(N,20)', 'check-run requests', 'naive', 'bound'],
      rows,
    ),
    'check-run requests = create + progress + completion + further annotation batches; bound = 1 + min(N, 20) + max(1, ⌈A/50⌉)',
  ].join('\n')
}
