import type { FaultKind } from './faults.js'

/** What a GraphQL request asked for: its operation type, name and root fields. */
export interface GraphqlSummary {
  operation: 'query' | 'mutation' | 'subscription'
  operationName?: string
  fields: string[]
}

export interface RequestRecord {
  method: string
  /** the path as requested, without the query string */
  path: string
  query: Record<string, string>
  /** 0 when the connection was reset without an answer */
  status: number
  /** answered `304 Not Modified` to a conditional request */
  notModified: boolean
  /** the OpenAPI operation the request matched (REST), or `git/info-refs`, `git/upload-pack`, `git/receive-pack` (git over HTTP) */
  operationId?: string
  graphql?: GraphqlSummary
  /** login of the authenticated actor */
  actor?: string
  fault?: FaultKind
  body?: unknown
}

export type ViolationKind =
  /** no path of GitHub's REST description matches */
  | 'unknown-route'
  /** the path exists, the method does not */
  | 'unknown-method'
  /** the JSON body does not conform to the operation's requestBody schema, or is not JSON */
  | 'invalid-body'
  /** a GraphQL document that GitHub's schema rejects */
  | 'invalid-graphql'
  /** a real GitHub operation or GraphQL field that the emulator does not serve */
  | 'not-emulated'
  /** the emulator answered with a body that breaks the operation's response schema (an emulator bug) */
  | 'invalid-response'
  /** a handler of the emulator threw (an emulator bug) */
  | 'emulator-error'
  /** more than one Authorization header (GitHub answers 400), e.g. an extraheader added on top of actions/checkout's */
  | 'duplicate-authorization'

export interface Violation {
  kind: ViolationKind
  method: string
  path: string
  operationId?: string
  problems: string[]
}

/** One ref a push changed: `before` null for a created ref, `after` null for a deleted one. */
export interface PushedRef {
  ref: string
  before: string | null
  after: string | null
}

/** A `git push` over HTTP that changed at least one ref. */
export interface GitPush {
  /** login of the authenticated actor */
  actor: string
  refs: PushedRef[]
}

/** The log of requests, pushes and contract violations of one emulator. */
export class Journal {
  readonly requests: RequestRecord[] = []
  readonly violations: Violation[] = []
  readonly pushes: GitPush[] = []

  expectNoViolations(): void {
    if (this.violations.length === 0) return
    const lines = this.violations.map((v) => {
      const operation = v.operationId ? ` (${v.operationId})` : ''
      return `- ${v.kind}: ${v.method} ${v.path}${operation}\n${v.problems.map((p) => `    ${p}`).join('\n')}`
    })
    throw new Error(`The GitHub emulator saw ${this.violations.length} contract violation(s):\n${lines.join('\n')}`)
  }
}
