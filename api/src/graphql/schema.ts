import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type NonEmptyArray } from 'type-graphql';
import type { AppPubSub } from '../event-bus.js';
import { withDocumentedTypes } from './error-code.js';
import { guardSchemaScopes } from './scopes.js';

/** A class the GraphQL schema is built from: TypeGraphQL takes resolvers as constructors. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type ResolverClass = Function;

const rootDescriptions = {
  Query: 'Reads. Lists come as offset pages (offset, limit) and, for sync, as cursor connections (first, after).',
  Mutation: 'Changes. Each answers FORBIDDEN to an API key without the scope it needs.',
  Subscription: 'Live events over graphql-ws at the same /graphql path.',
};

/**
 * Builds the schema of these resolvers, its error codes and root types documented, with API keys'
 * scopes checked in front of its fields. Validation is done by the services (zod), shared with REST.
 */
export async function buildGraphqlSchema(
  resolvers: NonEmptyArray<ResolverClass>,
  pubSub: AppPubSub,
): Promise<GraphQLSchema> {
  const schema = withDocumentedTypes(await buildSchema({ resolvers, pubSub, validate: false, emitSchemaFile: false }));
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (root) root.description = rootDescriptions[root.name as keyof typeof rootDescriptions];
  }
  return guardSchemaScopes(schema);
}

export function printSchemaSdl(schema: GraphQLSchema): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
