import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import type { ProxyTrust } from '../config.js';

/**
 * The client's address as Express's req.ip gives it under the same `trust proxy` (TRUST_PROXY), for
 * any node request: the byte routes are served without Express, and WebSocket upgrades never pass
 * through it.
 */
export function clientIp(req: IncomingMessage, trust: ProxyTrust): string | null {
  return proxyAddr(req, trust) ?? req.socket.remoteAddress ?? null;
}

/** Whether the client reached us over TLS, as Express's req.secure says it under the same `trust proxy`. */
export function cameOverTls(req: IncomingMessage, trust: ProxyTrust): boolean {
  const direct = 'encrypted' in req.socket && req.socket.encrypted === true;
  const forwarded = req.headers['x-forwarded-proto'];
  if (typeof forwarded !== 'string' || !forwarded || !trust(req.socket.remoteAddress ?? '', 0)) return direct;
  return forwarded.split(',')[0].trim() === 'https';
}
