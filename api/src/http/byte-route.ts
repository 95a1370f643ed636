import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A byte request and its answer, as a byte route (route.ts) serves it. The answer's headers are
 * gathered here and go out with its status in one writeHead: node's setHeader costs more per
 * header (it checks the name and value, keeps a lower-cased copy and an entry for each), and a
 * 64 KiB range carries about twenty. Headers set on the response itself (cookies) go out with them.
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
