import type { NextFunction, Request, Response } from 'express';

declare module 'express-serve-static-core' {
  interface Locals {
    /** Lifts the whole-body deadline of this request (see bodyTimeouts). */
    liftBodyDeadline?: () => void;
  }
}

/** Whether a request announces a body (a length above 0, or chunked encoding). */
export function hasRequestBody(req: Request): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Limits on the time a request body takes, in place of Node's own (a whole request within 5
 * minutes, server.requestTimeout, turned off in server-timeouts.ts), which would cut an
 * administrator's upload of a large file over a slow link however steadily its bytes flowed:
 * - a body that sends nothing for `idleMs` is cut, whoever sends it;
 * - a body still incomplete after five times that is cut too, unless its route lifted the deadline
 *   with liftBodyDeadline (uploads, once the caller is known to be an administrator), so no one
 *   holds a connection open by sending a byte now and then.
 * Slow headers stay bounded by Node's headersTimeout.
 */
export function bodyTimeouts(idleMs: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (hasRequestBody(req) && !req.complete) {
      // With no 'timeout' listener anywhere, Node destroys the socket when it fires; the body's
      // reader then sees the request aborted, as when the client goes away.
      req.setTimeout(idleMs);
      const deadline = setTimeout(() => req.destroy(), idleMs * 5);
      deadline.unref();
      res.locals.liftBodyDeadline = () => clearTimeout(deadline);
      req.once('close', () => clearTimeout(deadline));
      req.once('end', () => {
        clearTimeout(deadline);
        // A response may take its time once the body is in (a kept-alive socket has its own timer).
        req.setTimeout(0);
      });
    }
    next();
  };
}
