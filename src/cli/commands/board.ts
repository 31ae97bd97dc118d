/** `converge board`: the board of the local state branch, written to a folder or served on 127.0.0.1. */
import { resolve } from 'node:path'
import { layoutsOf, makeBoard, writeBoard } from '../../board/make.js'
import { plural } from '../../board/format.js'
import { serveBoard } from '../../board/serve.js'
import { printDocument, type Output } from '../output.js'
import { UsageError } from '../usage-error.js'
import { storeOf } from './issue.js'

export async function boardCommand(
  args: {
    repo: string; stateBranch: string; out?: string; serve: boolean; port: number
    /** Two threads (true) or one (false); by the state's size when not given (board/make.ts). */
    twoThreads?: boolean
    signal?: AbortSignal
  }, output: Output,
): Promise<number> {
  const { io } = output
  if (args.out === undefined && !args.serve) throw new UsageError('board needs --out <dir> (write the page there) or --serve (serve it on 127.0.0.1)')
  const store = await storeOf(args)
  if (!args.serve) {
    // The layouts of the board made into this folder before are used again: only new plan shapes are laid out.
    const board = await makeBoard(store, new Date().toISOString(), await layoutsOf(resolve(args.out!)), args.twoThreads)
    const files = await writeBoard(resolve(args.out!), board)
    if (output.json) printDocument(io, { ...files, head: board.data.head, issues: board.data.issues.length, bytes: Buffer.byteLength(board.html) })
    else io.out(`Wrote the board of ${store.branch} (${plural(board.data.issues.length, 'issue')}): ${files.page}\nIts data: ${files.data}`)
    return 0
  }
  const server = await serveBoard({
    store, port: args.port,
    onBuilt: (board) => io.err(`Board of ${store.branch} at ${board.data.head?.slice(0, 12) ?? '(no branch yet)'}: ${plural(board.data.issues.length, 'issue')}`),
    onError: (error) => io.err(`converge: could not make the board again: ${error.message}`),
  })
  if (output.json) printDocument(io, { url: server.url })
  else io.out(`Serving the board on ${server.url} (made again when ${store.branch} moves; Ctrl-C stops)`)
  if (args.signal) await new Promise((done) => (args.signal!.aborted ? done(undefined) : args.signal!.addEventListener('abort', done, { once: true })))
  else await new Promise(() => undefined)
  await server.close()
  return 0
}
