import type { Server } from 'node:http';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import type { GraphQLSchema } from 'graphql';
import type { Disposable } from 'graphql-ws';
import { AppError } from '../errors.js';
import type { GqlContext } from './context.js';
import { refusal, type FormatError } from './errors.js';
import { queryLimitsRule } from './limits.js';
import { noStoreResponses } from './no-store.js';

/** Subscriptions are served over WebSocket only; over HTTP they are refused before they run. */
export function subscriptionsOverWebSocketOnly(): ApolloServerPlugin<GqlContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation === 'subscription') {
            throw refusal(new AppError('BAD_USER_INPUT', 'Subscriptions are served over WebSocket at /graphql'));
          }
        },
      };
    },
  };
}

/** Introspection is for signed-in integrators, not for anonymous probes. */
export function introspectionForSignedInOnly(): ApolloServerPlugin<GqlContext> {
  return {
    async requestDidStart({ contextValue }) {
      return {
        async didResolveOperation({ document }) {
          if (contextValue.caller) return;
          const text = JSON.stringify(document);
          if (text.includes('"__schema"') || text.includes('"__type"')) {
            throw refusal(new AppError('UNAUTHENTICATED', 'Sign in to introspect the schema'));
          }
        },
      };
    },
  };
}

/** GraphQL over HTTP, started; draining the HTTP server also closes the WebSocket server. */
export async function startApollo(parts: {
  server: Server;
  schema: GraphQLSchema;
  formatError: FormatError;
  /** The WebSocket server, closed while the HTTP server drains. */
  webSocket: Disposable;
}): Promise<ApolloServer<GqlContext>> {
  const { server, schema, formatError, webSocket } = parts;
  const apollo = new ApolloServer<GqlContext>({
    schema,
    formatError,
    validationRules: [queryLimitsRule],
    hideSchemaDetailsFromClientErrors: true,
    includeStacktraceInErrorResponses: false,
    csrfPrevention: true,
    allowBatchedHttpRequests: false,
    // main.ts stops the whole app on SIGINT/SIGTERM; Apollo's own handler, started first, would
    // stop it concurrently, and that second stop() waits for a barrier Apollo only resolves on
    // failure, so every shutdown sat out main's 10 s deadline.
    stopOnTerminationSignals: false,
    plugins: [
      // Its page names Apollo Server and its version; a browser's visit is answered by no-operation.ts.
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      ...noStoreResponses(),
      {
        async serverWillStart() {
          return {
            drainServer: async () => {
              await webSocket.dispose();
            },
          };
        },
      },
      subscriptionsOverWebSocketOnly(),
      introspectionForSignedInOnly(),
    ],
  });
  await apollo.start();
  return apollo;
}
