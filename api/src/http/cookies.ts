import type { IncomingMessage, ServerResponse } from 'node:http';
import { serialize, type CookieSerializeOptions } from 'cookie';
import type { ProxyTrust } from '../config.js';
import type { CookieJar, CookieOptions } from '../context.js';
import { cameOverTls } from './client-address.js';

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
 * always HttpOnly and SameSite=Strict, and Secure when the request came over TLS (as req.secure
 * says it under the app's trust proxy setting), so plain-HTTP development still works. Written as
 * Express's res.cookie writes them, on Express's requests and on the byte routes' plain ones alike.
 */
export function cookieJar(
  req: IncomingMessage,
  res: Pick<ServerResponse, 'appendHeader'>,
  trust: ProxyTrust,
): CookieJar {
  let parsed: Map<string, string> | null = null;
  const write = (name: string, value: string, options: CookieSerializeOptions) =>
    res.appendHeader(
      'Set-Cookie',
      serialize(name, value, { httpOnly: true, sameSite: 'strict', secure: cameOverTls(req, trust), ...options }),
    );
  return {
    get(name) {
      parsed ??= parseCookies(req.headers.cookie);
      return parsed.get(name) ?? null;
    },
    set(name: string, value: string, options: CookieOptions) {
      const ms = options.maxAgeMs;
      const lifetime = ms === undefined ? {} : { maxAge: Math.floor(ms / 1000), expires: new Date(Date.now() + ms) };
      write(name, value, { path: options.path, ...lifetime });
    },
    clear(name: string, options: Pick<CookieOptions, 'path'>) {
      write(name, '', { path: options.path, expires: new Date(1) });
    },
  };
}
