import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppDeps } from '../context.js';
import { assertScopes } from '../api-key-scopes.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { ByteExchange } from './byte-route.js';
import { cookieJar } from './cookies.js';
import { errorBody, internalError, toAppError } from './errors.js';
import { requestContext, requestMeta, type AuthenticateBeforeRoute } from './request-context.js';
import { RouteTable } from './path-match.js';
import { isByteRoute, type ByteRoute, type Route } from './route.js';
import { fixedSecurityHeaders } from './security-headers.js';

const API = '/api/v1';

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
 * Serves the byte routes of the declared routes (the player's hot path: whole-file and seek bytes,
 * chapter playlists and keys; and an API key's audio) on node's request and response, ahead of the Express app: a 64 KiB range
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
  routes: readonly Route[],
  authenticate: AuthenticateBeforeRoute,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const table = new RouteTable(routes.filter(isByteRoute));
  const answerHeaders = [...fixedSecurityHeaders(), 'Cache-Control', 'no-store'];

  async function answer(route: ByteRoute, req: IncomingMessage, res: ServerResponse, param: string, query: string) {
    const meta = requestMeta(req, deps.config.trustProxy);
    const exchange = new ByteExchange(req, res, [...answerHeaders, 'X-Request-ID', meta.requestId]);
    const ctx = requestContext(orm, deps, meta, cookieJar(req, res, deps.config.trustProxy), { lazy: true });
    try {
      const value = decodeParam(param);
      if (value === null) throw new AppError('BAD_USER_INPUT', 'Bad request');
      // A credential in the header is authenticated before the route, and an API key before any
      // route, so that a key's scopes and rate limit are checked as everywhere.
      await authenticate(ctx, req, exchange, route.credential === 'header' ? 'any' : 'apiKey');
      if (ctx.caller?.apiKey) assertScopes(ctx.caller, route.scopes);
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
    if (path.slice(0, API.length).toLowerCase() !== API) return false;
    const under = path.slice(API.length);
    if (method === 'OPTIONS') {
      if (!table.has(under)) return false;
      sendAllowed(res);
      return true;
    }
    const match = table.find(method, under);
    if (!match) return false;
    void answer(match.route, req, res, match.params[0], q === -1 ? '' : url.slice(q + 1));
    return true;
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
