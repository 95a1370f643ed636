import { GraphQLEnumType, GraphQLSchema } from 'graphql';
import { errorCodes } from '../errors.js';

/**
 * The error codes as a schema type, so tooling and integrators read them with the rest of the
 * API. No field returns it: errors carry it in `extensions.code`.
 */
export const errorCodeEnum = new GraphQLEnumType({
  name: 'ErrorCode',
  description:
    'The code of every error, in `extensions.code` of a GraphQL error and `error.code` of a REST answer. Each value names the HTTP status it answers with over REST and over GraphQL when the request fails as a whole.',
  values: Object.fromEntries(
    Object.entries(errorCodes).map(([code, { httpStatus, meaning }]) => [
      code,
      { value: code, description: `HTTP ${httpStatus}. ${meaning}` },
    ]),
  ),
});

/** The schema with the types no field reaches but integrators need (ErrorCode). */
export function withDocumentedTypes(schema: GraphQLSchema): GraphQLSchema {
  const config = schema.toConfig();
  return new GraphQLSchema({ ...config, types: [...config.types, errorCodeEnum] });
}
