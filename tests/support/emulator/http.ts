import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/** What a REST handler answers; the server adds the common headers, the ETag and the rate-limit headers. */
export interface Reply {
  status: number
  /** serialised as JSON unless `raw` is given */
  body?: unknown
  headers?: Record<string, string>
  raw?: { contentType: string; data: string | Buffer }
}

export interface ValidationError {
  resource: string
  code: 'missing' | 'missing_field' | 'invalid' | 'already_exists' | 'unprocessable' | 'custom'
  field?: string
  message?: string
}

/** A GitHub error answer: `{ message, errors?, documentation_url, status }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: ValidationError[],
  ) {
    super(message)
  }
}

export const notFound = (message = 'Not Found') => new HttpError(404, message)

export const unprocessable = (message: string) => new HttpError(422, message)

export const validationFailed = (...errors: ValidationError[]) => new HttpError(422, 'Validation Failed', errors)

export function errorBody(status: number, message: string, documentationUrl: string, errors?: ValidationError[]) {
  return { message, ...(errors ? { errors } : {}), documentation_url: documentationUrl, status: String(status) }
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return { status, body, ...(headers ? { headers } : {}) }
}

export const noContent = (): Reply => ({ status: 204 })

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** A strong ETag over the response bytes, in GitHub's format (`"<64 hex>"`). */
export function etagOf(data: string | Buffer): string {
  return `"${createHash('sha256').update(data).digest('hex')}"`
}

/** Whether an If-None-Match header names `etag` (weak or strong, or `*`). */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag)
}
