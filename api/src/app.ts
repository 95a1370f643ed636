import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import type { MikroORM } from '@mikro-orm/postgresql';
import express from 'express';
import { specifiedRules, validate, type GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { AppConfig } from './config.js';
import type { AppDeps, Ctx } from './context.js';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './db/embedded.js';
import { migrate, openOrm } from './db/orm.js';
import { AppError } from './errors.js';
import { authenticate, bearerToken } from './features/auth/authenticate.js';
import { authLimits } from './features/auth/rate-limiter.js';
import { progressLimits } from './features/progress/progress.service.js';
import { chapterBytePaths } from './features/chapters/chapter.routes.js';
import { streamBytePaths } from './features/streaming/stream.routes.js';
import { hashThread } from './features/uploads/hash-thread.js';
import { uploadChunkPath } from './features/uploads/uploads.routes.js';
import type { GqlContext } from './graphql/context.js';
import { createFormatError, refusal } from './graphql/errors.js';
import { queryLimitsRule, subscriptionsOnlyRule } from './graphql/limits.js';
import { createLoaders } from './graphql/loaders.js';
import { noStoreResponses } from './graphql/no-store.js';
import { createEventBus, type EventBus } from './graphql/pubsub.js';
import { createSchema } from './graphql/schema.js';
import { errorHandler, graphqlHttpErrorHandler, notFoundHandler } from './http/errors.js';
import { bodyTimeouts } from './http/body-timeout.js';
import { jsonBody } from './http/json-body.js';
import { byteRequestContext, requestContext, requestMeta } from './http/request-context.js';
import { restRoutes } from './http/rest-routes.js';
import { noStore, securityHeaders } from './http/security-headers.js';
import { createLogger, type Logger } from './logger.js';

export interface App {
  server: Server;
  orm: MikroORM;
  deps: AppDeps;
  /** Where it listens once started, e.g. http://127.0.0.1:4000. */
  url: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

async function openDatabase(config: AppConfig, logger: Logger): Promise<{ orm: MikroORM; embedded?: EmbeddedDatabase }> {
  if (config.databaseUrl) {
    const orm = await openOrm({ url: config.databaseUrl }).catch((err: Error) => {
      throw new AppError('INTERNAL', `Cannot connect to DATABASE_URL: ${err.message}`);
    });
    if (!(await orm.isConnected())) throw new AppError('INTERNAL', 'Cannot connect to DATABASE_URL: check the host, port and credentials');
    return { orm };
  }
  const embedded = await startEmbeddedDatabase(path.join(config.dataDir, 'pgdata'));
  logger.info('db.embedded', { dataDir: path.join(config.dataDir, 'pgdata') });
  return { orm: await openOrm({ embedded: embedded.connection }), embedded };
}

/** Builds the whole server (REST, GraphQL over HTTP and WebSocket, the web app) without listening. */
export async function createApp(config: AppConfig, options: { logger?: Logger } = {}): Promise<App> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const { orm, embedded } = await openDatabase(config, logger);
  await migrate(orm);
  const events: EventBus = createEventBus(config.redisUrl);
  const deps: AppDeps = {
    config,
    pubSub: events.pubSub,
    logger,
    ...authLimits(config),
    ...progressLimits(),
  };
  const schema = await createSchema(events.pubSub);
  hashThread.onFailure = (err) => logger.error('uploads.hash_thread_failed', { error: String(err) });

  const app = express();
  app.disable('x-powered-by');
  // No ETag hashed over every JSON answer: none may be stored (noStore), so none is revalidated.
  // Routes that may be cached set their own (covers; static files through serve-static).
  app.set('etag', false);
  app.set('trust proxy', 'loopback');
  app.use(securityHeaders());
  app.use(bodyTimeouts(config.bodyIdleTimeoutSeconds * 1000));
  // Node's limit on a whole request (5 minutes) would cut a direct upload of a large file on a slow
  // link; bodyTimeouts keeps it for every body but an administrator's upload.
  const server = createServer({ requestTimeout: 0 }, app);

  const formatError = createFormatError(logger);
  const formatAll = (errors: readonly GraphQLError[]) => errors.map((e) => formatError(e.toJSON(), e));
  const wsServer = new WebSocketServer({ server, path: '/graphql', maxPayload: 64 * 1024 });
  const wsCleanup = useServer<Record<string, unknown>>(
    {
      schema,
      // The same limits as over HTTP, and errors leave the same way (unknown ones logged and hidden).
      validate: (s, document) => validate(s, document, [...specifiedRules, subscriptionsOnlyRule, queryLimitsRule]),
      onError: (_ctx, _id, _payload, errors) => formatAll(errors),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: formatAll(result.errors) } : undefined,
      context: async (socketCtx): Promise<GqlContext> => {
        const params = socketCtx.connectionParams ?? {};
        const em = orm.em.fork();
        const token = bearerToken(typeof params.authorization === 'string' ? params.authorization : null);
        const deviceId = typeof params.deviceId === 'string' ? params.deviceId : null;
        const caller = await authenticate(em, config, token, deviceId);
        const meta = { ...requestMeta(socketCtx.extra.request as express.Request), deviceId };
        return { em, deps, meta, caller, loaders: createLoaders(em) };
      },
      onConnect: async (socketCtx) => {
        const params = socketCtx.connectionParams ?? {};
        const token = bearerToken(typeof params.authorization === 'string' ? params.authorization : null);
        const deviceId = typeof params.deviceId === 'string' ? params.deviceId : null;
        try {
          return (await authenticate(orm.em.fork(), config, token, deviceId)) !== null;
        } catch (err) {
          // A refused credential closes with 4403; anything else is a server fault (4500), not a logout.
          if (err instanceof AppError) return false;
          throw err;
        }
      },
    },
    wsServer,
  );

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
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      ...noStoreResponses(),
      {
        async serverWillStart() {
          return { drainServer: async () => { await wsCleanup.dispose(); } };
        },
      },
      {
        // Introspection is for signed-in integrators, not for anonymous probes.
        async requestDidStart({ contextValue }) {
          return {
            async didResolveOperation({ document, operation }) {
              if (operation?.operation === 'subscription') {
                throw refusal(new AppError('BAD_USER_INPUT', 'Subscriptions are served over WebSocket at /graphql'));
              }
              if (contextValue.caller) return;
              const text = JSON.stringify(document);
              if (text.includes('"__schema"') || text.includes('"__type"')) {
                throw refusal(new AppError('UNAUTHENTICATED', 'Sign in to introspect the schema'));
              }
            },
          };
        },
      },
    ],
  });
  await apollo.start();

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use('/graphql', express.json({ limit: '100kb' }), requestContext(orm, deps), expressMiddleware(apollo, {
    context: async ({ res }) => ({ ...(res.locals.ctx as Ctx), loaders: createLoaders(res.locals.ctx.em) }),
  }), graphqlHttpErrorHandler(logger));
  app.use('/api/v1', noStore);
  // Byte routes check a bearer token together with the credential in their URL, not before it.
  const bytePaths = [...streamBytePaths, ...chapterBytePaths].map((p) => `/api/v1${p}`);
  app.get(bytePaths, byteRequestContext(orm, deps));
  // So do an upload's chunks, together with the upload row.
  app.post(`/api/v1${uploadChunkPath}`, byteRequestContext(orm, deps));
  app.use('/api/v1', jsonBody, requestContext(orm, deps), restRoutes(), notFoundHandler);
  if (existsSync(webDist)) {
    app.use(express.static(webDist, { index: false, maxAge: '1h' }));
    app.get(/^\/(?!api\/|graphql|healthz).*/, (_req, res) => {
      res.sendFile(path.join(webDist, 'index.html'), { headers: { 'Cache-Control': 'no-cache' } });
    });
  }
  app.use(errorHandler(logger));

  const handle: App = {
    server,
    orm,
    deps,
    url: '',
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          const address = server.address();
          const port = typeof address === 'object' && address ? address.port : config.port;
          handle.url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
          resolve(handle.url);
        });
      }),
    async close() {
      await apollo.stop();
      await new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await events.close();
      await orm.close(true);
      await embedded?.stop();
    },
  };
  return handle;
}
