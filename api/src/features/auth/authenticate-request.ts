import type { IncomingMessage } from 'node:http';
import type { FilterQuery } from '@mikro-orm/core';
import type { Caller, Ctx, RequestMeta } from '../../context.js';
import { AppError } from '../../errors.js';
import { isApiKeyToken } from '../api-keys/api-key-auth.js';
import type { AuthenticateBeforeRoute, HeaderTarget } from '../../http/request-context.js';
import { limitApiKeyRequest } from '../api-keys/api-key-rate-limit.js';
import {
  bearerToken,
  callerOf,
  sessionRefusal,
  type Companion,
  type Credential,
  type SessionState,
} from './authenticate.js';
import { verifyAccessToken } from './tokens.js';

/** A request's own credential: its Authorization header, and the X-Device-ID its meta kept. */
export function headerCredential(req: IncomingMessage, meta: Pick<RequestMeta, 'deviceId'>): Credential {
  return { token: bearerToken(req.headers.authorization), deviceId: meta.deviceId };
}

/**
 * Before the route: sets `ctx.caller`. `check: 'any'` authenticates every credential (the JSON API,
 * GraphQL over HTTP and WebSocket, byte routes taking a bearer token); `check: 'apiKey'` only an API
 * key's, whose scopes and rate limit come before every route, and leaves a session's token to the
 * route, which checks it with what it reads (`row`, `alongside`): an upload's chunks, byte routes
 * whose credential is in their URL.
 */
export interface BeforeRoute {
  check: 'any' | 'apiKey';
  /** Counts an API key's request against its rate limit, with the limit's headers set here. */
  rateLimit?: HeaderTarget;
}

/**
 * In the route: the caller (already set on the context, or from the credential) with a row of
 * another table read in the same statement, as an upload's every chunk needs its upload.
 */
export interface WithRow<T extends object> {
  row: Companion<T> | null;
}

/** What a byte credential's check read of the device session it was issued to. */
export interface PresentedSession {
  session: SessionState & { id: string; deviceId: string };
  user: { id: string; isLocked: boolean };
}

/** Checks that the presenter is the device session a credential was issued to. */
export type SamePresenterCheck = (facts: PresentedSession) => Promise<void>;

/**
 * In the route, alongside the check of a byte credential (a stream token, a signed URL, a chapter
 * grant): the bearer token, when one is presented, is authenticated no more than needed. The
 * check's one statement also reads the device session the token has to name: when it names that
 * session, active, unlocked and on its device, the token costs no query of its own. Any other token
 * goes through the whole authentication, before any refusal, so a bad token is answered as on every
 * other route, or as `onAuthFailure` maps it; a token of another session is answered `refused()`.
 */
export interface Alongside<T> {
  alongside: (assertSamePresenter: SamePresenterCheck) => Promise<T>;
  refused: () => AppError;
  onAuthFailure?: (err: AppError) => AppError;
}

/**
 * THE way a request's caller is authenticated, over every transport: REST, GraphQL over HTTP and
 * WebSocket, the byte routes and an upload's chunks. The options say when and with what.
 */
export function authenticateRequest(ctx: Ctx, credential: Credential, options: BeforeRoute): Promise<Caller | null>;
export function authenticateRequest<T extends object>(
  ctx: Ctx,
  credential: Credential,
  options: WithRow<T>,
): Promise<{ caller: Caller | null; companion: T | null }>;
export function authenticateRequest<T>(ctx: Ctx, credential: Credential, options: Alongside<T>): Promise<T>;
export async function authenticateRequest<T extends object>(
  ctx: Ctx,
  credential: Credential,
  options: BeforeRoute | WithRow<T> | Alongside<T>,
): Promise<unknown> {
  if ('row' in options) return withRow(ctx, credential, options.row);
  if ('alongside' in options) return alongside(ctx, credential, options);
  if (options.check === 'apiKey' && !isApiKeyToken(credential.token)) return null;
  ctx.caller = (await callerOf(ctx.em, ctx.deps.config, credential, ctx.meta.ip)).caller;
  if (ctx.caller?.apiKey && options.rateLimit) {
    await limitApiKeyRequest(ctx.deps.apiKeyLimiter, ctx.caller.apiKey, options.rateLimit);
  }
  return ctx.caller;
}

/** Before the route, from a request's headers: how Express, the byte server and their contexts authenticate. */
export const authenticateBeforeRoute: AuthenticateBeforeRoute = (ctx, req, res, check) =>
  authenticateRequest(ctx, headerCredential(req, ctx.meta), { check, rateLimit: res });

async function withRow<T extends object>(ctx: Ctx, credential: Credential, row: Companion<T> | null) {
  // An API key was authenticated (and counted) before the route: only the row is left to read.
  if (ctx.caller)
    return { caller: ctx.caller, companion: row && (await ctx.em.findOne(row.entity, row.id as FilterQuery<T>)) };
  return callerOf(ctx.em, ctx.deps.config, credential, ctx.meta.ip, row);
}

async function alongside<T>(ctx: Ctx, presenter: Credential, options: Alongside<T>): Promise<T> {
  const { refused, onAuthFailure = (err) => err } = options;
  const authFailure = (err: unknown) =>
    err instanceof AppError && err.code === 'UNAUTHENTICATED' ? onAuthFailure(err) : err;
  let settled = presenter.token === null;
  const authenticatePresenter = async (): Promise<Caller | null> => {
    settled = true;
    try {
      return (await callerOf(ctx.em, ctx.deps.config, presenter, null)).caller;
    } catch (err) {
      throw authFailure(err);
    }
  };
  const claims =
    presenter.token === null
      ? null
      : await verifyAccessToken(ctx.deps.config.secret, presenter.token).catch((err: unknown) => {
          throw authFailure(err);
        });

  const assertSamePresenter: SamePresenterCheck = async ({ session, user }) => {
    if (claims) {
      const isThisSession =
        claims.sessionId === session.id &&
        claims.userId === session.userId &&
        sessionRefusal(session, user, claims.sessionStart) === null &&
        presenter.deviceId === session.deviceId;
      const presented = isThisSession ? session.id : (await authenticatePresenter())?.session?.id;
      settled = true;
      if (presented !== session.id) throw refused();
    }
    if (presenter.deviceId && presenter.deviceId !== session.deviceId) throw refused();
  };

  try {
    return await options.alongside(assertSamePresenter);
  } catch (err) {
    if (!settled) await authenticatePresenter();
    throw err;
  }
}
