import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/** The parts of GitHub's OpenAPI description the emulator reads. */
export interface OpenApiOperation {
  operationId: string
  externalDocs?: { url?: string }
  requestBody?: {
    required?: boolean
    content?: Record<string, { schema?: unknown }>
  }
  responses?: Record<string, unknown>
}

export interface OpenApiDescription {
  paths: Record<string, Record<string, OpenApiOperation | unknown>>
  components: { schemas: Record<string, unknown> }
}

let description: OpenApiDescription | undefined
let reads = 0

/** How many times this process has read and parsed the description file (its own test: once). */
export function descriptionReads(): number {
  return reads
}

/** GitHub's official REST description (api.github.com, not dereferenced), parsed once per process. */
export function openApiDescription(): OpenApiDescription {
  if (description === undefined) {
    const require = createRequire(import.meta.url)
    const file = require.resolve('@octokit/openapi/generated/api.github.com.json')
    description = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDescription
    reads++
  }
  return description
}
