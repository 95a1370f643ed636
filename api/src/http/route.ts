import type { NextFunction, Request, Response } from 'express';
import type { ScopeRequirement } from '../api-key-scopes.js';
import type { Ctx } from '../context.js';
import type { ByteExchange } from './byte-route.js';
import type { RouteContract } from './contract.js';

/**
 * A REST /api/v1 route, declared once beside its feature: its contract (the OpenAPI document is
 * made from it), what it asks of an API key (the scope guard checks it before any route runs) and
 * what answers it. The Express router, the byte server, the scope guard and the document are all
 * built from the one list of declarations.
 */
export type Route = ExpressRoute | ByteRoute;

interface Declared extends RouteContract {
  /** What the route asks of an API key (`[]`: nothing beyond the key itself). */
  scopes: ScopeRequirement;
}

/**
 * The input of a route served by Express, as the wire carried it: the services validate it with
 * the same zod schemas the contract names. `req` and `res` are there for what the input is not
 * (a streamed body, headers, the answer).
 */
export interface RouteInput {
  ctx: Ctx;
  /** One value per `:name` of the path. */
  params: Record<string, string>;
  body: Request['body'];
  req: Request;
  res: Response;
  next: NextFunction;
}

/** A route served by Express: its handler sends the answer (JSON with sendData, or bytes). */
export interface ExpressRoute extends Declared {
  handle(input: RouteInput): Promise<void> | void;
}

/**
 * A route of the player's hot path, served by byte-server.ts ahead of Express on node's own
 * request and response. A GET route answers HEAD all the same (as Express does), without the body.
 */
export interface ByteRoute extends Declared {
  /**
   * Where the credential is: in the URL (stream token, signed URL, chapter grant), and the route
   * checks any bearer token together with it; or in the Authorization header, authenticated before
   * the route as on every other route. An API key is authenticated before the route either way, so
   * its scopes and rate limit are checked as everywhere.
   */
  credential: 'url' | 'header';
  /** Answers the request; `param` is the path parameter (decoded), `query` what follows the `?`. */
  serve(ctx: Ctx, exchange: ByteExchange, param: string, query: string): Promise<void>;
}

export function isByteRoute(route: Route): route is ByteRoute {
  return 'serve' in route;
}

/** Declares a feature's routes; typed so a routes file reads as a plain list. */
export function routes(list: Route[]): Route[] {
  return list;
}
