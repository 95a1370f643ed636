import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Ctx } from '../context.js';

/**
 * A route of the player's hot path under /api/v1, served by byte-server.ts ahead of Express on
 * node's own request and response (Express's extend them).
 */
export interface ByteRoute {
  /** The path under /api/v1 with its one `:parameter`, as the REST contract writes it. */
  path: string;
  /** The methods the contract lists; a GET route answers HEAD all the same (as Express does), without the body. */
  methods: ('GET' | 'HEAD')[];
  /**
   * Where the credential is: in the URL (stream token, signed URL, chapter grant), and the route
   * checks any bearer token together with it; or in the Authorization header, authenticated before
   * the route as on every other route. An API key is authenticated before the route either way, so
   * its scopes and rate limit are checked as everywhere.
   */
  credential: 'url' | 'header';
  /** Answers the request; `param` is the path parameter (decoded), `query` what follows the `?`. */
  serve(ctx: Ctx, req: IncomingMessage, res: ServerResponse, param: string, query: string): Promise<void>;
}

/** A whole answer of this type, as Express's res.send gives it: its length, and no body for HEAD. */
export function sendBody(req: IncomingMessage, res: ServerResponse, contentType: string, body: string | Buffer): void {
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
}
