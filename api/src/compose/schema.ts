import type { GraphQLSchema } from 'graphql';
import type { NonEmptyArray } from 'type-graphql';
import type { AppPubSub } from '../event-bus.js';
import { buildGraphqlSchema, type ResolverClass } from '../graphql/schema.js';
import { features } from './features.js';

/** The app's executable schema, of every feature's resolvers. */
export async function createSchema(pubSub: AppPubSub): Promise<GraphQLSchema> {
  // Not empty: the features' resolvers hold the Query type.
  const resolvers = features.flatMap((feature) => feature.resolvers ?? []) as NonEmptyArray<ResolverClass>;
  return buildGraphqlSchema(resolvers, pubSub);
}
