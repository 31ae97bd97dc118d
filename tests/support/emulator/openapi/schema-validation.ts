import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { openApiDescription } from './description.js'
import type { OperationRoute } from './route-table.js'

type Schema = Record<string, unknown>

/** The description's component schemas, registered in ajv once under this id so each is compiled at most once. */
const COMPONENTS_ID = 'https://emulator.invalid/openapi.json'

const ajv = new Ajv({ strict: false, allErrors: true, logger: false, validateSchema: false, inlineRefs: false })
addFormats.default(ajv, { mode: 'fast' })
let componentsRegistered = false

/** Compiled validators by `operationId` (request bodies) and `operationId status` (responses); null: nothing to check. */
const validators = new Map<string, ValidateFunction | null>()

/** Problems of a JSON request body against the operation's requestBody schema; empty when it conforms. */
export function requestBodyProblems(route: OperationRoute, body: unknown): string[] {
  const validate = compiled(route.operationId, () => route.operation.requestBody?.content?.['application/json']?.schema)
  return problems(validate, body)
}

/** Problems of a JSON response body against the schema the operation describes for `status`; empty when it conforms. */
export function responseBodyProblems(route: OperationRoute, status: number, body: unknown): string[] {
  const validate = compiled(`${route.operationId} ${status}`, () => {
    const response = resolve(route.operation.responses?.[String(status)]) as
      | { content?: Record<string, { schema?: unknown }> }
      | undefined
    return response?.content?.['application/json']?.schema
  })
  return problems(validate, body)
}

function problems(validate: ValidateFunction | null, value: unknown): string[] {
  if (validate === null || validate(value)) return []
  return (validate.errors ?? []).map(describeError)
}

function compiled(key: string, schemaOf: () => unknown): ValidateFunction | null {
  let validate = validators.get(key)
  if (validate === undefined) {
    if (!componentsRegistered) {
      const schemas = openApiDescription().components.schemas
      ajv.addSchema({ $id: COMPONENTS_ID, components: { schemas: mapValues(schemas, toJsonSchema) } })
      componentsRegistered = true
    }
    const schema = schemaOf()
    validate = schema === undefined ? null : ajv.compile(toJsonSchema(schema) as Schema)
    validators.set(key, validate)
  }
  return validate
}

function mapValues(record: Schema, transform: (value: unknown) => unknown): Schema {
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [name, transform(value)]))
}

/** Follows a local `$ref` (`#/components/...`) of the description. */
function resolve(node: unknown): unknown {
  let current = node as Schema | undefined
  while (current !== undefined && typeof current.$ref === 'string') {
    const pointer = current.$ref.replace(/^#\//, '').split('/')
    current = pointer.reduce<unknown>((value, key) => (value as Schema)[key], openApiDescription()) as Schema
  }
  return current
}

/**
 * Turns an OpenAPI 3.0 schema into JSON Schema for ajv: references to component schemas point into the registered
 * components, other local references are inlined, and `nullable: true` becomes a union with null. GitHub's
 * description writes `oneOf` for alternatives that overlap (a basic error also matches a rule-violation error), so a
 * real answer would match several: `oneOf` is checked as `anyOf`.
 */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema)
  if (node === null || typeof node !== 'object') return node
  const schema = node as Schema
  if (typeof schema.$ref === 'string') {
    return schema.$ref.startsWith('#/components/schemas/') ? { $ref: `${COMPONENTS_ID}${schema.$ref}` } : toJsonSchema(resolve(schema))
  }
  const converted: Schema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'example' || key === 'examples') continue
    converted[key === 'oneOf' ? 'anyOf' : key] = key === 'properties' ? mapValues(value as Schema, toJsonSchema) : toJsonSchema(value)
  }
  if (schema.nullable !== true) return converted
  if (typeof converted.type === 'string') {
    converted.type = [converted.type, 'null']
    if (Array.isArray(converted.enum)) converted.enum = [...converted.enum, null]
    return converted
  }
  return { anyOf: [converted, { type: 'null' }] }
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'the body' : `'${error.instancePath}'`
  if (error.keyword === 'required') return `"${String(error.params.missingProperty)}" wasn't supplied (in ${where}).`
  if (error.keyword === 'enum') return `For ${where}, the value is not one of ${JSON.stringify(error.params.allowedValues)}.`
  return `For ${where}, ${error.message ?? error.keyword}.`
}
