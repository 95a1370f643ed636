import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import type { ProxyTrust } from '../config.js';
import type { AppDeps, CookieJar, Ctx, RequestMeta } from '../context.js';
import { clientIp } from './client-address.js';
import { cookieJar } from './cookies.js';

declare module 'express-serve-static-core' {
  interface Locals {
    ctx: Ctx;
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  return v && v.length > 0 ? v : null;
}

export function requestMeta(req: IncomingMessage, trust: ProxyTrust): RequestMeta {
  const deviceId = headerValue(req.headers['x-device-id']);
  return {
    requestId: randomUUID(),
    ip: clientIp(req, trust),
    userAgent: headerValue(req.headers['user-agent'])?.slice(0, 512) ?? null,
    deviceId: deviceId && deviceId.length <= 128 ? deviceId : null,
  };
}

/**
 * A request's context, its caller not yet known. `lazy`: its EntityManager is forked on first use,
 * so a request answered from the access-facts cache never touches it.
 */
export function requestContext(
  orm: MikroORM,
  deps: AppDeps,
  meta: RequestMeta,
  cookies: CookieJar,
  options: { lazy: boolean },
): Ctx {
  if (!options.lazy) return { em: orm.em.fork(), deps, meta, caller: null, cookies };
  let em: EntityManager | undefined;
  return {
    get em() {
      return (em ??= orm.em.fork());
    },
    deps,
    meta,
    caller: null,
    cookies,
  };
}

/** Where a request's rate-limit headers go: a response (node's or Express's), or a byte route's exchange. */
export interface HeaderTarget {
  setHeader(name: string, value: string): unknown;
}

/**
 * How a request's caller is set on its context before the route (the auth feature's
 * authenticateRequest): from every credential, or only from an API key's, the route checking the
 * others with what it reads.
 */
export type AuthenticateBeforeRoute = (
  ctx: Ctx,
  req: IncomingMessage,
  res: HeaderTarget,
  check: 'any' | 'apiKey',
) => Promise<unknown>;

/**
 * Gives every request its own context (res.locals.ctx, X-Request-ID) and has `authenticate` set its
 * caller. A request with a context already (an upload's chunk, given its own first) keeps it.
 */
export function contextMiddleware(
  orm: MikroORM,
  deps: AppDeps,
  options: { lazy: boolean; check: 'any' | 'apiKey' },
  authenticate: AuthenticateBeforeRoute,
) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (res.locals.ctx) return next();
    const meta = requestMeta(req, deps.config.trustProxy);
    res.setHeader('X-Request-ID', meta.requestId);
    res.locals.ctx = requestContext(orm, deps, meta, cookieJar(req, res, deps.config.trustProxy), options);
    await authenticate(res.locals.ctx, req, res, options.check);
    next();
  };
}
