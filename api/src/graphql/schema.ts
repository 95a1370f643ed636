import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import type { AppPubSub } from '../event-bus.js';
import { resolvers } from './resolvers.js';

/** Builds the executable schema. Validation is done by the services (zod), shared with REST. */
export function createSchema(pubSub: AppPubSub): Promise<GraphQLSchema> {
  return buildSchema({ resolvers, pubSub, validate: false, emitSchemaFile: false });
}

export function printSchemaSdl(schema: GraphQLSchema): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
