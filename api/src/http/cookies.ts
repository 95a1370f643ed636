import type { Request, Response } from 'express';
import type { CookieJar, CookieOptions } from '../context.js';

/** The request's cookies by name (first of a name wins); values that do not decode are skipped. */
function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // A malformed value is no credential: leave it out.
    }
  }
  return cookies;
}

/**
 * The cookies a service may read and set, parsed only when first read. Credentials set here are
 * always HttpOnly and SameSite=Strict, and Secure when the request came over TLS (req.secure
 * follows the app's trust proxy setting), so plain-HTTP development still works.
 */
export function cookieJar(req: Request, res: Response): CookieJar {
  let parsed: Map<string, string> | null = null;
  const base = () => ({ httpOnly: true, sameSite: 'strict' as const, secure: req.secure });
  return {
    get(name) {
      parsed ??= parseCookies(req.headers.cookie);
      return parsed.get(name) ?? null;
    },
    set(name: string, value: string, options: CookieOptions) {
      res.cookie(name, value, { ...base(), path: options.path, maxAge: options.maxAgeMs });
    },
    clear(name: string, options: Pick<CookieOptions, 'path'>) {
      res.clearCookie(name, { ...base(), path: options.path });
    },
  };
}
