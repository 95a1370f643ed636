import 'reflect-metadata';
import { createServer } from 'node:http';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import type { AppConfig } from '../config.js';
import type { Ctx } from '../context.js';
import { openDatabase } from '../db/open.js';
import { migrate } from '../db/orm.js';
import { isAdmin, requireCaller } from '../caller-policy.js';
import { authenticateBeforeRoute as authenticate } from '../features/auth/authenticate-request.js';
import { uploadChunkPath } from '../features/uploads/uploads.routes.js';
import { startApollo } from '../graphql/apollo.js';
import { requestsWithoutOperation } from '../graphql/no-operation.js';
import { createFormatError } from '../graphql/errors.js';
import { schemaSdl, schemaSdlPath } from '../graphql/schema-sdl.js';
import { bodyTimeouts } from '../http/body-timeout.js';
import { byteRequests } from '../http/byte-server.js';
import { compressAnswers } from '../http/compression.js';
import { errorHandler, graphqlHttpErrorHandler, notFoundHandler } from '../http/errors.js';
import { jsonBody } from '../http/json-body.js';
import { contextMiddleware } from '../http/request-context.js';
import { restRouter } from '../http/rest-routes.js';
import { noStore, securityHeaders } from '../http/security-headers.js';
import { serverTimeouts } from '../http/server-timeouts.js';
import { webApp } from '../http/web-app.js';
import { createLogger, type Logger } from '../logger.js';
import { createAppDeps } from './app-deps.js';
import { appHandle, closeServer, type App } from './app-handle.js';
import { entities } from './entities.js';
import { features } from './features.js';
import { apiRoutes } from './routes.js';
import { createLoaders } from './loaders.js';
import { createSchema } from './schema.js';
import { serveGraphqlOverWebSocket } from './socket-server.js';

export type { App } from './app-handle.js';

/** Builds the whole server (REST, GraphQL over HTTP and WebSocket, the web app) without listening. */
export async function createApp(config: AppConfig, options: { logger?: Logger } = {}): Promise<App> {
  const logger = options.logger ?? createLogger(config.logLevel);
  // The database opens (the embedded one copies its template and starts on other threads) while
  // the schema is built here.
  const shared = config.databaseUrl !== undefined;
  const opening = openDatabase(config, logger, entities).then(async (db) => (await migrate(db.orm, { shared }), db));
  opening.catch(() => undefined); // awaited below, after the schema
  const { deps, events } = await createAppDeps(config, logger);
  const schema = await createSchema(deps.pubSub);
  const database = await opening;
  const { orm } = database;
  const background = features.flatMap((feature) => feature.background?.({ orm, deps }) ?? []);

  const app = express();
  app.disable('x-powered-by');
  // No ETag hashed over every JSON answer: none may be stored (noStore), so none is revalidated.
  // Routes that may be cached set their own (covers; static files through serve-static).
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  app.use(securityHeaders());
  app.use(bodyTimeouts(config.bodyIdleTimeoutSeconds * 1000));
  app.use(compressAnswers());
  // The player's byte requests are answered ahead of Express (byte-server.ts); all else goes to it.
  const bytes = byteRequests(orm, deps, logger, apiRoutes, authenticate);
  const server = createServer(serverTimeouts(config.keepAliveTimeoutSeconds), (req, res) => {
    if (!bytes(req, res)) app(req, res);
  });

  const formatError = createFormatError(logger);
  const webSocket = serveGraphqlOverWebSocket({ server, schema, orm, deps, formatError });
  const apollo = await startApollo({ server, schema, formatError, webSocket });

  const requestContext = contextMiddleware(orm, deps, { lazy: false, check: 'any' }, authenticate);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get(schemaSdlPath, noStore, requestContext, schemaSdl(schema, requireCaller));
  app.use(
    '/graphql',
    express.json({ limit: '100kb' }),
    requestContext,
    requestsWithoutOperation((caller) => caller.session !== null && isAdmin(caller.user)),
    expressMiddleware(apollo, {
      context: async ({ res }) => ({ ...(res.locals.ctx as Ctx), loaders: createLoaders(res.locals.ctx.em) }),
    }),
    graphqlHttpErrorHandler(logger),
  );
  app.use('/api/v1', noStore);
  // An upload's chunk checks a session's bearer token together with the upload row, not before it;
  // only an API key's comes first.
  app.post(`/api/v1${uploadChunkPath}`, contextMiddleware(orm, deps, { lazy: true, check: 'apiKey' }, authenticate));
  app.use('/api/v1', jsonBody, requestContext, restRouter(apiRoutes), notFoundHandler);
  app.use(webApp());
  app.use(errorHandler(logger));

  return appHandle({ server, orm, deps }, [
    () => apollo.stop(),
    () => closeServer(server),
    // Before the event bus: a background job ending now still tells the screens about it.
    async () => {
      await Promise.all(background.map((work) => work.stop()));
    },
    () => events.close(),
    () => database.close(),
  ]);
}
