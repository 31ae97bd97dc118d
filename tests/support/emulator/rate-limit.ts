export type RateLimitResource = 'core' | 'graphql'

const LIMIT = 5000
const WINDOW_SECONDS = 3600

/**
 * Counts what requests cost against the primary rate limit, per resource, as GitHub does:
 * every authenticated request costs one, except `304 Not Modified` answers and `GET /rate_limit`.
 */
export class RateLimitMeter {
  readonly limit = LIMIT
  private readonly usedBy: Record<RateLimitResource, number> = { core: 0, graphql: 0 }
  private readonly resetAt = Math.floor(Date.now() / 1000) + WINDOW_SECONDS

  /** REST requests that cost rate limit. */
  get used(): number {
    return this.usedBy.core
  }

  /** GraphQL requests that cost rate limit (one point each). */
  get graphqlUsed(): number {
    return this.usedBy.graphql
  }

  charge(resource: RateLimitResource): void {
    this.usedBy[resource] += 1
  }

  headers(resource: RateLimitResource): Record<string, string> {
    const used = this.usedBy[resource]
    return {
      'x-ratelimit-limit': String(this.limit),
      'x-ratelimit-remaining': String(Math.max(0, this.limit - used)),
      'x-ratelimit-used': String(used),
      'x-ratelimit-reset': String(this.resetAt),
      'x-ratelimit-resource': resource,
    }
  }

  /** The body of `GET /rate_limit`. */
  overview() {
    const resource = (name: RateLimitResource) => ({
      limit: this.limit,
      used: this.usedBy[name],
      remaining: Math.max(0, this.limit - this.usedBy[name]),
      reset: this.resetAt,
    })
    const search = { limit: 30, used: 0, remaining: 30, reset: this.resetAt }
    return { resources: { core: resource('core'), graphql: resource('graphql'), search }, rate: resource('core') }
  }
}
