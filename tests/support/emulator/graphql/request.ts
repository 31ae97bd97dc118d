import {
  GraphQLError,
  Kind,
  getOperationAST,
  parse,
  validate,
  valueFromASTUntyped,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql'
import type { GraphqlSummary } from '../journal.js'

export type PreparedGraphql =
  | {
      valid: true
      document: DocumentNode
      operationName: string | undefined
      variables: Record<string, unknown>
      summary: GraphqlSummary
      /** branches named by createCommitOnBranch mutations of the operation */
      branchWrites: string[]
    }
  | { valid: false; errors: GraphQLError[]; summary?: GraphqlSummary }

/** Parses a `POST /graphql` body and validates the document against GitHub's schema. */
export function prepareGraphql(schema: GraphQLSchema, body: unknown): PreparedGraphql {
  const request = (body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown }
  if (typeof request.query !== 'string') {
    return { valid: false, errors: [new GraphQLError('A query attribute must be specified and must be a string.')] }
  }
  let document: DocumentNode
  try {
    document = parse(request.query)
  } catch (error) {
    return { valid: false, errors: [error as GraphQLError] }
  }
  const operationName = typeof request.operationName === 'string' ? request.operationName : undefined
  const operation = getOperationAST(document, operationName) ?? null
  const summary = operation === null ? undefined : summarize(operation)
  const errors = validate(schema, document)
  if (errors.length > 0) return { valid: false, errors: [...errors], ...(summary ? { summary } : {}) }
  if (operation === null || summary === undefined) {
    return { valid: false, errors: [new GraphQLError('An operation name is required when the document has several operations.')] }
  }
  const variables = (request.variables ?? {}) as Record<string, unknown>
  return { valid: true, document, operationName, variables, summary, branchWrites: branchWrites(operation, variables) }
}

function summarize(operation: OperationDefinitionNode): GraphqlSummary {
  const fields = operation.selectionSet.selections.flatMap((selection) =>
    selection.kind === Kind.FIELD ? [selection.name.value] : [],
  )
  return { operation: operation.operation, ...(operation.name ? { operationName: operation.name.value } : {}), fields }
}

function branchWrites(operation: OperationDefinitionNode, variables: Record<string, unknown>): string[] {
  if (operation.operation !== 'mutation') return []
  return operation.selectionSet.selections.flatMap((selection) => {
    if (selection.kind !== Kind.FIELD || selection.name.value !== 'createCommitOnBranch') return []
    const input = selection.arguments?.find((argument) => argument.name.value === 'input')
    if (input === undefined) return []
    const value = valueFromASTUntyped(input.value, variables) as { branch?: { branchName?: unknown } } | null
    const branch = value?.branch?.branchName
    return typeof branch === 'string' ? [branch.replace(/^refs\/heads\//, '')] : []
  })
}
