import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { guardSchemaScopes } from '../features/api-keys/scope-guard.js';
import type { AppPubSub } from '../event-bus.js';
import { resolvers } from './resolvers.js';

/**
 * Builds the executable schema, with API keys' scopes checked in front of its fields. Validation
 * is done by the services (zod), shared with REST.
 */
export async function createSchema(pubSub: AppPubSub): Promise<GraphQLSchema> {
  return guardSchemaScopes(await buildSchema({ resolvers, pubSub, validate: false, emitSchemaFile: false }));
}

export function printSchemaSdl(schema: GraphQLSchema): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
