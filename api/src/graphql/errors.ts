import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, fromDatabaseInputError } from '../errors.js';
import type { Logger } from '../logger.js';

const passThroughCodes = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
]);

/** Every GraphQL error leaves with an extensions.code; unknown errors are logged and hidden. */
export function createFormatError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    let original = unwrapResolverError(error);
    // Errors thrown by plugins arrive wrapped in a GraphQLError.
    if (original instanceof GraphQLError && original.originalError instanceof AppError)
      original = original.originalError;
    original = fromDatabaseInputError(original) ?? original;
    if (original instanceof AppError) {
      return {
        message: original.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: original.code, ...(original.details ?? {}) },
      };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && passThroughCodes.has(code)) {
      return { message: formatted.message, locations: formatted.locations, extensions: { code: 'BAD_USER_INPUT' } };
    }
    if (original instanceof GraphQLError && !original.originalError) {
      // Errors graphql-js raises itself (coercion of variables and arguments) are the caller's.
      return {
        message: formatted.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: 'BAD_USER_INPUT' },
      };
    }
    const errorId = crypto.randomUUID();
    logger.error('graphql.unhandled', {
      errorId,
      path: formatted.path,
      error:
        original instanceof Error
          ? { name: original.name, message: original.message, stack: original.stack }
          : String(original),
    });
    return {
      message: `Internal server error (reference ${errorId})`,
      path: formatted.path,
      extensions: { code: 'INTERNAL' },
    };
  };
}

export type FormatError = ReturnType<typeof createFormatError>;

/**
 * An AppError raised by a plugin before execution, as a GraphQLError that carries the HTTP status
 * (Apollo answers 500 for anything else thrown there).
 */
export function refusal(error: AppError): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { code: error.code, http: { status: error.httpStatus } },
  });
}
