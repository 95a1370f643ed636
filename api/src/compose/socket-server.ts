import type { IncomingMessage, Server } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import { specifiedRules, validate, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { Disposable } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { AppDeps } from '../context.js';
import { AppError } from '../errors.js';
import type { ApiKeyCredential } from '../features/api-keys/api-key-caller.js';
import { countApiKeyUse } from '../features/api-keys/api-key-rate-limit.js';
import { closeWhenApiKeyEnds } from '../features/api-keys/api-key-sockets.js';
import { authenticateRequest } from '../features/auth/authenticate-request.js';
import { bearerToken, type Credential } from '../features/auth/authenticate.js';
import type { GqlContext } from '../graphql/context.js';
import { refusal, type FormatError } from '../graphql/errors.js';
import { queryLimitsRule, subscriptionsOnlyRule } from '../graphql/limits.js';
import { requestMeta } from '../http/request-context.js';
import { createLoaders } from './loaders.js';

/** The credentials a client sends in its connection_init payload. */
function credentials(params: Record<string, unknown> | undefined): Credential {
  const { authorization, deviceId } = params ?? {};
  return {
    token: bearerToken(typeof authorization === 'string' ? authorization : null),
    deviceId: typeof deviceId === 'string' ? deviceId : null,
  };
}

/**
 * GraphQL subscriptions over WebSocket at /graphql (graphql-ws), on the app's HTTP server. A
 * connection made with an API key counts against the key's rate limit, and so does each of its
 * subscriptions; it is closed when the key stops holding.
 */
export function serveGraphqlOverWebSocket(parts: {
  server: Server;
  schema: GraphQLSchema;
  orm: MikroORM;
  deps: AppDeps;
  formatError: FormatError;
}): Disposable {
  const { server, schema, orm, deps, formatError } = parts;
  const formatAll = (errors: readonly GraphQLError[]) => errors.map((e) => formatError(e.toJSON(), e));
  const keyOfSocket = new WeakMap<object, ApiKeyCredential>();
  /** The connection's credentials, and its request's facts with the device id it names. */
  const presented = (socketCtx: {
    connectionParams?: Record<string, unknown>;
    extra: { request: IncomingMessage };
  }) => {
    const credential = credentials(socketCtx.connectionParams);
    const meta = { ...requestMeta(socketCtx.extra.request, deps.config.trustProxy), deviceId: credential.deviceId };
    return { credential, meta };
  };
  const wsServer = new WebSocketServer({ server, path: '/graphql', maxPayload: 64 * 1024 });
  return useServer<Record<string, unknown>>(
    {
      schema,
      // The same limits as over HTTP, and errors leave the same way (unknown ones logged and hidden).
      validate: (s, document) => validate(s, document, [...specifiedRules, subscriptionsOnlyRule, queryLimitsRule]),
      onError: (_ctx, _id, _payload, errors) => formatAll(errors),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: formatAll(result.errors) } : undefined,
      onSubscribe: async (socketCtx) => {
        const key = keyOfSocket.get(socketCtx);
        const refused = key && (await countApiKeyUse(deps.apiKeyLimiter, key)).refused;
        return refused ? [refusal(refused)] : undefined;
      },
      context: async (socketCtx): Promise<GqlContext> => {
        const { credential, meta } = presented(socketCtx);
        const em = orm.em.fork();
        const ctx: GqlContext = { em, deps, meta, caller: null, loaders: createLoaders(em) };
        await authenticateRequest(ctx, credential, { check: 'any' });
        return ctx;
      },
      onConnect: async (socketCtx) => {
        const { credential, meta } = presented(socketCtx);
        const { socket } = socketCtx.extra;
        try {
          const ctx = { em: orm.em.fork(), deps, meta, caller: null };
          const caller = await authenticateRequest(ctx, credential, { check: 'any' });
          if (caller?.apiKey) {
            if ((await countApiKeyUse(deps.apiKeyLimiter, caller.apiKey)).refused) {
              socket.close(4429, 'Too many requests');
              return false;
            }
            keyOfSocket.set(socketCtx, caller.apiKey);
            // Its subscriptions end with the key: revoked, expired, or its user locked, demoted or deleted.
            const stop = closeWhenApiKeyEnds(
              deps,
              () => orm.em.fork(),
              caller,
              () => socket.close(4403, 'Forbidden'),
            );
            socket.once('close', stop);
          }
          return caller !== null;
        } catch (err) {
          // A refused credential closes with 4403; anything else is a server fault (4500), not a logout.
          if (err instanceof AppError) return false;
          throw err;
        }
      },
    },
    wsServer,
  );
}
