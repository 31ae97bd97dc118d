/**
 * The failure the emulator's faults cannot make: GitHub handles a request (a commit lands) but its answer never
 * reaches the runner (connection reset, proxy timeout). This is a fetch for the client (its `fetch` option): a
 * matching request is sent and answered, then the answer is thrown away and the caller sees the network error
 * undici reports for a dropped connection.
 */
export interface LostAnswers {
  /** Requests whose answer was lost, as `METHOD path`. */
  readonly lost: string[]
  fetch: typeof globalThis.fetch
}

export function loseAnswers(match: (request: { method: string; path: string; body: string }) => boolean, times = 1): LostAnswers {
  const realFetch = globalThis.fetch
  const lost: string[] = []
  let remaining = times
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await realFetch(input, init)
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url)
    const request = { method: init?.method ?? 'GET', path: url.pathname, body: typeof init?.body === 'string' ? init.body : '' }
    if (remaining > 0 && match(request)) {
      remaining -= 1
      await response.arrayBuffer()
      lost.push(`${request.method} ${request.path}`)
      const cause = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })
      throw new TypeError('fetch failed', { cause })
    }
    return response
  }
  return { lost, fetch }
}
