import type { Emulator } from '../support/emulator/index.js'

export interface ApiResponse<T = any> {
  status: number
  headers: Headers
  body: T
}

/** A plain-fetch call of the emulator (default token unless `token` is given; null sends none). */
export async function api<T = any>(
  gh: Emulator,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/vnd.github+json', ...options.headers }
  if (options.token !== null) headers.authorization = `token ${options.token ?? gh.token}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(path.startsWith('http') ? path : `${gh.url}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: body as T }
}

/** A GraphQL call of the emulator. */
export async function graphql<T = any>(gh: Emulator, query: string, variables: Record<string, unknown> = {}) {
  return api<{ data?: T; errors?: Array<{ type?: string; message: string; path?: string[] }> }>(gh, 'POST', '/graphql', {
    body: { query, variables },
  })
}
