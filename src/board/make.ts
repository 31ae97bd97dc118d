/** Makes the board from a state store and writes it as a folder: index.html and board.json. */
import { mkdir, rename, writeFile } from 'node:fs/promises'
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
}

export async function makeBoard(store: StateStore, now: string, layout = new GraphLayout()): Promise<Board> {
  const data = buildBoardData(await readBoardInput(store), now)
  return renderBoard(data, layout)
}

/** The page and its JSON from the data (the task graphs laid out here). */
export async function renderBoard(data: BoardData, layout = new GraphLayout()): Promise<Board> {
  const graphs = new Map<number, string>()
  for (const issue of data.issues) if (issue.tasks.length) graphs.set(issue.number, await layout.svg(issue.number, issue.tasks))
  return { data, html: boardPage(data, graphs), json: `${JSON.stringify(data, null, 2)}\n` }
}

export const BOARD_FILES = { page: 'index.html', data: 'board.json' } as const

/** Writes both files, each replaced whole (a server reading the folder never sees half a page). */
export async function writeBoard(dir: string, board: Board): Promise<{ page: string; data: string }> {
  await mkdir(dir, { recursive: true })
  const page = join(dir, BOARD_FILES.page)
  const data = join(dir, BOARD_FILES.data)
  for (const [path, content] of [[data, board.json], [page, board.html]] as const) {
    await writeFile(`${path}.tmp`, content)
    await rename(`${path}.tmp`, path)
  }
  return { page, data }
}
