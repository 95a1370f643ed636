import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import type { AppDeps, Ctx, RequestMeta } from '../context.js';
import { limitApiKeyRequest } from '../features/api-keys/api-key-rate-limit.js';
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

export function requestMeta(req: IncomingMessage): RequestMeta {
  const deviceId = headerValue(req.headers['x-device-id']);
  return {
    requestId: randomUUID(),
    ip: clientIp(req),
    userAgent: headerValue(req.headers['user-agent'])?.slice(0, 512) ?? null,
    deviceId: deviceId && deviceId.length <= 128 ? deviceId : null,
  };
}

/** Gives every request its own EntityManager and, if it carries a token, its caller. */
export function requestContext(orm: MikroORM, deps: AppDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    // A byte route's own context (byteRequestContext) came first: its route authenticates.
    if (res.locals.ctx) return next();
    const em = orm.em.fork();
    const meta = requestMeta(req);
    res.setHeader('X-Request-ID', meta.requestId);
    res.locals.ctx = { em, deps, meta, caller: null, cookies: cookieJar(req, res) };
    await authenticateRequest(req, res);
    next();
  };
}

/** The caller of a request with a context, counted against its API key's rate limit if it has one. */
async function authenticateRequest(req: Request, res: Response): Promise<void> {
  const ctx = res.locals.ctx;
  ctx.caller = await authenticate(ctx.em, ctx.deps.config, bearerToken(req.headers.authorization), ctx.meta.deviceId, ctx.meta.ip);
  if (ctx.caller?.apiKey) limitApiKeyRequest(ctx.deps.apiKeyLimiter, ctx.caller.apiKey, res);
}

/**
 * For byte routes that check the bearer token in the one statement reading what else they need:
 * those whose URL carries its own credential (stream token, signed URL, chapter grant) and upload
 * chunks (the upload). The request's EntityManager, but no authentication: the route answers a
 * bad token as it must.
 */
export function byteRequestContext(orm: MikroORM, deps: AppDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const meta = requestMeta(req);
    res.setHeader('X-Request-ID', meta.requestId);
    // Forked on first use: a request answered from the access-facts cache never touches it.
    let em: EntityManager | undefined;
    res.locals.ctx = {
      get em() {
        return (em ??= orm.em.fork());
      },
      deps,
      meta,
      caller: null,
      cookies: cookieJar(req, res),
    };
    // An API key is authenticated here all the same, so its scopes and rate limit are checked
    // before the route, as on every other route.
    if (isApiKeyToken(bearerToken(req.headers.authorization))) await authenticateRequest(req, res);
    next();
  };
}
