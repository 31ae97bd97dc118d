/**
 * Git's smart HTTP protocol on the emulator's address, as github.com serves it (`https://github.com/{owner}/{repo}.git`):
 * `GET /{owner}/{repo}.git/info/refs?service=git-upload-pack|git-receive-pack`, `POST …/git-upload-pack` and
 * `POST …/git-receive-pack` (the `.git` suffix is optional, as on GitHub). The real `git http-backend` answers, as a
 * CGI program, on the emulator's bare repository.
 *
 * Authentication is GitHub's: HTTP Basic whose password is a token (any username, typically `x-access-token`).
 * Public repositories can be fetched anonymously; pushing needs credentials (401 and `WWW-Authenticate: Basic
 * realm="GitHub"` without) and the write permission (403). More than one Authorization header is answered 400 and
 * recorded as a `duplicate-authorization` violation. Pushes to `refs/pull/*` are refused (hidden refs), as on GitHub.
 */
import { spawn } from 'node:child_process'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { basename, dirname } from 'node:path'
import { basicAuthToken, type Tokens } from '../auth.js'
import type { Journal, PushedRef, RequestRecord, ViolationKind } from '../journal.js'
import type { RepoStore } from '../store/repo-store.js'
import type { GitStore } from './git-store.js'
import { syncPullRefs } from './pull-refs.js'

export interface GitHttpParts {
  store: RepoStore
  git: GitStore
  journal: Journal
  tokens: Tokens
}

type GitService = 'git-upload-pack' | 'git-receive-pack'

export interface GitHttpRoute {
  owner: string
  repo: string
  /** what follows `/{owner}/{repo}.git/` */
  endpoint: 'info/refs' | GitService
}

const ROUTE = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/

/** The git endpoint a path names, or undefined for any other path (the REST and GraphQL API). */
export function gitHttpRoute(pathname: string): GitHttpRoute | undefined {
  const match = ROUTE.exec(pathname)
  if (match === null) return undefined
  return { owner: decodeURIComponent(match[1]!), repo: decodeURIComponent(match[2]!), endpoint: match[3] as GitHttpRoute['endpoint'] }
}

/** Configuration of the backend: pushes over HTTP, GitHub's hidden `refs/pull/*` (fetchable, not pushable), fetch by sha. */
const BACKEND_CONFIG: ReadonlyArray<[string, string]> = [
  ['http.receivepack', 'true'],
  ['http.uploadpack', 'true'],
  ['receive.hideRefs', 'refs/pull/'],
  ['uploadpack.allowAnySHA1InWant', 'true'],
]

interface Answer {
  status: number
  text: string
  headers?: Record<string, string>
}

/** Serves one request of git's smart HTTP protocol and records it (operationId `git/info-refs`, `git/upload-pack`, `git/receive-pack`). */
export async function serveGitHttp(
  parts: GitHttpParts,
  route: GitHttpRoute,
  request: IncomingMessage,
  response: ServerResponse,
  record: RequestRecord,
  requestId: string,
): Promise<void> {
  record.operationId = route.endpoint === 'info/refs' ? 'git/info-refs' : `git/${route.endpoint.slice('git-'.length)}`
  const admitted = admit(parts, route, request, record)
  if ('status' in admitted) {
    request.resume()
    record.status = admitted.status
    response.writeHead(admitted.status, {
      'content-type': 'text/plain; charset=utf-8',
      'x-github-request-id': requestId,
      ...admitted.headers,
    })
    response.end(admitted.text)
    return
  }
  const { actor } = admitted
  const env = cgiEnvironment(parts.git, route, request, actor)
  if (route.endpoint !== 'git-receive-pack') {
    await runHttpBackend(parts, env, request, response, record, requestId)
    return
  }
  // Pushes run one at a time, so the refs they changed are the difference between before and after (refs/pull/* are
  // not pushable: they change only with the pull requests' heads).
  // The answer ends only once the push is recorded, so a client that has pushed finds it in `gh.pushes`.
  await parts.git.withRefLock('emulator:receive-pack', async () => {
    const before = await refMap(parts.git)
    await runHttpBackend(parts, env, request, response, record, requestId, async () => {
      const after = await refMap(parts.git)
      const refs: PushedRef[] = []
      for (const ref of new Set([...before.keys(), ...after.keys()])) {
        const old = before.get(ref) ?? null
        const current = after.get(ref) ?? null
        if (old !== current) refs.push({ ref, before: old, after: current })
      }
      if (refs.length > 0) {
        parts.journal.pushes.push({ actor: actor!, refs: refs.sort((a, b) => a.ref.localeCompare(b.ref)) })
        await syncPullRefs(parts.store, parts.git)
      }
    })
  })
}

/** Checks the request like GitHub: one Authorization header, this repository, a smart-protocol service, credentials, permission. */
function admit(
  parts: GitHttpParts,
  route: GitHttpRoute,
  request: IncomingMessage,
  record: RequestRecord,
): Answer | { actor: string | undefined } {
  const violation = (kind: ViolationKind, problem: string) =>
    parts.journal.violations.push({ kind, method: record.method, path: record.path, operationId: record.operationId!, problems: [problem] })
  const authorizations = request.rawHeaders.filter((_, index) => index % 2 === 0).filter((name) => name.toLowerCase() === 'authorization')
  if (authorizations.length > 1) {
    violation(
      'duplicate-authorization',
      `${authorizations.length} Authorization headers (GitHub answers 400 "Duplicate header"; e.g. an http.extraheader added on top of actions/checkout's)`,
    )
    return { status: 400, text: 'Duplicate header: "Authorization"\n' }
  }
  const { owner, name, private: isPrivate } = parts.store.repository
  const notFound: Answer = { status: 404, text: 'Repository not found.\n' }
  if (route.owner.toLowerCase() !== owner.toLowerCase() || route.repo.toLowerCase() !== name.toLowerCase()) return notFound

  let service: GitService
  if (route.endpoint === 'info/refs') {
    const requested = new URL(request.url ?? '/', 'http://emulator.invalid').searchParams.get('service')
    if (record.method !== 'GET' && record.method !== 'HEAD') {
      violation('unknown-method', `GitHub serves ${route.endpoint} on GET only`)
      return { status: 405, text: 'Method Not Allowed\n' }
    }
    if (requested !== 'git-upload-pack' && requested !== 'git-receive-pack') {
      violation('unknown-route', 'GitHub serves git over the smart HTTP protocol only (info/refs needs ?service=git-upload-pack or git-receive-pack)')
      return { status: 403, text: 'Please upgrade your git client.\nGitHub.com no longer supports git over dumb-http.\n' }
    }
    service = requested
  } else {
    if (record.method !== 'POST') {
      violation('unknown-method', `GitHub serves ${route.endpoint} on POST only`)
      return { status: 405, text: 'Method Not Allowed\n' }
    }
    service = route.endpoint
  }

  const unauthorized: Answer = {
    status: 401,
    text: 'Invalid username or token. Password authentication is not supported for Git operations.\n',
    headers: { 'www-authenticate': 'Basic realm="GitHub"' },
  }
  const token = basicAuthToken(request.headers.authorization)
  if (token === null) return unauthorized
  if (token === undefined) {
    // Anyone may fetch a public repository; pushing and private repositories need credentials.
    return service === 'git-upload-pack' && !isPrivate ? { actor: undefined } : unauthorized
  }
  const actor = parts.store.ensureUser(parts.tokens.actorForToken(token)).login
  record.actor = actor
  if (isPrivate && !parts.store.hasPermission(actor, 'read')) return notFound
  if (service === 'git-receive-pack' && !parts.store.hasPermission(actor, 'write')) {
    return { status: 403, text: `Permission to ${owner}/${name}.git denied to ${actor}.\n` }
  }
  return { actor }
}

/** The CGI environment of `git http-backend` (nothing of the test process's git configuration leaks in). */
function cgiEnvironment(git: GitStore, route: GitHttpRoute, request: IncomingMessage, actor: string | undefined): NodeJS.ProcessEnv {
  const url = new URL(request.url ?? '/', 'http://emulator.invalid')
  const header = (name: string) => {
    const value = request.headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  }
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PROJECT_ROOT: dirname(git.dir),
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: `/${basename(git.dir)}/${route.endpoint}`,
    REQUEST_METHOD: request.method ?? 'GET',
    QUERY_STRING: url.search.replace(/^\?/, ''),
    REMOTE_ADDR: request.socket.remoteAddress ?? '127.0.0.1',
    GIT_CONFIG_COUNT: String(BACKEND_CONFIG.length),
  }
  BACKEND_CONFIG.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key
    env[`GIT_CONFIG_VALUE_${index}`] = value
  })
  if (process.env.TMPDIR !== undefined) env.TMPDIR = process.env.TMPDIR
  if (actor !== undefined) env.REMOTE_USER = actor
  const optional: Array<[string, string | undefined]> = [
    ['CONTENT_TYPE', header('content-type')],
    ['CONTENT_LENGTH', header('content-length')],
    ['HTTP_CONTENT_ENCODING', header('content-encoding')],
    ['HTTP_GIT_PROTOCOL', header('git-protocol')],
  ]
  for (const [name, value] of optional) if (value !== undefined) env[name] = value
  return env
}

/**
 * Runs `git http-backend`: the request body streams to its input, its CGI answer (headers, then body) to the client.
 * `beforeEnd` runs when the backend has exited, before the answer ends.
 */
function runHttpBackend(
  parts: GitHttpParts,
  env: NodeJS.ProcessEnv,
  request: IncomingMessage,
  response: ServerResponse,
  record: RequestRecord,
  requestId: string,
  beforeEnd: () => Promise<void> = async () => {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    // A client that went away while its push waited for the push lock (a killed runner): its connection closed
    // before anyone listened, and a backend started now would wait for a request body that never ends, holding
    // the lock for every later push. Nothing to answer.
    if (request.socket.destroyed || response.destroyed) {
      record.status = 499
      resolve()
      return
    }
    // A process group of its own: a client that goes away mid-push leaves `git receive-pack` (the backend's child)
    // waiting for the rest of the request, holding the push lock; the whole group is ended then.
    const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true })
    let pending = Buffer.alloc(0)
    let headersSent = false
    const stderr: Buffer[] = []
    const forward = (chunk: Buffer) => {
      if (!response.write(chunk)) {
        child.stdout.pause()
        response.once('drain', () => child.stdout.resume())
      }
    }
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) return forward(chunk)
      pending = Buffer.concat([pending, chunk])
      const split = headerEnd(pending)
      if (split === undefined) return
      const { status, headers } = parseCgiHeaders(pending.subarray(0, split.index).toString('latin1'))
      headersSent = true
      record.status = status
      response.writeHead(status, { ...headers, 'x-github-request-id': requestId })
      const rest = pending.subarray(split.index + split.length)
      pending = Buffer.alloc(0)
      if (rest.length > 0) forward(rest)
    })
    let failure: string | undefined
    child.on('error', (error) => {
      failure = String(error)
    })
    child.on('close', (code) => {
      if (!headersSent) {
        const problem = failure ?? `git http-backend exited with ${code} without an answer: ${Buffer.concat(stderr).toString('utf8').trim()}`
        parts.journal.violations.push({ kind: 'emulator-error', method: record.method, path: record.path, operationId: record.operationId!, problems: [problem] })
        record.status = 500
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'x-github-request-id': requestId })
      }
      beforeEnd().then(
        () => {
          response.end()
          resolve()
        },
        reject,
      )
    })
    response.on('close', () => {
      if (response.writableFinished || child.exitCode !== null || child.pid === undefined) return
      child.stdin.destroy()
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    })
    child.stdin.on('error', () => {
      // the backend may exit before reading the whole request; its answer tells why
    })
    request.pipe(child.stdin)
  })
}

function headerEnd(data: Buffer): { index: number; length: number } | undefined {
  const crlf = data.indexOf('\r\n\r\n')
  const lf = data.indexOf('\n\n')
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return { index: crlf, length: 4 }
  return lf === -1 ? undefined : { index: lf, length: 2 }
}

function parseCgiHeaders(text: string): { status: number; headers: Record<string, string> } {
  let status = 200
  const headers: Record<string, string> = {}
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon === -1) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    if (name === 'status') status = Number.parseInt(value, 10) || 200
    else headers[name] = value
  }
  return { status, headers }
}

async function refMap(git: GitStore): Promise<Map<string, string>> {
  const refs = (await git.listRefs('refs/')).filter((entry) => !entry.ref.startsWith('refs/pull/'))
  return new Map(refs.map((entry) => [entry.ref, entry.sha]))
}
