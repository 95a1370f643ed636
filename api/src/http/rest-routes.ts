import { Router, type NextFunction, type Request, type Response } from 'express';
import { assertScopes } from '../api-key-scopes.js';
import { inMatchOrder, RouteTable } from './path-match.js';
import { isByteRoute, type Route } from './route.js';

/**
 * What an API key may reach is decided before any route runs: the scopes its route declares, and
 * a refusal for a path no route declares (a new route stays closed to keys until decided).
 */
function apiKeyScopeGuard(routes: readonly Route[]) {
  const table = new RouteTable(routes);
  return (req: Request, res: Response, next: NextFunction): void => {
    const { caller } = res.locals.ctx;
    if (caller?.apiKey) assertScopes(caller, table.find(req.method, req.path)?.route.scopes);
    next();
  };
}

/** The REST /api/v1 router of the declared routes; the byte routes are left to byte-server.ts. */
export function restRouter(routes: readonly Route[]): Router {
  const router = Router();
  router.use(apiKeyScopeGuard(routes));
  for (const route of inMatchOrder(routes)) {
    if (isByteRoute(route)) continue;
    // A declared path has only `:name` parameters, each one segment: never the array a wildcard gives.
    router[route.method](route.path, (req, res, next) =>
      route.handle({
        ctx: res.locals.ctx,
        params: req.params as Record<string, string>,
        body: req.body,
        req,
        res,
        next,
      }),
    );
  }
  return router;
}
