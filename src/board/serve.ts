/**
 * `converge board --serve`: the board over HTTP on 127.0.0.1, made again whenever the state branch moves (its head
 * is looked at every `pollMs`), so a reload shows the latest state. Serves the page, its issues' pages and its JSON, nothing else, and
 * only to requests naming its own address and port as Host (a DNS-rebinding page names its own: refused, 421).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { StateStore } from '../state/store.js'
import { GraphLayout } from './graph.js'
import { BOARD_FILES, makeBoard, type Board } from './make.js'
import { CONTENT_SECURITY_POLICY } from './page.js'

export interface BoardServer {
  url: string
  /** The head the board being served was made from. */
  head(): string | null
  close(): Promise<void>
}

export async function serveBoard(args: {
  store: StateStore
  port: number
  pollMs?: number
  /** Told each time a board is made (the first one included). */
  onBuilt?: (board: Board) => void
  onError?: (error: Error) => void
}): Promise<BoardServer> {
  const layout = new GraphLayout()
  const build = async () => {
    const made = await makeBoard(args.store, new Date().toISOString(), layout)
    args.onBuilt?.(made)
    return made
  }
  let board = await build()
  let building = false
  const timer = setInterval(async () => {
    if (building) return
    building = true
    try {
      if ((await args.store.snapshot()).head !== board.data.head) board = await build()
    } catch (error) {
      args.onError?.(error as Error)
    } finally {
      building = false
    }
  }, args.pollMs ?? 1000)
  let hosts: ReadonlySet<string> = new Set()
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname
    const headers = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' }
    if (!hosts.has((request.headers.host ?? '').toLowerCase())) {
      // DNS rebinding: a page of another origin whose name now resolves to 127.0.0.1 sends its own name as Host.
      response.writeHead(421, { ...headers, 'content-type': 'text/plain; charset=utf-8' }).end('Misdirected request: the board answers only to its own address\n')
    } else if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...headers, allow: 'GET, HEAD' }).end()
    } else if (path === '/' || path === `/${BOARD_FILES.page}`) {
      response.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CONTENT_SECURITY_POLICY }).end(board.html)
    } else if (/^\/issues\/\d+\.js$/.test(path) && board.issues.has(Number(path.slice(8, -3)))) {
      response.writeHead(200, { ...headers, 'content-type': 'text/javascript; charset=utf-8' }).end(board.issues.get(Number(path.slice(8, -3))))
    } else if (path === `/${BOARD_FILES.data}`) {
      response.writeHead(200, { ...headers, 'content-type': 'application/json; charset=utf-8' }).end(board.json)
    } else {
      response.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the board is at /\n')
    }
  })
  await listen(server, args.port)
  const { port } = server.address() as AddressInfo
  hosts = allowedHosts(port)
  return {
    url: `http://127.0.0.1:${port}/`,
    head: () => board.data.head,
    close: () => {
      clearInterval(timer)
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

/** The Host headers of a request made to this server by its own address: 127.0.0.1 and localhost, with its port. */
export function allowedHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`])
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
}
