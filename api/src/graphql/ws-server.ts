import type { Server } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import { specifiedRules, validate, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { Disposable } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { ApiKeyCredential, AppDeps } from '../context.js';
import { AppError } from '../errors.js';
import { countApiKeyUse } from '../features/api-keys/api-key-rate-limit.js';
import { closeWhenApiKeyEnds } from '../features/api-keys/api-key-sockets.js';
import { authenticate, bearerToken } from '../features/auth/authenticate.js';
import { requestMeta } from '../http/request-context.js';
import type { GqlContext } from './context.js';
import { refusal, type FormatError } from './errors.js';
import { queryLimitsRule, subscriptionsOnlyRule } from './limits.js';
import { createLoaders } from './loaders.js';

/** The credentials a client sends in its connection_init payload. */
function credentials(params: Record<string, unknown> | undefined) {
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
        const { token, deviceId } = credentials(socketCtx.connectionParams);
        const em = orm.em.fork();
        const meta = { ...requestMeta(socketCtx.extra.request, deps.config.trustProxy), deviceId };
        const caller = await authenticate(em, deps.config, token, deviceId, meta.ip);
        return { em, deps, meta, caller, loaders: createLoaders(em) };
      },
      onConnect: async (socketCtx) => {
        const { token, deviceId } = credentials(socketCtx.connectionParams);
        const { ip } = requestMeta(socketCtx.extra.request, deps.config.trustProxy);
        const { socket } = socketCtx.extra;
        try {
          const caller = await authenticate(orm.em.fork(), deps.config, token, deviceId, ip);
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
