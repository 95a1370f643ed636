import type { NextFunction, Request, Response } from 'express';

/**
 * Cuts the connection of a request whose body stops arriving for `idleMs`. It stands in for Node's
 * own limit, a whole request within 5 minutes (server.requestTimeout, turned off in app.ts), which
 * would cut a direct upload of a large file over a slow link however steadily its bytes flowed:
 * here a body may take as long as it needs, as long as it keeps coming. Slow headers stay bounded
 * by Node's headersTimeout.
 */
export function bodyIdleTimeout(idleMs: number) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.complete) {
      // With no 'timeout' listener anywhere, Node destroys the socket when it fires; the body's
      // reader then sees the request aborted, as when the client goes away.
      req.setTimeout(idleMs);
      // A response may take its time once the body is in (a kept-alive socket has its own timer).
      req.once('end', () => req.setTimeout(0));
    }
    next();
  };
}
