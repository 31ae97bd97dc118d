/**
 * Stands in for `undici` in the bundles (`tsconfig.json` `paths`, which ncc resolves through). `@actions/core` and
 * `@actions/github` import undici as they load, for one class and one function that only matter when the runner
 * sets a proxy: loading its 0.9 MB took about 45 ms of every start (docs/benchmarks.md). Here the real package is
 * loaded the first time a request goes through a proxy; without one, requests go through Node's own fetch.
 * Tests that import `src/` get the real undici (vitest does not read `paths`); `tests/e2e/proxy.test.ts` runs the
 * bundle through a proxy.
 */

/** What of undici this file uses, typed here: `import('undici')` itself would resolve to this file. */
interface Undici {
  ProxyAgent: new (options: ProxyAgentOptions) => object
  fetch: (input: Parameters<typeof globalThis.fetch>[0], init: Record<string, unknown>) => Promise<Response>
}

type ProxyAgentOptions = { uri: string } & Record<string, unknown>

let loaded: Promise<Undici> | undefined
// A path of the package, not its name: the name is this file in the bundles.
const undici = () => (loaded ??= import('undici/index.js') as Promise<Undici>)

/** `@actions/http-client` makes one when a proxy applies to the URL; the real agent is made when a request uses it. */
export class ProxyAgent {
  private agent: Promise<object> | undefined
  private readonly made: ProxyAgentOptions

  /**
   * `options` stays a public field, as on undici's agent: `@actions/http-client` writes TLS settings over it when told
   * to ignore certificate errors, which undici's agent never reads back. The agent is made from the options as given.
   */
  constructor(public options: ProxyAgentOptions) {
    this.made = options
  }

  dispatcher(): Promise<object> {
    return (this.agent ??= undici().then(({ ProxyAgent: Agent }) => new Agent(this.made)))
  }
}

/** `@actions/github`'s fetch: through undici and the proxy when it was given one, else Node's own fetch. */
export async function fetch(input: Parameters<typeof globalThis.fetch>[0], init: RequestInit & { dispatcher?: unknown } = {}): Promise<Response> {
  const { dispatcher, ...rest } = init
  if (!(dispatcher instanceof ProxyAgent)) return globalThis.fetch(input, rest)
  return (await undici()).fetch(input, { ...rest, dispatcher: await dispatcher.dispatcher() })
}
