import type { NextFunction, Request, Response } from 'express';
import type { Caller } from '../context.js';
import { AppError } from '../errors.js';
import { graphqlErrorBody } from '../http/errors.js';

/** The web app's GraphiQL page for administrators (web/src/app/router.tsx). */
export const graphqlExplorerPath = '/admin/graphql';

/**
 * Requests to /graphql that carry no GraphQL operation, which Apollo would answer in its own words
 * (its landing page, off, named Apollo Server and its version; other methods get "Apollo Server
 * supports only GET/POST requests"). A GET without `query` (nor `extensions`, for a persisted
 * query) is a browser's visit: a caller who `mayExplore` (an administrator's device session) goes
 * to the app's own explorer, anyone else gets 400. A method other than GET and POST gets 405. All else goes on to Apollo.
 */
export function requestsWithoutOperation(mayExplore: (caller: Caller) => boolean) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const params = new URLSearchParams(req.url.split('?')[1] ?? '');
    const hasOperation = params.has('query') || params.has('extensions');
    if (req.method === 'POST' || (req.method === 'GET' && hasOperation)) return next();
    if ((req.method === 'GET' || req.method === 'HEAD') && !hasOperation) {
      const caller = res.locals.ctx.caller;
      if (caller && mayExplore(caller)) return res.redirect(303, graphqlExplorerPath);
      return next(new AppError('BAD_USER_INPUT', 'No GraphQL operation in this request'));
    }
    res.setHeader('Allow', 'GET, POST');
    res.status(405).json(graphqlErrorBody(new AppError('BAD_USER_INPUT', 'GraphQL takes GET and POST requests')));
  };
}
