import type { Reply } from './http.js'
import type { GraphqlSummary } from './journal.js'

export const FAULT_KINDS = ['500', '502', 'secondary-rate-limit', '429', 'reset', 'slow', 'stale-head', 'not-found'] as const

export type FaultKind = (typeof FAULT_KINDS)[number]

/** What a fault rule's `match` sees of a request. */
export interface FaultRequest {
  method: string
  path: string
  query: Record<string, string>
  operationId?: string
  graphql?: GraphqlSummary
  body: unknown
  /** the branch the request writes (a ref update or createCommitOnBranch); `stale-head` applies only then */
  branchWrite?: string
}

export interface FaultRule {
  kind: FaultKind
  /** how many requests it hits (default 1; Infinity for all) */
  times?: number
  match?: (request: FaultRequest) => boolean
  /** delay of `slow` (default 250 ms) */
  delayMs?: number
}

export interface RandomFaults {
  /** probability that a request is faulted, 0..1 */
  rate: number
  kinds: FaultKind[]
  seed: number
  delayMs?: number
}

export interface InjectedFault {
  kind: FaultKind
  method: string
  path: string
  operationId?: string
}

export interface FaultDecision {
  kind: FaultKind
  delayMs: number
}

const DEFAULT_DELAY_MS = 250

/**
 * Decides which requests fail and how. Rules from `inject` are tried in order, then the random plan.
 * Error faults are answered before the request is handled, so a faulted write never applies.
 */
export class Faults {
  readonly history: InjectedFault[] = []
  private rules: Array<FaultRule & { remaining: number }> = []
  private random: (RandomFaults & { next: () => number }) | undefined

  inject(rule: FaultRule): void {
    this.rules.push({ ...rule, remaining: rule.times ?? 1 })
  }

  randomly(plan: RandomFaults): void {
    this.random = { ...plan, next: mulberry32(plan.seed) }
  }

  clear(): void {
    this.rules = []
    this.random = undefined
  }

  /** How many faults were injected so far. */
  get injected(): number {
    return this.history.length
  }

  /** The fault for this request, if any; counts it as injected. */
  decide(request: FaultRequest): FaultDecision | undefined {
    const applicable = (kind: FaultKind) => kind !== 'stale-head' || request.branchWrite !== undefined
    let decision: FaultDecision | undefined
    const rule = this.rules.find((r) => r.remaining > 0 && applicable(r.kind) && (r.match?.(request) ?? true))
    if (rule !== undefined) {
      rule.remaining -= 1
      decision = { kind: rule.kind, delayMs: rule.delayMs ?? DEFAULT_DELAY_MS }
    } else if (this.random !== undefined && this.random.next() < this.random.rate) {
      const kinds = this.random.kinds.filter(applicable)
      const kind = kinds[Math.floor(this.random.next() * kinds.length)]
      if (kind !== undefined) decision = { kind, delayMs: this.random.delayMs ?? DEFAULT_DELAY_MS }
    }
    if (decision !== undefined) {
      this.history.push({
        kind: decision.kind,
        method: request.method,
        path: request.path,
        ...(request.operationId ? { operationId: request.operationId } : {}),
      })
    }
    return decision
  }
}

/** The faults that answer with an error instead of serving the request. */
export type ErrorFaultKind = Exclude<FaultKind, 'reset' | 'slow' | 'stale-head'>

/** GitHub's answer for a fault that answers with an error. */
export function faultReply(kind: ErrorFaultKind, requestId: string): Reply {
  switch (kind) {
    case '500':
      return { status: 500, body: { message: 'Server Error' } }
    // An endpoint this GitHub does not have (an older GitHub Enterprise Server: sub-issues, dependencies).
    case 'not-found':
      return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/enterprise-server@3.12/rest' } }
    case '502':
      return {
        status: 502,
        raw: { contentType: 'text/html', data: '<html><body><h1>502 Bad Gateway</h1>Server got itself in trouble</body></html>' },
      }
    case 'secondary-rate-limit':
      return {
        status: 403,
        headers: { 'retry-after': '1' },
        body: {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. ' +
            `If you reach out to GitHub Support for help, please include the request ID ${requestId}.`,
          documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
          status: '403',
        },
      }
    case '429':
      return {
        status: 429,
        headers: { 'retry-after': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000)) },
        body: {
          message:
            'API rate limit exceeded for installation. ' +
            `If you reach out to GitHub Support for help, please include the request ID ${requestId}.`,
          documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
          status: '429',
        },
      }
  }
}

/** A small seeded PRNG (mulberry32), so random fault plans replay identically. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
