import type { MikroORM } from '@mikro-orm/postgresql';
import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { apiKeyScopeGuard } from '../features/api-keys/scope-guard.js';
import { chapterByteRoutes, chapterBytePaths } from '../features/chapters/chapter.routes.js';
import { streamByteRoutes, streamBytePaths } from '../features/streaming/stream.routes.js';
import { byteRequestContext } from './request-context.js';
import { noStore } from './security-headers.js';

/**
 * The player's hot path under /api/v1: whole-file and seek bytes, chapter playlists and keys.
 * Mounted ahead of the JSON API (body parsing, compression, the other routers), none of which they
 * use, so a 64 KiB range costs no more routing than it must. Their URL carries its own credential:
 * byteRequestContext does not authenticate (the route checks a bearer token together with that
 * credential), except an API key, whose scopes are checked here before the route as everywhere.
 */
export function byteRoutes(orm: MikroORM, deps: AppDeps): Router {
  const router = Router();
  router.get([...streamBytePaths, ...chapterBytePaths], noStore, byteRequestContext(orm, deps), apiKeyScopeGuard);
  router.use(byteRouters());
  return router;
}

/** The byte routes' own routers, without their request context (the route inventory reads them). */
export function byteRouters(): Router[] {
  return [streamByteRoutes(), chapterByteRoutes()];
}
