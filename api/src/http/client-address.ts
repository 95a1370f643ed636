import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

/** Whose forwarding headers are believed: a reverse proxy on this machine (Express's `trust proxy`). */
export const TRUSTED_PROXIES = 'loopback';
const trusted = proxyAddr.compile(TRUSTED_PROXIES);

/**
 * The client's address as Express's req.ip gives it under TRUSTED_PROXIES, for any node request:
 * the byte routes are served without Express, and WebSocket upgrades never pass through it.
 */
export function clientIp(req: IncomingMessage): string | null {
  return proxyAddr(req, trusted) ?? req.socket.remoteAddress ?? null;
}

/** Whether the client reached us over TLS, as Express's req.secure says it under TRUSTED_PROXIES. */
export function cameOverTls(req: IncomingMessage): boolean {
  const direct = 'encrypted' in req.socket && req.socket.encrypted === true;
  const forwarded = req.headers['x-forwarded-proto'];
  if (typeof forwarded !== 'string' || !forwarded || !trusted(req.socket.remoteAddress ?? '', 0)) return direct;
  return forwarded.split(',')[0].trim() === 'https';
}
