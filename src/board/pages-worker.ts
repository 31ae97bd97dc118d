/**
 * The board's second thread: it makes the pages of the second half of a board's issues (issue-pages.ts) while the
 * main thread makes the first half's, so a large board is made on two cores. It is given the issues' files as text,
 * the run's state and the layouts known; it parses its issues' plans at once, waits for the task budget the first
 * half leaves, then answers with its issues' data (without outputs), their pages and the layouts it drew.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import type { RunState } from '../model/index.js'
import { GraphLayout, type SavedLayout } from './graph.js'
import type { IssueTexts } from './input.js'
import { IssuePagesMaker, type IssuePages } from './issue-pages.js'

/** Marks a worker thread as this one: a bundled entry hands such a thread to this module. */
const PAGES_WORKER = 'converge-board-pages'

export interface PagesJob {
  run: RunState | undefined
  issues: IssueTexts[]
  /** The layouts known (layouts.json's), so it lays out only new shapes too. */
  layouts: Record<string, SavedLayout>
}

export interface PagesMade {
  pages: IssuePages
  /** The layouts of the graphs it drew, and how many it laid out anew. */
  layouts: Record<string, SavedLayout>
  made: number
}

export interface PagesWorker {
  /** Tells it the task budget the issues before its own leave: it makes its pages then. */
  start(budget: number): void
  /** Its pages; rejected, naming why, when the thread failed or ended without them. */
  result: Promise<PagesMade>
  stop(): Promise<number>
}

/**
 * In development this module's own source is the thread's script (run through tsx); in a bundle, which has no file
 * of its own for this module, the bundle's entry is (it hands a worker thread here: src/index.ts, src/cli/main.ts).
 */
function workerScript(): URL | string {
  return import.meta.url.endsWith('.ts') ? new URL(import.meta.url) : process.argv[1]!
}

export function startPagesWorker(job: PagesJob, script = workerScript()): PagesWorker {
  const workerData = { [PAGES_WORKER]: job }
  const worker = String(script).endsWith('.ts')
    // Source is loaded through tsx's loader, registered in the thread first (found from here: a command may run in
    // any folder; Node 20 does not apply an `--import`ed loader to a worker's own script).
    ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(String(script))}) })`, { eval: true, workerData })
    : new Worker(script, { workerData })
  const result = new Promise<PagesMade>((resolve, reject) => {
    const failed = (why: string) => reject(new Error(`the board's second thread failed: ${why}`))
    worker.once('message', resolve)
    worker.once('error', (error) => failed(error.message))
    // After its answer this rejects nothing: a promise is settled once.
    worker.once('exit', (code) => failed(`it ended (exit code ${code}) without its issues' pages`))
  })
  // Made before the answer is awaited (the main thread makes its own half first): never an unhandled rejection.
  result.catch(() => undefined)
  return { start: (budget) => worker.postMessage(budget), result, stop: () => worker.terminate() }
}

/** In the thread: makes its issues' pages when told the budget, and answers. */
function makePagesInThisThread(job: PagesJob): void {
  const maker = new IssuePagesMaker(job.run, job.issues)
  const layout = new GraphLayout()
  layout.importLayouts(job.layouts)
  parentPort!.once('message', (budget: number) => {
    const made: PagesMade = { pages: maker.make(layout, budget), layouts: layout.exportLayouts(), made: layout.made }
    parentPort!.postMessage(made)
  })
}

const job = isMainThread ? undefined : (workerData as Record<string, PagesJob> | undefined)?.[PAGES_WORKER]
if (job) makePagesInThisThread(job)
