import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Ctx } from '../context.js';

/**
 * A route of the player's hot path under /api/v1, served by byte-server.ts ahead of Express on
 * node's own request and response.
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
  serve(ctx: Ctx, exchange: ByteExchange, param: string, query: string): Promise<void>;
}

/**
 * A byte request and its answer. The answer's headers are gathered here and go out with its status
 * in one writeHead: node's setHeader costs more per header (it checks the name and value, keeps a
 * lower-cased copy and an entry for each), and a 64 KiB range carries about twenty. Headers set on
 * the response itself (cookies) go out with them.
 */
export class ByteExchange {
  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    /** Name, value, name, value...: taken as the exchange's own. */
    private readonly headers: string[],
  ) {}

  /** Sets a header of the answer, in place of one of the same name (spelt as here). */
  setHeader(name: string, value: string): void {
    for (let i = 0; i < this.headers.length; i += 2) {
      if (this.headers[i] === name) {
        this.headers[i + 1] = value;
        return;
      }
    }
    this.headers.push(name, value);
  }

  /** Writes the status and the headers; they leave with the first bytes of the body or its end. */
  writeHead(status: number): void {
    this.res.writeHead(status, this.headers);
  }

  /** A whole answer of this type, as Express's res.send gives it: its length, and no body for HEAD. */
  send(status: number, contentType: string, body: string | Buffer): void {
    this.setHeader('Content-Type', contentType);
    this.setHeader('Content-Length', String(Buffer.byteLength(body)));
    this.writeHead(status);
    this.res.end(this.req.method === 'HEAD' ? undefined : body);
  }
}
