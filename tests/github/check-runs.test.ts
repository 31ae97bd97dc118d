import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  ANNOTATIONS_PER_REQUEST,
  CHECK_RUN_TEXT_LIMIT,
  CheckRun,
  CheckRunPermissionError,
  checkRunRequestBound,
  publishCheckRun,
  CoalescingUpdater,
  type CheckRunConclusion,
  type StartCheckRunOptions,
} from '../../src/github/check-runs.js'
import { createGitHubClient, type GitHubClient } from '../../src/github/client.js'
import type { Annotation } from '../../src/report/annotations.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'

const REPO = { owner: 'octo-org', repo: 'demo' }
const running = (done: number, total: number) => ({ title: `${done}/${total} tasks done`, summary: `Progress: ${done} of ${total}` })

describe('check runs through the API emulator', () => {
  let gh: Emulator
  let client: GitHubClient
  let headSha: string
  const updates = () => gh.requests.filter((r) => r.operationId === 'checks/update')
  const checkRequests = () => gh.requests.filter((r) => r.operationId?.startsWith('checks/'))
  const start = (options: Partial<StartCheckRunOptions> = {}) =>
    CheckRun.start(client, REPO, { issueNumber: 42, headSha, taskCount: 10, output: running(0, 10), progress: { minIntervalMs: 0 }, ...options })

  beforeEach(async () => {
    gh = await startEmulator({ ...REPO, files: { 'README.md': '# demo\n' } })
    client = createGitHubClient({ token: gh.token, apiUrl: gh.url, graphqlUrl: gh.graphqlUrl, retryBaseMs: 10, writeIntervalMs: 0 })
    headSha = (await gh.state.branchHead('main'))!
  })
  afterEach(async () => {
    try { gh.expectNoViolations() } finally { await gh.close() }
  })

  it('creates "converge / ISS-<n>" in progress on the head commit', async () => {
    const run = await start({ detailsUrl: 'https://github.com/octo-org/demo/actions/runs/7' })
    expect(gh.state.checkRun(run.id)).toMatchObject({
      name: 'converge / ISS-42',
      headSha,
      status: 'in_progress',
      conclusion: null,
      detailsUrl: 'https://github.com/octo-org/demo/actions/runs/7',
      output: { title: '0/10 tasks done', summary: 'Progress: 0 of 10' },
    })
    expect(run.url).toEqual(expect.stringContaining('/runs/'))
  })

  it.each([
    [10, 10],
    [200, 20],
  ])('sends at most min(N, 20) progress updates for %i task completions', async (taskCount, expected) => {
    const run = await start({ taskCount, output: running(0, taskCount) })
    for (let done = 1; done <= taskCount; done++) {
      run.progress(running(done, taskCount), done)
      await run.idle()
    }
    expect(updates()).toHaveLength(expected)
    expect(run.progressSent).toBe(expected)
    expect(gh.state.checkRun(run.id)!.output.summary).toBe(`Progress: ${taskCount} of ${taskCount}`)
    await run.complete({ conclusion: 'success', output: { title: 'Done', summary: 'All tasks converged' } })
    expect(checkRequests()).toHaveLength(checkRunRequestBound(taskCount, 0))
  })

  it('coalesces tasks finishing together into fewer updates, never more than the bound', async () => {
    const taskCount = 200
    const run = await start({ taskCount, output: running(0, taskCount) })
    for (let done = 1; done <= taskCount; done++) {
      run.progress(running(done, taskCount), done)
      if (done % 25 === 0) await run.idle()
    }
    await run.idle()
    expect(updates().length).toBeGreaterThan(0)
    expect(updates().length).toBeLessThanOrEqual(20)
  })

  it('holds progress back for the interval, then sends only the newest', async () => {
    // An interval longer than any one request takes on a loaded machine, so the first update is answered within it.
    const run = await start({ progress: { minIntervalMs: 2_000 } })
    const startedAt = Date.now()
    for (let done = 1; done <= 5; done++) run.progress(running(done, 10), done)
    await run.idle()
    expect(updates()).toHaveLength(1)
    expect(gh.state.checkRun(run.id)!.output.summary).toBe('Progress: 1 of 10')
    await vi.waitFor(() => expect(updates()).toHaveLength(2), { timeout: 10_000 })
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2_000)
    await run.idle()
    expect(gh.state.checkRun(run.id)!.output.summary).toBe('Progress: 5 of 10')
  })

  it('drops progress not sent yet when it completes', async () => {
    const run = await start({ progress: { minIntervalMs: 60_000 } })
    run.progress(running(1, 10), 1)
    run.progress(running(2, 10), 2)
    await run.complete({ conclusion: 'failure', output: { title: 'Failed', summary: 'T2 failed' } })
    run.progress(running(3, 10), 3)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(updates()).toHaveLength(2) // one progress update, the completion
    expect(gh.state.checkRun(run.id)).toMatchObject({ status: 'completed', conclusion: 'failure', output: { summary: 'T2 failed' } })
  })

  it.each<CheckRunConclusion>(['success', 'failure', 'neutral', 'action_required'])('completes with conclusion %s', async (conclusion) => {
    const run = await start()
    await run.complete({ conclusion, output: { title: `Converge: ${conclusion}`, summary: 'summary', text: 'details' } })
    const stored = gh.state.checkRun(run.id)!
    expect(stored).toMatchObject({ status: 'completed', conclusion, output: { title: `Converge: ${conclusion}`, summary: 'summary', text: 'details' } })
    expect(stored.completedAt).toEqual(expect.any(String))
    expect(updates()).toHaveLength(1)
  })

  it('sends 120 annotations 50 per request: the completion, then two more updates', async () => {
    const annotations: Annotation[] = Array.from({ length: 120 }, (_, i) => ({
      path: `src/file${i % 7}.ts`, start_line: i + 1, end_line: i + 1, annotation_level: i % 3 ? 'failure' : 'warning', message: `problem ${i}`,
    }))
    const run = await start()
    await run.complete({ conclusion: 'failure', output: { title: 'Failed', summary: '3 tasks failed' }, annotations })
    const sent = updates()
    expect(sent).toHaveLength(3)
    const perRequest = sent.map((r) => (r.body as { output: { annotations?: unknown[] } }).output.annotations?.length ?? 0)
    expect(perRequest).toEqual([50, 50, 20])
    expect(Math.max(...perRequest)).toBeLessThanOrEqual(ANNOTATIONS_PER_REQUEST)
    expect((sent[0]!.body as { conclusion?: string }).conclusion).toBe('failure')
    const stored = gh.state.checkRun(run.id)!
    expect(stored.annotations.map((a) => a.message)).toEqual(annotations.map((a) => a.message))
    expect(stored).toMatchObject({ status: 'completed', conclusion: 'failure', output: { summary: '3 tasks failed' } })
    expect(checkRequests()).toHaveLength(checkRunRequestBound(0, 120)) // no progress was offered: create + 3
  })

  it('a check run published in one go (the one on a pull request\'s head) carries its annotations too, 50 per request', async () => {
    const annotations: Annotation[] = Array.from({ length: 120 }, (_, i) => ({
      path: 'src/a.ts', start_line: i + 1, end_line: i + 1, annotation_level: 'failure', message: `problem ${i}`,
    }))
    const { id } = await publishCheckRun(client, REPO, { issueNumber: 42, headSha, title: 'Failed', summary: '1 task failed', conclusion: 'failure', annotations })
    const stored = gh.state.checkRun(id)!
    expect(stored).toMatchObject({ status: 'completed', conclusion: 'failure', output: { title: 'Failed', summary: '1 task failed' } })
    expect(stored.annotations.map((a) => a.message)).toEqual(annotations.map((a) => a.message))
    const sent = checkRequests().map((r) => (r.body as { output: { annotations?: unknown[] } }).output.annotations?.length ?? 0)
    expect(sent).toEqual([50, 50, 20])
  })

  it("truncates a summary and a text over GitHub's 65,535 characters, with a note", async () => {
    const run = await start({ output: { title: 'Running', summary: 'x'.repeat(70_000) } })
    expect(gh.state.checkRun(run.id)!.output.summary!.length).toBeLessThanOrEqual(CHECK_RUN_TEXT_LIMIT)
    await run.complete({ conclusion: 'success', output: { title: 'Done', summary: '😀'.repeat(40_000), text: 'y'.repeat(100_000) } })
    const { summary, text } = gh.state.checkRun(run.id)!.output
    expect(summary!.length).toBeLessThanOrEqual(CHECK_RUN_TEXT_LIMIT)
    expect(summary).toMatch(/^(😀)+\n\n… truncated: [\d,]+ characters omitted \(GitHub allows 65,535\)\.$/)
    expect(text!.length).toBeLessThanOrEqual(CHECK_RUN_TEXT_LIMIT)
    expect(text).toContain('… truncated:')
  })
})

describe('a token without checks: write', () => {
  it('fails with a typed error that names the missing permission', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(403, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run', status: '403' }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const client = createGitHubClient({ token: 'ghs_readOnly', apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, retries: 0 })
      const started = CheckRun.start(client, REPO, { issueNumber: 42, headSha: 'a'.repeat(40), taskCount: 1, output: { title: 't', summary: 's' } })
      await expect(started).rejects.toBeInstanceOf(CheckRunPermissionError)
      await expect(started).rejects.toMatchObject({ action: 'create', status: 403, message: expect.stringContaining('checks: write') })
      await expect(started).rejects.toThrow(/Resource not accessible by integration/)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('CoalescingUpdater', () => {
  it('reports a failed send and carries on with newer values', async () => {
    const sent: number[] = []
    const errors: unknown[] = []
    const updater = new CoalescingUpdater(async (value: number) => {
      if (value === 2) throw new Error('502 Bad Gateway')
      sent.push(value)
    }, 3, (error) => errors.push(error), { minIntervalMs: 0 })
    for (const done of [1, 2, 3]) {
      updater.offer(done, done)
      await updater.idle()
    }
    expect(sent).toEqual([1, 3])
    expect(errors).toEqual([new Error('502 Bad Gateway')])
    expect(updater.sent).toBe(3)
  })

  it('sends nothing for a run without tasks or without an update budget', async () => {
    let sends = 0
    const noTasks = new CoalescingUpdater(async () => { sends++ }, 0, () => {}, { minIntervalMs: 0 })
    noTasks.offer('x', 0)
    const noBudget = new CoalescingUpdater(async () => { sends++ }, 5, () => {}, { minIntervalMs: 0, maxUpdates: 0 })
    noBudget.offer('x', 5)
    await Promise.all([noTasks.idle(), noBudget.idle()])
    expect(sends).toBe(0)
  })
})
