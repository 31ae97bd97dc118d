/**
 * Makes the board from a state store and writes it as a folder: index.html, board.json, and layouts.json (the task
 * graphs' layouts by shape, read again by the next board made into the same folder so it lays out nothing new).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { StateStore } from '../state/store.js'
import { buildBoardData, type BoardData } from './data.js'
import { GraphLayout } from './graph.js'
import { boardPage } from './page.js'
import { readBoardInput } from './read-state.js'

export interface Board {
  data: BoardData
  html: string
  json: string
  /** The layouts of this board's graphs, as layouts.json holds them. */
  layouts: string
}

export async function makeBoard(store: StateStore, now: string, layout = new GraphLayout()): Promise<Board> {
  const data = buildBoardData(await readBoardInput(store), now)
  return renderBoard(data, layout)
}

/** The page and its JSON from the data (the task graphs laid out here). */
export async function renderBoard(data: BoardData, layout = new GraphLayout()): Promise<Board> {
  const graphs = new Map<number, string>()
  for (const issue of data.issues) if (issue.tasks.length) graphs.set(issue.number, await layout.svg(issue.number, issue.tasks))
  return { data, html: boardPage(data, graphs), json: `${JSON.stringify(data, null, 2)}\n`, layouts: `${JSON.stringify(await layout.exportLayouts())}\n` }
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

/** Writes the files, each replaced whole (a server reading the folder never sees half a page). */
export async function writeBoard(dir: string, board: Board): Promise<{ page: string; data: string }> {
  await mkdir(dir, { recursive: true })
  const page = join(dir, BOARD_FILES.page)
  const data = join(dir, BOARD_FILES.data)
  for (const [path, content] of [[join(dir, BOARD_FILES.layouts), board.layouts], [data, board.json], [page, board.html]] as const) {
    await writeFile(`${path}.tmp`, content)
    await rename(`${path}.tmp`, path)
  }
  return { page, data }
}
