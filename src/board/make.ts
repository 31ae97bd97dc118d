/**
 * Makes the board from a state store and writes it as a folder: index.html (the lists), issues/<n>.js (each issue's
 * page, loaded when opened, with its command outputs), board.json (the data, without the outputs), and layouts.json
 * (the task graphs' layouts by shape, read again by the next board made into the same folder so it lays out nothing
 * new).
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { StateStore } from '../state/store.js'
import { availableParallelism } from 'node:os'
import { boardDataOf, withoutOutputs, type BoardData, type BoardIssue } from './data.js'
import { GraphLayout } from './graph.js'
import { issuePage, IssuePagesMaker } from './issue-pages.js'
import { boardPage, issueScriptPath } from './page.js'
import { startPagesWorker } from './pages-worker.js'
import { readBoardTexts } from './read-state.js'

export interface Board {
  /** The board's data as `board.json` holds it: without command outputs (in the issues' pages). */
  data: BoardData
  html: string
  /** Each issue's page (`issues/<n>.js`), by issue number. */
  issues: Map<number, string>
  json: string
  /** The layouts of this board's graphs, as layouts.json holds them. */
  layouts: string
}

/**
 * Boards of less state than this are made on one thread: a second thread costs 1–3 s of CPU (its code compiled
 * again, a collector of its own), more than it saves on a board of short outputs (docs/board.md, "third pass").
 */
export const WORKER_MIN_BYTES = 64 * 1024 * 1024

/**
 * Each issue's files are parsed, built into its data and its page, and its outputs let go before the next issue's
 * are parsed (issue-pages.ts). A board of much state is made on two threads when there are two cores: the issues
 * after the half-way point of its state's bytes by a worker (pages-worker.ts), those before it here meanwhile.
 * `worker` chooses two threads (true) or one (false) instead.
 */
export async function makeBoard(store: StateStore, now: string, layout = new GraphLayout(), worker?: boolean): Promise<Board> {
  const input = await readBoardTexts(store)
  const bytes = input.issues.map((t) => (t.issue?.length ?? 0) + (t.plan?.length ?? 0) + (t.execution?.length ?? 0) + (t.events?.length ?? 0))
  const twoThreads = worker ?? (bytes.reduce((sum, b) => sum + b, 0) >= WORKER_MIN_BYTES && availableParallelism() > 1)
  const split = twoThreads ? halfWay(bytes) : input.issues.length
  const second = split < input.issues.length ? startPagesWorker({ run: input.run, issues: input.issues.slice(split), layouts: layout.exportLayouts(true) }) : undefined
  try {
    const first = new IssuePagesMaker(input.run, input.issues.slice(0, split))
    second?.start(first.budgetLeft())
    const made = first.make(layout)
    const theirs = await second?.result
    if (theirs) layout.adoptLayouts(theirs.layouts, theirs.made)
    const issues = [...made.issues, ...(theirs?.pages.issues ?? [])]
    return boardOf(boardDataOf(input, issues, now), new Map([...made.pages, ...(theirs?.pages.pages ?? [])]), layout)
  } finally {
    await second?.stop()
  }
}

/**
 * Where issues of these bytes of state (the work of making their pages) divide into two parts of about the same
 * bytes: issues planned and run come first in a repository's numbering as often as not, so half the issues is not
 * half the work.
 */
function halfWay(bytes: readonly number[]): number {
  const half = bytes.reduce((sum, b) => sum + b, 0) / 2
  let sum = 0
  const at = bytes.findIndex((b) => (sum += b) >= half)
  return at < 0 ? bytes.length : at + 1
}

/** The page and its JSON from the data (the task graphs laid out here). */
export async function renderBoard(data: BoardData, layout = new GraphLayout()): Promise<Board> {
  const pages = new Map<number, string>()
  return boardOf({ ...data, issues: data.issues.map((issue) => issueWithPage(issue, pages, layout)) }, pages, layout)
}

/** Makes the issue's page into `pages`; returns the issue without its outputs. */
function issueWithPage(issue: BoardIssue, pages: Map<number, string>, layout: GraphLayout): BoardIssue {
  pages.set(issue.number, issuePage(issue, layout))
  return withoutOutputs(issue)
}

function boardOf(data: BoardData, issues: Map<number, string>, layout: GraphLayout): Board {
  return { data, html: boardPage(data), issues, json: `${JSON.stringify(data)}\n`, layouts: `${JSON.stringify(layout.exportLayouts())}\n` }
}

export const BOARD_FILES = { page: 'index.html', data: 'board.json', layouts: 'layouts.json' } as const

/** A layout engine holding the layouts an earlier board wrote to `dir` (none when there is none or it is unreadable). */
export async function layoutsOf(dir: string): Promise<GraphLayout> {
  const layout = new GraphLayout()
  try {
    layout.importLayouts(JSON.parse(await readFile(join(dir, BOARD_FILES.layouts), 'utf8')))
  } catch {
    // No earlier board here: every graph is laid out.
  }
  return layout
}

/**
 * Writes the files, each replaced whole (a server reading the folder never sees half a page): the issues' pages
 * first, the page that links them last; then removes the pages of issues the board no longer has.
 */
export async function writeBoard(dir: string, board: Board): Promise<{ page: string; data: string }> {
  await mkdir(join(dir, 'issues'), { recursive: true })
  const page = join(dir, BOARD_FILES.page)
  const data = join(dir, BOARD_FILES.data)
  const replace = async (path: string, content: string) => {
    await writeFile(`${path}.tmp`, content)
    await rename(`${path}.tmp`, path)
  }
  for (const [n, script] of board.issues) await replace(join(dir, issueScriptPath(n)), script)
  for (const [path, content] of [[join(dir, BOARD_FILES.layouts), board.layouts], [data, board.json], [page, board.html]] as const) await replace(path, content)
  const current = new Set([...board.issues.keys()].map((n) => `${n}.js`))
  for (const name of await readdir(join(dir, 'issues'))) if (!current.has(name)) await rm(join(dir, 'issues', name), { force: true })
  return { page, data }
}
