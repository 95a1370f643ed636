import type { ServerOptions } from 'node:http';

/**
 * The node:http server's timeouts, for a server behind a load balancer:
 * - keepAliveTimeout above the balancer's idle timeout (nginx's and cloud balancers' 60 s): with
 *   Node's 5 s, the server closes idle connections the balancer still holds, and a request the
 *   balancer sends on one as it closes is reset.
 * - headersTimeout above keepAliveTimeout, as balancer guides ask (Node before 18 counted an idle
 *   connection's wait for its next request against it); Node 24 applies it to a request's headers only.
 * - no requestTimeout (Node's 5 minutes for a whole request would cut a large upload on a slow
 *   link): bodyTimeouts limits bodies instead, and answers (streams) have no time limit.
 */
export function serverTimeouts(keepAliveTimeoutSeconds: number): ServerOptions {
  const keepAliveTimeout = keepAliveTimeoutSeconds * 1000;
  return { keepAliveTimeout, headersTimeout: keepAliveTimeout + 1000, requestTimeout: 0 };
}
