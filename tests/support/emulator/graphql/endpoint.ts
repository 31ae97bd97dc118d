import { execute, GraphQLError, type GraphQLSchema } from 'graphql'
import type { PreparedGraphql } from './request.js'
import { emulatorFieldResolver, GithubGraphqlError, rootValue, type GraphqlContext } from './resolvers.js'

/** Errors in GitHub's format: `{ type?, path?, locations?, message }`. */
export function githubErrors(errors: readonly GraphQLError[]) {
  return errors.map((error) => {
    const original = error.originalError ?? error
    return {
      ...(original instanceof GithubGraphqlError ? { type: original.type } : {}),
      ...(error.path ? { path: error.path } : {}),
      ...(error.locations ? { locations: error.locations } : {}),
      message: error.message,
    }
  })
}

export interface GraphqlExecution {
  body: {
    /** absent when the request itself was rejected (e.g. a variable of the wrong type) */
    data?: unknown
    errors?: ReturnType<typeof githubErrors>
  }
  /** resolvers that threw something other than a GitHub error: emulator bugs */
  emulatorErrors: string[]
}

/** Runs a validated GraphQL operation against the emulator's resolvers (GitHub answers 200 even when fields fail). */
export async function executeGraphql(
  schema: GraphQLSchema,
  request: Extract<PreparedGraphql, { valid: true }>,
  context: GraphqlContext,
): Promise<GraphqlExecution> {
  const result = await execute({
    schema,
    document: request.document,
    rootValue: rootValue(context),
    contextValue: context,
    variableValues: request.variables,
    operationName: request.operationName,
    fieldResolver: emulatorFieldResolver,
  })
  const errors = result.errors ?? []
  return {
    body: {
      ...(result.data !== undefined ? { data: result.data } : {}),
      ...(errors.length > 0 ? { errors: githubErrors(errors) } : {}),
    },
    emulatorErrors: errors.flatMap((error) =>
      error.originalError !== undefined && !(error.originalError instanceof GraphQLError)
        ? [error.originalError.stack ?? error.originalError.message]
        : [],
    ),
  }
}
