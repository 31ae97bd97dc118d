import { getOctokit } from '@actions/github'
import { defaults as actionsDefaults } from '@actions/github/lib/utils'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import Bottleneck from 'bottleneck/light.js'

/** Octokit as `@actions/github` builds it (REST endpoint methods, pagination), with the retry and throttling plugins. */
export type Octokit = ReturnType<typeof getOctokit>

export interface ClientLog {
  debug(message: string): void
  warning(message: string): void
}

export interface GitHubClientOptions {
  token: string
  /** `GITHUB_API_URL`: https://api.github.com, or https://HOST/api/v3 on GitHub Enterprise Server. */
  apiUrl?: string
  /** `GITHUB_GRAPHQL_URL`; derived from apiUrl when absent. */
  graphqlUrl?: string
  log?: ClientLog
  /** Each attempt of a request is abandoned after this long (then retried like a network error). */
  requestTimeoutMs?: number
  /** Retries of a failed request (5xx, 429, network errors) and of rate-limited ones. */
  retries?: number
  /** Unit of the retry delays (Octokit's default is one second). */
  retryBaseMs?: number
  /**
   * Least time between two writes (and GraphQL calls), as GitHub asks of integrations to stay clear of
   * secondary rate limits; one second unless set. When set, it also spaces the requests that notify people
   * (comments, pull requests), which are three seconds apart unless set.
   */
  writeIntervalMs?: number
  /** What sends each request: `@actions/github`'s fetch (through the runner's proxy when one is set) unless given. */
  fetch?: typeof globalThis.fetch
}

/** What a command cost, for the logs and the benchmarks. */
export interface RequestStats {
  /** HTTP requests sent, retries included. */
  requests: number
  /** 304 Not Modified answers to conditional requests: these cost no rate limit. */
  notModified: number
  /** Requests that cost rate limit. */
  readonly rateLimitCost: number
  byRoute: Record<string, number>
}

export interface GitHubClient {
  octokit: Octokit
  /** The REST endpoint methods: `client.rest.issues.get(…)`. */
  rest: Octokit['rest']
  graphql: Octokit['graphql']
  stats: RequestStats
}

const DEFAULT_API_URL = 'https://api.github.com'

/**
 * `@actions/github`'s Octokit (`getOctokit`: the runner's proxy settings, the orchestration id in the user agent)
 * with retries (5xx, 429, network errors, timeouts) and throttling (primary and secondary rate limits, honouring
 * `retry-after`), pointed at `GITHUB_API_URL` / `GITHUB_GRAPHQL_URL` so GitHub Enterprise Server works, and
 * counting every request it sends.
 */
export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const log = options.log ?? { debug: () => {}, warning: () => {} }
  const retries = options.retries ?? 3
  const retryBaseMs = options.retryBaseMs ?? 1000
  const stats: RequestStats = {
    requests: 0,
    notModified: 0,
    get rateLimitCost() { return this.requests - this.notModified },
    byRoute: {},
  }
  const octokit = getOctokit(options.token, {
    baseUrl: (options.apiUrl || DEFAULT_API_URL).replace(/\/+$/, ''),
    userAgent: 'converge-action',
    log: { debug: log.debug, info: log.debug, warn: log.warning, error: log.warning },
    request: { fetch: countingFetch(stats, options.requestTimeoutMs ?? 30_000, options.fetch ?? actionsDefaults.request?.fetch ?? fetch, log) },
    // 429 is left to the throttling plugin, which waits for the rate limit's reset; retried by both, a request
    // still rate limited went out (1 + retries)² times.
    retry: { retries, retryAfterBaseValue: retryBaseMs, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
    throttle: {
      ...(options.writeIntervalMs !== undefined
        ? {
            write: new Bottleneck.Group({ id: 'converge-write', maxConcurrent: 1, minTime: options.writeIntervalMs }),
            notifications: new Bottleneck.Group({ id: 'converge-notifications', maxConcurrent: 1, minTime: options.writeIntervalMs }),
          }
        : {}),
      retryAfterBaseValue: retryBaseMs,
      fallbackSecondaryRateRetryAfter: 60,
      onRateLimit: (retryAfter, request, _octokit, retryCount) => {
        log.warning(`GitHub rate limit reached for ${request.method} ${request.url}; retrying in ${retryAfter} s`)
        return retryCount < retries
      },
      onSecondaryRateLimit: (retryAfter, request, _octokit, retryCount) => {
        log.warning(`GitHub secondary rate limit for ${request.method} ${request.url}; retrying in ${retryAfter} s`)
        return retryCount < retries
      },
    },
  }, retry, throttling)

  // Registered after the plugins' hooks, so outside them: it sees a failure once retries and throttling gave up.
  const timeoutMs = options.requestTimeoutMs ?? 30_000
  octokit.hook.wrap('request', async (request, requestOptions) => {
    try {
      return await request(requestOptions)
    } catch (error) {
      throw describeFailure(error, requestOptions, timeoutMs)
    }
  })

  const graphql = options.graphqlUrl ? octokit.graphql.defaults({ url: options.graphqlUrl }) : octokit.graphql
  return { octokit, rest: octokit.rest, graphql, stats }
}

/**
 * Says in a failed request's message which request failed and why: `GitHub API POST /graphql failed: 500 Server
 * Error`, `… failed: 502 Bad Gateway`, `… failed: connection refused by 127.0.0.1:8080`, `… failed: connection lost
 * (other side closed)`, `… failed: timed out after 30000 ms`. The error stays the same object: its status, response and cause are kept for callers.
 */
function describeFailure(error: unknown, request: { method?: string; url?: string }, timeoutMs: number): unknown {
  const failure = error as Error & { status?: unknown; response?: { data?: unknown }; cause?: unknown; request?: { url?: string } }
  if (!(failure instanceof Error) || typeof failure.status !== 'number' || failure.status === 304) return error
  // The error's request has the URL as sent; the hook's options may still hold the route template.
  const path = decodeURIComponent(new URL(failure.request?.url ?? request.url ?? '/', 'https://api.github.invalid').pathname)
  let reason: string
  if (failure.response === undefined) {
    reason = networkFailure(failure.cause, timeoutMs) ?? `connection lost (${failure.message})`
  } else if (typeof failure.response.data === 'string' && /<html/i.test(failure.response.data)) {
    // GitHub's error pages title themselves "502 Bad Gateway" (or "Unicorn!"): the status is said once.
    const title = /<h1>([^<]*)<\/h1>/i.exec(failure.response.data)?.[1]?.trim() || 'error page'
    reason = title.startsWith(String(failure.status)) ? title : `${failure.status} ${title}`
  } else {
    // A body that is not JSON becomes the message as it is, which may start with the status already.
    reason = failure.message.startsWith(String(failure.status)) ? failure.message : `${failure.status} ${failure.message}`
  }
  const message = `GitHub API ${request.method ?? 'GET'} ${path} failed: ${reason}`
  if (failure.stack) failure.stack = failure.stack.replace(failure.message, message)
  failure.message = message
  return failure
}

/**
 * What a request that got no answer ran into, from the error fetch threw (undici puts the system error in `cause`,
 * sometimes one level down): refused, unresolvable host, TLS, reset, timeout. Undefined when it does not say.
 */
function networkFailure(error: unknown, timeoutMs: number): string | undefined {
  for (let cause = error as { name?: string; code?: string; message?: string; cause?: unknown; address?: string; port?: number; hostname?: string } | undefined; cause; cause = cause.cause as typeof cause) {
    if (cause.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`
    const where = cause.address ? `${cause.address}${cause.port ? `:${cause.port}` : ''}` : cause.hostname
    switch (cause.code) {
      case 'ECONNREFUSED': return `connection refused${where ? ` by ${where}` : ''}`
      case 'ENOTFOUND':
      case 'EAI_AGAIN': return `cannot resolve the host name${where ? ` ${where}` : ''} (${cause.code})`
      case 'ECONNRESET':
      case 'UND_ERR_SOCKET': return `connection lost (${cause.message ?? cause.code})`
      case 'ETIMEDOUT':
      case 'UND_ERR_CONNECT_TIMEOUT': return `could not connect${where ? ` to ${where}` : ''} in time (${cause.code})`
    }
    if (cause.code && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(cause.code)) return `TLS failed: ${cause.message ?? cause.code}`
  }
  return undefined
}

/**
 * The fetch Octokit sends every attempt through (retries included): it counts the attempt and its route,
 * and gives it its own timeout, so a hung connection fails and is retried like a network error. It sends through
 * `@actions/github`'s fetch, which goes through the runner's proxy (`https_proxy`, `no_proxy`) when one is set.
 */
function countingFetch(stats: RequestStats, timeoutMs: number, fetch: typeof globalThis.fetch, log: ClientLog): typeof globalThis.fetch {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url)
    const route = `${init?.method ?? 'GET'} ${url.pathname.replace(/\/\d+(?=\/|$)/g, '/{n}')}`
    stats.requests++
    stats.byRoute[route] = (stats.byRoute[route] ?? 0) + 1
    const timeout = AbortSignal.timeout(timeoutMs)
    let response: Response
    try {
      response = await fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout })
    } catch (error) {
      // Each attempt, as what it is; retries and the final error are the retry plugin's and describeFailure's.
      log.debug(`GitHub API ${route}: no answer: ${networkFailure(error, timeoutMs) ?? (error as Error).message}`)
      throw error
    }
    if (response.status === 304) stats.notModified++
    return response
  }
}

/**
 * The client as the environment of a workflow run configures it: `GITHUB_API_URL` and
 * `GITHUB_GRAPHQL_URL`, and two pacing settings for tests and slow GitHub Enterprise Server instances,
 * `CONVERGE_WRITE_INTERVAL_MS` and `CONVERGE_RETRY_UNIT_MS` (milliseconds; defaults one second each).
 */
export function clientFromEnvironment(token: string, env: NodeJS.ProcessEnv, log?: ClientLog): GitHubClient {
  const milliseconds = (name: string) => {
    const value = env[name]
    if (value === undefined || value === '') return undefined
    if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number of milliseconds, got "${value}"`)
    return Number(value)
  }
  const writeIntervalMs = milliseconds('CONVERGE_WRITE_INTERVAL_MS')
  const retryBaseMs = milliseconds('CONVERGE_RETRY_UNIT_MS')
  return createGitHubClient({
    token,
    ...(env.GITHUB_API_URL ? { apiUrl: env.GITHUB_API_URL } : {}),
    ...(env.GITHUB_GRAPHQL_URL ? { graphqlUrl: env.GITHUB_GRAPHQL_URL } : {}),
    ...(writeIntervalMs !== undefined ? { writeIntervalMs } : {}),
    ...(retryBaseMs !== undefined ? { retryBaseMs } : {}),
    ...(log ? { log } : {}),
  })
}
