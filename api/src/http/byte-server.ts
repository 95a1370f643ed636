import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppDeps } from '../context.js';
import { AppError } from '../errors.js';
import { assertScopes } from '../features/api-keys/api-key-scopes.js';
import { restRequirement } from '../features/api-keys/scope-guard.js';
import { authenticateRequest, headerCredential } from '../features/auth/authenticate-request.js';
import { chapterByteRoutes } from '../features/chapters/chapter.routes.js';
import { keyAudioRoutes } from '../features/streaming/key-audio.routes.js';
import { streamByteRoutes } from '../features/streaming/stream.routes.js';
import type { Logger } from '../logger.js';
import { ByteExchange, type ByteRoute } from './byte-route.js';
import { cookieJar } from './cookies.js';
import { errorBody, internalError, toAppError } from './errors.js';
import { requestContext, requestMeta } from './request-context.js';
import { fixedSecurityHeaders } from './security-headers.js';

/** The player's hot path under /api/v1: whole-file and seek bytes, chapter playlists and keys; and an API key's audio. */
export const byteRoutes: ByteRoute[] = [...streamByteRoutes, ...chapterByteRoutes, ...keyAudioRoutes];

const API = '/api/v1';

/** Matches a route's URL path as Express does: any letter case, one trailing slash, one segment per parameter. */
function pathPattern(route: ByteRoute): RegExp {
  const parts = `${API}${route.path}`
    .split('/')
    .map((part) => (part.startsWith(':') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('/')}/?$`, 'i');
}

/** Express's decoding of a path parameter; null for one that does not decode (Express answers 400). */
function decodeParam(value: string): string | null {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * Serves the byte routes on node's request and response, ahead of the Express app: a 64 KiB range
 * is the player's most frequent request, and Express's routing, its request and response
 * decorations and the middleware the JSON API needs (helmet, body timeouts, compression, body
 * parsing) cost more than the range's own checks. Answers what Express answered for them: the same
 * security headers (worked out once), `Cache-Control: no-store` unless the route sets its own,
 * X-Request-ID, the client address under the same trusted proxies, an API key's scopes and rate
 * limit checked before the route, and errors in the REST shape, unknown ones logged under the
 * route's pattern (a path may hold a credential). Returns false for any other request, which the
 * caller hands to Express unchanged.
 */
export function byteRequests(
  orm: MikroORM,
  deps: AppDeps,
  logger: Logger,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const routes = byteRoutes.map((route) => ({ route, pattern: pathPattern(route) }));
  const answerHeaders = [...fixedSecurityHeaders(), 'Cache-Control', 'no-store'];

  async function answer(
    route: ByteRoute,
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    param: string,
    query: string,
  ) {
    const meta = requestMeta(req, deps.config.trustProxy);
    const exchange = new ByteExchange(req, res, [...answerHeaders, 'X-Request-ID', meta.requestId]);
    const ctx = requestContext(orm, deps, meta, cookieJar(req, res, deps.config.trustProxy), { lazy: true });
    try {
      const value = decodeParam(param);
      if (value === null) throw new AppError('BAD_USER_INPUT', 'Bad request');
      // A credential in the header is authenticated before the route, and an API key before any
      // route, so that a key's scopes and rate limit are checked as everywhere.
      const check = route.credential === 'header' ? 'any' : 'apiKey';
      await authenticateRequest(ctx, headerCredential(req, meta), { check, rateLimit: exchange });
      // The scopes asked of the path under /api/v1, as Express's router gave it to the scope check.
      if (ctx.caller?.apiKey) assertScopes(ctx.caller, restRequirement(req.method ?? 'GET', path.slice(API.length)));
      await route.serve(ctx, exchange, value, query);
    } catch (err) {
      const error =
        toAppError(err) ??
        internalError(logger, err, { requestId: meta.requestId, method: req.method, path: `${API}${route.path}` });
      sendErrorAnswer(exchange, error);
    }
  }

  return (req, res) => {
    const { method } = req;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') return false;
    const url = originForm(req.url ?? '');
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    for (const { route, pattern } of routes) {
      const match = pattern.exec(path);
      if (!match) continue;
      if (method === 'OPTIONS') sendAllowed(res);
      else void answer(route, req, res, path, match[1], q === -1 ? '' : url.slice(q + 1));
      return true;
    }
    return false;
  };
}

/**
 * The path and query of a request target as Express reads them: one in absolute form
 * (`http://host/path`) stands for its path, and a fragment is no part of either.
 */
function originForm(url: string): string {
  const target = url.startsWith('/') ? url : url.replace(/^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i, '');
  const hash = target.indexOf('#');
  return hash === -1 ? target : target.slice(0, hash);
}

/** OPTIONS, answered as Express's router answers it for a route it serves. */
function sendAllowed(res: ServerResponse): void {
  const allowed = 'GET, HEAD';
  res.setHeader('Allow', allowed);
  res.setHeader('Content-Length', Buffer.byteLength(allowed));
  res.setHeader('Content-Type', 'text/plain');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(allowed);
}

/** The REST failure answer, as errorHandler's sendError gives it through Express. */
function sendErrorAnswer(exchange: ByteExchange, error: AppError): void {
  if (exchange.res.headersSent) {
    exchange.res.destroy();
    return;
  }
  exchange.send(error.httpStatus, 'application/json; charset=utf-8', JSON.stringify(errorBody(error)));
}
