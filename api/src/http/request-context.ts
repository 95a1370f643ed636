import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import type { ProxyTrust } from '../config.js';
import type { AppDeps, CookieJar, Ctx, RequestMeta } from '../context.js';
import { limitApiKeyRequest, type HeaderTarget } from '../features/api-keys/api-key-rate-limit.js';
import { isApiKeyToken } from '../features/api-keys/api-key-auth.js';
import { authenticate, bearerToken } from '../features/auth/authenticate.js';
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

/** Gives every request its own EntityManager and, if it carries a token, its caller. */
export function requestContext(orm: MikroORM, deps: AppDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    // An upload chunk's own context (uploadChunkContext) came first: its route authenticates.
    if (res.locals.ctx) return next();
    const em = orm.em.fork();
    const meta = requestMeta(req, deps.config.trustProxy);
    res.setHeader('X-Request-ID', meta.requestId);
    res.locals.ctx = { em, deps, meta, caller: null, cookies: cookieJar(req, res, deps.config.trustProxy) };
    await authenticateCaller(res.locals.ctx, req, res);
    next();
  };
}

/**
 * Sets the caller of a request with a context, counted against its API key's rate limit if it has
 * one (the limit's headers go on `res`).
 */
export async function authenticateCaller(ctx: Ctx, req: IncomingMessage, res: HeaderTarget): Promise<void> {
  ctx.caller = await authenticate(
    ctx.em,
    ctx.deps.config,
    bearerToken(req.headers.authorization),
    ctx.meta.deviceId,
    ctx.meta.ip,
  );
  if (ctx.caller?.apiKey) await limitApiKeyRequest(ctx.deps.apiKeyLimiter, ctx.caller.apiKey, res);
}

/**
 * A request's context without its caller, for routes that check the bearer token in the one
 * statement reading what else they need. Its EntityManager is forked on first use: a request
 * answered from the access-facts cache never touches it.
 */
export function lazyContext(orm: MikroORM, deps: AppDeps, meta: RequestMeta, cookies: CookieJar): Ctx {
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

/**
 * For an upload's chunks, which check a bearer token together with the upload row (the other such
 * routes, the byte routes, are served ahead of Express: byte-server.ts). The request's
 * EntityManager, but no authentication: the route answers a bad token as it must.
 */
export function uploadChunkContext(orm: MikroORM, deps: AppDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const meta = requestMeta(req, deps.config.trustProxy);
    res.setHeader('X-Request-ID', meta.requestId);
    res.locals.ctx = lazyContext(orm, deps, meta, cookieJar(req, res, deps.config.trustProxy));
    // An API key is authenticated here all the same, so its scopes and rate limit are checked
    // before the route, as on every other route.
    if (isApiKeyToken(bearerToken(req.headers.authorization))) await authenticateCaller(res.locals.ctx, req, res);
    next();
  };
}
