/**
 * The board of a large repository: 1,000 issues, 500 of them planned with 20 tasks each (250 executed, with agent
 * usage and evidence), in an in-memory state store. Measured against the same data rendered as plain Markdown
 * (and, in chromium, that Markdown as a plain HTML page): the time to make it, its bytes, the browser's time to
 * first render and to open one issue.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { marked } from 'marked'
import { buildBoardData, type BoardData } from '../src/board/data.js'
import { makeBoard, writeBoard } from '../src/board/make.js'
import { readBoardInput } from '../src/board/read-state.js'
import { SolutionInputSchema, type RunState, type Solution } from '../src/model/index.js'
import { planHash } from '../src/plan/hash.js'
import { statePaths } from '../src/model/state-layout.js'
import type { StateSnapshot, StateStore } from '../src/state/store.js'
import { HAVE_CHROMIUM, issueShownAt, launchBrowser } from '../tests/board/browser.js'
import { fmt, table } from './measure.js'
import { syntheticPlan } from './synthetic.js'

/** Board sizes measured: `npm run bench -- only=board issues=100,1000,3000` (default 1,000). */
const SIZES = (process.argv.find((a) => a.startsWith('issues='))?.slice(7) ?? '1000').split(',').map(Number)
const TASKS = 20
/**
 * `outputs=real`: each command output a test runner's real-sized tail (about 6 KB, coloured), as the demo writes them,
 * and each issue's outputs its own (their paths name the issue), as in a repository: only a task's checks and its
 * runs after the change print the same text.
 */
const REAL_OUTPUTS = process.argv.includes('outputs=real')

function realOutput(n: number, i: number, failed: boolean): string {
  const lines = [`\u001b[1m\u001b[46m RUN \u001b[49m\u001b[22m \u001b[36mv4.1.12 \u001b[39m\u001b[90m/home/runner/work/bench/bench\u001b[39m`, '']
  for (let t = 0; t < 60; t++) lines.push(` \u001b[32m✓\u001b[39m tests/issue-${n}/module-${i}/case-${t}.test.ts \u001b[2m(\u001b[22m\u001b[2m${t % 7 + 1} tests\u001b[22m\u001b[2m)\u001b[22m\u001b[32m ${t * 3 + 2}\u001b[2mms\u001b[22m\u001b[39m`)
  lines.push('', failed ? ' \u001b[31mTest Files  1 failed\u001b[39m | 59 passed (60)' : ' Test Files  \u001b[1m\u001b[32m60 passed\u001b[39m\u001b[22m (60)', '      Tests  240 passed (240)', '   Duration  4.21s')
  return `${lines.join('\n')}\n`
}
const outputOf = (n: number, i: number, failed: boolean, short: string) => (REAL_OUTPUTS ? realOutput(n, i, failed) : short)
const AT = '2026-11-20T10:00:00.000Z'

/** A state branch held in memory: the files as Converge writes them, read through the StateStore interface. */
export function syntheticStore(ISSUES = 1_000): StateStore {
  const PLANNED = ISSUES / 2
  const files = new Map<string, string>()
  const issues: RunState['issues'] = {}
  for (let n = 1; n <= ISSUES; n++) {
    const planned = n <= PLANNED
    const executed = n <= PLANNED / 2
    const status = executed ? (n % 10 === 0 ? 'failed' : 'completed') : planned ? 'planned' : 'registered'
    const plan = planned ? canonicalPlan(n) : undefined
    issues[`ISS-${n}`] = { number: n, title: `Issue ${n}: make module ${n} faster`, status, solution_id: plan?.id ?? null, updated_at: AT }
    files.set(statePaths.issue(n), JSON.stringify({
      id: `ISS-${n}`, number: n, title: `Issue ${n}: make module ${n} faster`, status, solution_id: plan?.id ?? null, planned_at: planned ? AT : null,
      executed_at: executed ? AT : null, error: null, labels: [n % 3 ? 'enhancement' : 'bug'], url: `https://github.com/octo-org/bench/issues/${n}`,
    }))
    if (plan) files.set(statePaths.plan(n), JSON.stringify({ ...plan, approval: { plan_hash: planHash(plan), approved_by: 'alice', approved_at: AT } }))
    if (plan && executed) files.set(statePaths.execution(n), JSON.stringify(execution(n, plan)))
    files.set(statePaths.events(n), `# Execution Events\n\n## ${AT} — ISS-${n}: approved ${plan?.id ?? '–'}\n\n**Approved by**: @alice\n\n---\n\n`)
  }
  const queue = Array.from({ length: PLANNED / 2 }, (_, i) => ({ item_id: `S-${i + 1}`, issue_id: `ISS-${PLANNED / 2 + i + 1}`, solution_id: `SOL-ISS-${PLANNED / 2 + i + 1}-1`, status: 'pending' as const }))
  files.set(statePaths.runState, JSON.stringify({
    version: 1, status: 'running', phase: 'executing', issues, queue, context: { total_issues: ISSUES, completed_count: 0, failed_count: 0 },
    errors: [], history: [], sync: null, created_at: AT, updated_at: AT,
  }))
  const snapshot: StateSnapshot = { head: 'f'.repeat(40), read: async (path) => files.get(path) }
  return { branch: 'converge/state', snapshot: async () => snapshot, commit: async () => { throw new Error('read only') } }
}

function canonicalPlan(n: number): Solution {
  const raw = syntheticPlan(TASKS, 'full', n)
  return SolutionInputSchema.parse({ ...raw, id: `SOL-ISS-${n}-1`, issue_id: `ISS-${n}` })
}

function execution(n: number, plan: Solution) {
  const tasks = Object.fromEntries(plan.tasks.map((task, i) => {
    const command = task.test.commands[0] ?? 'npm test'
    const failed = n % 10 === 0 && i === TASKS - 1
    return [task.id, {
      task_id: task.id, status: failed ? 'failed' : 'completed', started_at: AT, executed_at: AT, duration_ms: 40_000, files_modified: task.files.map((f) => f.path),
      commit_hash: failed ? null : 'a'.repeat(40), tests_passed: !failed, attempts: 1, error: failed ? 'Not converged after 1 attempt' : null,
      convergence_verified: [{ kind: 'command', text: command, verdict: failed ? 'fail' : 'pass', verified_by: 'command', exit_code: failed ? 1 : 0, duration_ms: 900, output_tail: outputOf(n, i, failed, `ok ${i} tests passed\n`.repeat(3)) }],
      executor_runs: [{ attempt: 1, exit_code: 0, signal: null, timed_out: false, duration_ms: 30_000, output_tail: 'done', agent: { format: 'claude-json', message: 'Done.', error: null, permission_denials: [], usage: { input_tokens: 12_000, output_tokens: 800, turns: 6, cost_usd: 0.05 } } }],
      evidence: { kind: i % 4 ? 'proven' : 'unproven', before: [{ command, exit_code: i % 4 ? 1 : 0, duration_ms: 800, output_tail: outputOf(n, i, true, 'FAIL 1 test') }], after: [{ command, exit_code: 0, duration_ms: 900, output_tail: outputOf(n, i, false, 'ok') }] },
    }]
  }))
  return { solution_id: plan.id, issue_id: `ISS-${n}`, plan_hash: planHash(plan), status: 'completed', started_at: AT, executed_at: AT, tasks }
}

/** The baseline: the same data as Markdown — an issue table, then per issue its tasks with their verdicts and evidence. */
function boardMarkdown(data: BoardData): string {
  const lines = ['# Converge board', '', '| # | Title | Status | Gate | Cost | Tokens |', '| --- | --- | --- | --- | --- | --- |']
  for (const i of data.issues) lines.push(`| ${i.number} | ${i.title} | ${i.status} | ${i.gate ?? '–'} | ${i.cost_usd ?? '–'} | ${i.tokens ?? '–'} |`)
  for (const i of data.issues) {
    lines.push('', `<a id="iss-${i.number}"></a>`, '', `## ISS-${i.number}: ${i.title}`, '', '| Task | Title | State | Evidence | Checks |', '| --- | --- | --- | --- | --- |')
    for (const t of i.tasks) lines.push(`| ${t.id} | ${t.title} | ${t.state} | ${t.evidence?.kind ?? '–'} | ${t.checks.map((c) => `${c.text}: ${c.verdict}`).join('; ')} |`)
  }
  return `${lines.join('\n')}\n`
}

/** The value, the wall time and the CPU time (user + system, all of the process's threads: the collector's too). */
async function timed<T>(fn: () => Promise<T>): Promise<[T, number, number]> {
  const start = performance.now()
  const cpu = process.cpuUsage()
  const value = await fn()
  const used = process.cpuUsage(cpu)
  return [value, performance.now() - start, (used.user + used.system) / 1000]
}

export async function benchBoard(): Promise<string> {
  const out: string[] = []
  for (const size of SIZES) out.push(await benchBoardOf(size))
  return out.join('\n\n')
}

async function benchBoardOf(ISSUES: number): Promise<string> {
  const PLANNED = ISSUES / 2
  const OPENED = [7, 37, 49, 80, 90].map((n) => Math.round((n * ISSUES) / 100))
  const store = syntheticStore(ISSUES)
  // As `converge board` makes it: an issue at a time, a large board on two threads (CPU: both, and their collectors).
  const [board, boardMs, boardCpu] = await timed(() => makeBoard(store, AT))
  const [markdown, markdownMs, markdownCpu] = await timed(async () => boardMarkdown(buildBoardData(await readBoardInput(store), AT)))
  const rows: Array<Array<string | number>> = [
    ['make (ms)', fmt(boardMs), fmt(markdownMs), (boardMs / markdownMs).toFixed(1)],
    ['make, CPU: user + system (ms)', fmt(boardCpu), fmt(markdownCpu), (boardCpu / markdownCpu).toFixed(1)],
    ['page bytes (index.html)', Buffer.byteLength(board.html), Buffer.byteLength(markdown), (Buffer.byteLength(board.html) / Buffer.byteLength(markdown)).toFixed(1)],
  ]
  // Each issue's page is a file of its own, loaded when it is opened: their sum, and the largest (what one opening loads).
  const issueBytes = [...board.issues.values()].map((s) => Buffer.byteLength(s))
  rows.push(['issue pages, all (bytes)', issueBytes.reduce((a, b) => a + b, 0), '–', '–'], ['largest issue page (bytes)', Math.max(...issueBytes), '–', '–'])
  const notes = [`Board of ${ISSUES} issues (${PLANNED} planned, ${TASKS} tasks each; ${PLANNED / 2} executed; ${REAL_OUTPUTS ? 'real-sized' : 'short'} command outputs), against the same data as Markdown`]
  if (!HAVE_CHROMIUM) notes.push('(no chromium: browser times left out)')
  else {
    const dir = await mkdtemp(join(tmpdir(), 'converge-bench-board-'))
    const browser = await launchBrowser()
    try {
      const pages = { board: (await writeBoard(join(dir, 'board'), board)).page, markdown: join(dir, 'markdown.html') }
      await writeFile(pages.markdown, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Board</title></head><body>${await marked.parse(markdown)}</body></html>`)
      const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!
      const measure = async (path: string, hash: string) => {
        // First render: the median of three loads, each in a new page.
        // Interactive: the page's script has run (its handlers are on: DOMContentLoaded has ended), from navigation.
        const paints: number[] = []
        const ready: number[] = []
        for (let i = 0; i < 3; i++) {
          const fresh = await browser.context.newPage()
          await fresh.goto(pathToFileURL(path).href, { waitUntil: 'load', timeout: 120_000 })
          paints.push(await fresh.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? performance.getEntriesByType('navigation')[0].loadEventEnd") as number)
          ready.push(await fresh.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd") as number)
          await fresh.close()
        }
        const page = await browser.context.newPage()
        await page.goto(pathToFileURL(path).href, { waitUntil: 'load', timeout: 120_000 })
        // The median of opening five issues (the time to the second frame after the hash changes), each from the list.
        const opens: number[] = []
        for (const n of OPENED) {
          // Until the issue's heading is there (its page loaded, for the board), then two frames.
          opens.push(await page.evaluate(`new Promise((done) => { const start = performance.now(); location.hash = '${hash}${n}'; const wait = () => (document.querySelector('#detail h2') || !document.getElementById('detail')) ? requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - start))) : setTimeout(wait, 5); wait() })`) as number)
          await page.evaluate("location.hash = '#top'")
          await page.waitForFunction("!document.querySelector('#detail h2')")
        }
        await page.close()
        return { paint: median(paints), ready: median(ready), open: median(opens) }
      }
      // From navigation to an issue's page shown (a link to #issue-N followed from elsewhere): the median of three.
      const fromNavigation: number[] = []
      for (const n of OPENED.slice(0, 3)) {
        const shown = await issueShownAt(browser.context, `${pathToFileURL(pages.board).href}#issue-${n}`)
        fromNavigation.push(shown.ms)
        await shown.page.close()
      }
      const ours = await measure(pages.board, '#issue-')
      const plain = await measure(pages.markdown, '#iss-')
      rows.push(['first render (ms)', fmt(ours.paint), fmt(plain.paint), (ours.paint / plain.paint).toFixed(1)])
      rows.push(['interactive (ms)', fmt(ours.ready), fmt(plain.ready), (ours.ready / plain.ready).toFixed(1)])
      rows.push(['navigation → issue shown (ms)', fmt(median(fromNavigation)), '–', '–'])
      rows.push(['open an issue (ms)', fmt(ours.open), fmt(plain.open), (ours.open / plain.open).toFixed(1)])
    } finally {
      await browser.close()
      await rm(dir, { recursive: true, force: true })
    }
  }
  return [...notes, table(['', 'board', 'Markdown', 'ratio'], rows)].join('\n')
}
