import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql'

let schema: Promise<GraphQLSchema> | undefined

/** GitHub's public GraphQL schema (from @octokit/graphql-schema), built once per process on first use. */
export function githubGraphqlSchema(): Promise<GraphQLSchema> {
  schema ??= import('@octokit/graphql-schema').then((module) =>
    buildClientSchema(module.schema.json as unknown as IntrospectionQuery),
  )
  return schema
}
