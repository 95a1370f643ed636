import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface RawRequest {
  method: string;
  /** Sent exactly as given: no URL normalisation, so `..` segments reach the server. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * One HTTP request through node:http rather than fetch, which would resolve `..` segments and
 * refuse oversized headers itself. The connection is not reused, so a refused request cannot
 * poison the next one.
 */
export function rawRequest(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        agent: false,
        headers: {
          connection: 'close',
          ...(req.body !== undefined ? { 'content-length': String(Buffer.byteLength(req.body)) } : {}),
          ...req.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

const appDir = fileURLToPath(new URL('../../..', import.meta.url));
/** What a leaked stack trace, source path or SQL error looks like. */
const leaks: RegExp[] = [
  /\n\s+at [^\n]*:\d+:\d+/,
  /\bat (?:async )?[\w.<>]+ \([^)]*:\d+:\d+\)/,
  new RegExp(appDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
  /node_modules/,
  /\.(?:ts|js|mjs):\d+/,
  /syntax error at or near|invalid input syntax|violates [\w ]*constraint|duplicate key value|relation "\w+"/i,
  /DriverException|QueryFailedError|TypeError:|ReferenceError:|RangeError:|MikroORM|knex/,
];

/** No stack trace, source path or SQL error in a body, whatever its status. */
export function expectNoLeak(text: string, context: string): void {
  for (const leak of leaks) expect(text, `${context}: leaks ${leak}`).not.toMatch(leak);
}

function header(res: RawResponse, name: string): string {
  const value = res.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/** The sources each CSP directive may name: the app's own origin, inline data it builds itself, nothing else. */
const allowedSources: Record<string, string[]> = {
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'blob:'],
  'font-src': ["'self'", 'data:'],
  'worker-src': ["'self'", 'blob:'],
};

/** Security headers every response of the app must carry, and no cookie without its protections. */
export function expectSecurityHeaders(res: RawResponse, label: string): void {
  const csp = header(res, 'content-security-policy');
  expect(csp, `${label}: Content-Security-Policy`).not.toBe('');
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name, sources] as const),
  );
  expect(directives.get('default-src'), `${label}: default-src`).toEqual(["'self'"]);
  expect(directives.get('script-src'), `${label}: script-src`).toEqual(["'self'"]);
  expect(directives.get('object-src'), `${label}: object-src`).toEqual(["'none'"]);
  expect(directives.get('frame-ancestors'), `${label}: frame-ancestors`).toEqual(["'none'"]);
  for (const [name, sources] of directives) {
    const allowed = allowedSources[name] ?? ["'self'", "'none'"];
    expect(
      sources.filter((s) => !allowed.includes(s)),
      `${label}: ${name} allows more than the app`,
    ).toEqual([]);
  }
  expect(header(res, 'x-content-type-options'), `${label}: nosniff`).toBe('nosniff');
  expect(header(res, 'x-frame-options').toUpperCase(), `${label}: frame denial`).toBe('DENY');
  expect(header(res, 'referrer-policy'), `${label}: Referrer-Policy`).toMatch(
    /^(no-referrer|same-origin|strict-origin)/,
  );
  const cookies = res.headers['set-cookie'] ?? [];
  for (const cookie of Array.isArray(cookies) ? cookies : [cookies]) {
    expect(cookie, `${label}: cookie flags`).toMatch(/;\s*HttpOnly/i);
    expect(cookie, `${label}: cookie flags`).toMatch(/;\s*SameSite=(Strict|Lax)/i);
  }
}

/**
 * What a hostile request may get back: a 4xx (or 2xx) with the app's headers, JSON when the body
 * is an error, and never a 5xx, a stack trace, a source path or an SQL error.
 */
export function expectSafeResponse(res: RawResponse, label: string): void {
  const context = `${label} -> ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeGreaterThanOrEqual(200);
  expect(res.status, context).toBeLessThan(500);
  expectNoLeak(res.text, context);
  expectSecurityHeaders(res, label);
  if (res.status >= 400) expect(header(res, 'content-type'), context).toMatch(/^application\/json/);
}
