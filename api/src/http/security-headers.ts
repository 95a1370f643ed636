import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

/** Strict headers for every response: the app's own origin and nothing else. */
export function securityHeaders() {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        // 'self' also covers the same origin's ws:/wss: (CSP 3); bare ws: wss: would allow any host.
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * The headers securityHeaders() sets, worked out once as name, value, name, value...: they depend
 * on nothing in the request, and a player's byte requests (served ahead of Express, see
 * byte-server.ts) then pay no middleware call per range.
 */
export function fixedSecurityHeaders(): string[] {
  const headers: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push(name, value),
    removeHeader: () => undefined,
  };
  securityHeaders()({} as Request, recorder as unknown as Response, () => undefined);
  return headers;
}

/**
 * API answers are private to their caller (tokens, profiles, library pages): never stored by a
 * browser or proxy, so nothing of them outlives a logout. A route that may be cached (audio
 * segments, covers, the API description) sets its own Cache-Control over this one.
 */
export function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}
