/**
 * The action's `board: artifact`: the board of the state branch written to a folder of the runner's temporary
 * directory, the folder a Pages artifact is made of (`actions/upload-pages-artifact` with `path:` the output
 * `board-path`), and named in the job summary.
 */
import { join } from 'node:path'
import { plural } from '../board/format.js'
import { makeBoard, writeBoard } from '../board/make.js'
import type { StateStore } from '../state/store.js'

export interface BoardArtifact {
  /** The folder holding index.html and board.json. */
  path: string
  summary: string
}

/**
 * The board after a command, never its failure: a board that cannot be made (a state file it cannot read, a full
 * disk) is a warning of the run, and the command's own outcome stands.
 */
export async function boardArtifactOrWarning(store: StateStore, tempDir: string, now: string): Promise<BoardArtifact | { warning: string }> {
  try {
    return await writeBoardArtifact(store, tempDir, now)
  } catch (error) {
    return { warning: `Converge: the board could not be made (${(error as Error).message}); the command's own outcome stands` }
  }
}

export async function writeBoardArtifact(store: StateStore, tempDir: string, now: string): Promise<BoardArtifact> {
  const board = await makeBoard(store, now)
  const path = join(tempDir, 'converge-board')
  await writeBoard(path, board)
  const head = board.data.head ? ` at \`${board.data.head.slice(0, 12)}\`` : ''
  const bytes = Buffer.byteLength(board.html)
  return {
    path,
    summary: `**Board**: the board of \`${store.branch}\`${head} (${plural(board.data.issues.length, 'issue')}, ${Math.ceil(bytes / 1024)} KB) is in \`${path}\` (output \`board-path\`): publish it with \`actions/upload-pages-artifact\` and \`actions/deploy-pages\`.`,
  }
}
