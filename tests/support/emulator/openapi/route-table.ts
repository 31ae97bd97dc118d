import { openApiDescription, type OpenApiOperation } from './description.js'

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const

/** Path parameters whose values may contain slashes (`heads/feature/x`, `docs/README.md`, `feature/x`). */
const MULTI_SEGMENT_PARAMS = new Set(['ref', 'path', 'branch'])

/** Regular expression of a parameter: one segment, several, or (for a file path) possibly none: `/contents/` is the root. */
function paramPattern(name: string): string {
  if (name === 'path') return '(.*)'
  return MULTI_SEGMENT_PARAMS.has(name) ? '(.+)' : '([^/]+)'
}

export interface OperationRoute {
  operationId: string
  method: string
  /** the OpenAPI path template, e.g. /repos/{owner}/{repo}/issues/{issue_number} */
  template: string
  docsUrl: string
  operation: OpenApiOperation
}

export type RouteMatch =
  | { kind: 'operation'; route: OperationRoute; params: Record<string, string> }
  | { kind: 'unknown-method'; template: string; allowedMethods: string[] }
  | { kind: 'unknown-route' }

interface PathRoute {
  template: string
  pattern: RegExp
  paramNames: string[]
  operations: Map<string, OperationRoute>
}

export const DEFAULT_DOCS_URL = 'https://docs.github.com/rest'

let table: { paths: PathRoute[]; byOperationId: Map<string, OperationRoute> } | undefined

/** Builds the route table from GitHub's description now (it is built once per process, on first use). */
export function loadRouteTable(): void {
  routeTable()
}

function routeTable() {
  if (table !== undefined) return table
  const paths: Array<PathRoute & { literals: number; multiSegment: number }> = []
  const byOperationId = new Map<string, OperationRoute>()
  for (const [template, item] of Object.entries(openApiDescription().paths)) {
    const operations = new Map<string, OperationRoute>()
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OpenApiOperation | undefined
      if (operation?.operationId === undefined) continue
      const route = {
        operationId: operation.operationId,
        method: method.toUpperCase(),
        template,
        docsUrl: operation.externalDocs?.url ?? DEFAULT_DOCS_URL,
        operation,
      }
      operations.set(route.method, route)
      byOperationId.set(route.operationId, route)
    }
    const paramNames: string[] = []
    const segments = template.split('/').slice(1)
    const source = segments
      .map((segment) => {
        const param = /^\{(\w+)\}$/.exec(segment)?.[1]
        if (param === undefined) return escapeRegExp(segment)
        paramNames.push(param)
        return paramPattern(param)
      })
      .join('/')
    paths.push({
      template,
      pattern: new RegExp(`^/${source}$`),
      paramNames,
      operations,
      literals: segments.length - paramNames.length,
      multiSegment: paramNames.filter((name) => MULTI_SEGMENT_PARAMS.has(name)).length,
    })
  }
  // The most specific template wins: more literal segments first, then fewer slash-spanning parameters.
  paths.sort((a, b) => b.literals - a.literals || a.multiSegment - b.multiSegment)
  table = { paths, byOperationId }
  return table
}

/** Finds the operation of GitHub's REST API that serves `method` on `path` (a raw, still percent-encoded path). */
export function matchRoute(method: string, path: string): RouteMatch {
  let pathOnly: PathRoute | undefined
  for (const candidate of routeTable().paths) {
    const match = candidate.pattern.exec(path)
    if (match === null) continue
    const route = candidate.operations.get(method.toUpperCase())
    if (route === undefined) {
      pathOnly ??= candidate
      continue
    }
    const params = decodeParams(candidate.paramNames, match)
    if (params === undefined) return { kind: 'unknown-route' }
    return { kind: 'operation', route, params }
  }
  if (pathOnly !== undefined) {
    return { kind: 'unknown-method', template: pathOnly.template, allowedMethods: [...pathOnly.operations.keys()] }
  }
  return { kind: 'unknown-route' }
}

export function operationById(operationId: string): OperationRoute | undefined {
  return routeTable().byOperationId.get(operationId)
}

/** Percent-decoded parameter values; undefined when one is malformed (`%E0%A4%A`). */
function decodeParams(names: string[], match: RegExpExecArray): Record<string, string> | undefined {
  try {
    return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]))
  } catch {
    return undefined
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
