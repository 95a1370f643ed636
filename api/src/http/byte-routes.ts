import type { MikroORM } from '@mikro-orm/postgresql';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppDeps } from '../context.js';
import { apiKeyScopeGuard } from '../features/api-keys/scope-guard.js';
import { chapterByteRoutes, chapterBytePaths } from '../features/chapters/chapter.routes.js';
import { keyAudioPaths, keyAudioRoutes } from '../features/streaming/key-audio.routes.js';
import { streamByteRoutes, streamBytePaths } from '../features/streaming/stream.routes.js';
import { byteRequestContext, requestContext } from './request-context.js';
import { fixedSecurityHeaders, noStore } from './security-headers.js';

/**
 * The player's hot path under /api/v1: whole-file and seek bytes, chapter playlists and keys; and
 * an API key's audio. Mounted first, ahead of the helmet middleware (their security headers are
 * the same, set in one loop), body timeouts (they have no body) and the JSON API (body parsing,
 * compression, the other routers), none of which they use, so a 64 KiB range costs no more routing
 * than it must. The player's URLs carry their own credential: byteRequestContext does not
 * authenticate (the route checks a bearer token together with that credential), except an API key,
 * whose scopes are checked here before the route as everywhere.
 */
export function byteRoutes(orm: MikroORM, deps: AppDeps): Router {
  const router = Router();
  const secure = fixedSecurityHeaders();
  const headers = (_req: Request, res: Response, next: NextFunction) => {
    secure(res);
    noStore(_req, res, next);
  };
  router.get([...streamBytePaths, ...chapterBytePaths], headers, byteRequestContext(orm, deps), apiKeyScopeGuard);
  // An API key's audio carries no credential in its URL: the header is authenticated as on any call.
  router.get(keyAudioPaths, headers, requestContext(orm, deps), apiKeyScopeGuard);
  router.use(byteRouters());
  return router;
}

/** The byte routes' own routers, without their request context (the route inventory reads them). */
export function byteRouters(): Router[] {
  return [streamByteRoutes(), chapterByteRoutes(), keyAudioRoutes()];
}
