import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, createUser, signIn, type Session } from '../test/factories.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { credentials } from '../test/hostile/hostile-session.js';
import { expectSafeResponse, rawRequest, type RawRequest, type RawResponse } from '../test/hostile/response-checks.js';

/** The installed @apollo/server's version, read from its package.json (which it does not export). */
const apolloEntry = createRequire(import.meta.url).resolve('@apollo/server');
const apolloPackage = path.join(
  apolloEntry.slice(0, apolloEntry.lastIndexOf(`${path.sep}dist${path.sep}`)),
  'package.json',
);
const apolloVersion = (JSON.parse(readFileSync(apolloPackage, 'utf8')) as { version: string }).version;

let t: TestApp;
let admin: Session;
let user: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  user = await signIn(t, (await createUser(t)).email);
});
afterAll(async () => {
  await t?.close();
});

/** What a browser sends when someone types the address in. */
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const typename = `/graphql?query=${encodeURIComponent('{ __typename }')}`;

const send = (req: RawRequest) => rawRequest(t.url, req);

/** Nothing in the answer, headers or body, names the GraphQL server or its version. */
function expectNoServerName(res: RawResponse, label: string): void {
  const text = `${JSON.stringify(res.headers)}\n${res.text}`;
  expect(text, label).not.toMatch(/@apollo\/server|apollo server|apollographql|landing ?page|sandbox/i);
  expect(text, label).not.toContain(apolloVersion);
}

describe('GET /graphql without an operation', () => {
  it('answers a browser, a signed-in user and a plain GET 400 in the GraphQL error shape, with no landing page', async () => {
    for (const [label, headers] of [
      ['browser', BROWSER],
      ['signed-in user', { ...BROWSER, ...credentials(user) }],
      ['no headers', {}],
    ] as const) {
      const res = await send({ method: 'GET', path: '/graphql', headers });
      expect(res.status, label).toBe(400);
      expect(JSON.parse(res.text), label).toEqual({
        errors: [{ message: 'No GraphQL operation in this request', extensions: { code: 'BAD_USER_INPUT' } }],
        data: null,
      });
      expectSafeResponse(res, label);
      expectNoServerName(res, label);
    }
    const head = await send({ method: 'HEAD', path: '/graphql', headers: BROWSER });
    expect([head.status, head.text]).toEqual([400, '']);
  });

  it("sends an administrator's device session to the app's GraphQL explorer", async () => {
    const res = await send({ method: 'GET', path: '/graphql', headers: { ...BROWSER, ...credentials(admin) } });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/admin/graphql');
    expectNoServerName(res, 'administrator');
  });
});

describe('GraphQL over GET with an operation', () => {
  it('still answers a query, from a browser too, with the CSRF preflight header', async () => {
    for (const headers of [{}, BROWSER]) {
      const res = await send({
        method: 'GET',
        path: typename,
        headers: { ...headers, 'apollo-require-preflight': '1' },
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({ data: { __typename: 'Query' } });
      expectNoServerName(res, 'query over GET');
    }
  });

  it('still refuses one without the preflight header (CSRF), and a mutation', async () => {
    const csrf = await send({ method: 'GET', path: typename, headers: BROWSER });
    expect(csrf.status).toBe(400);
    expect(csrf.text).toMatch(/Cross-Site Request Forgery/);
    const mutation = `/graphql?query=${encodeURIComponent('mutation { logout }')}`;
    const refused = await send({ method: 'GET', path: mutation, headers: { 'apollo-require-preflight': '1' } });
    expect(refused.status).toBe(405);
  });
});

describe('other methods', () => {
  it('are answered 405 in the GraphQL error shape, with the methods GraphQL takes', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const res = await send({ method, path: typename, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect([res.status, res.headers.allow], method).toEqual([405, 'GET, POST']);
      expect(JSON.parse(res.text), method).toEqual({
        errors: [{ message: 'GraphQL takes GET and POST requests', extensions: { code: 'BAD_USER_INPUT' } }],
        data: null,
      });
    }
  });
});

describe('answers of /graphql', () => {
  it('never name the GraphQL server or its version', async () => {
    const json = { 'content-type': 'application/json' };
    const requests: [string, RawRequest][] = [
      ['visit', { method: 'GET', path: '/graphql', headers: BROWSER }],
      ['query over GET', { method: 'GET', path: typename, headers: { 'apollo-require-preflight': '1' } }],
      [
        'empty query over GET',
        { method: 'GET', path: '/graphql?query=', headers: { 'apollo-require-preflight': '1' } },
      ],
      [
        'persisted query',
        { method: 'GET', path: '/graphql?extensions={}', headers: { 'apollo-require-preflight': '1' } },
      ],
      ['query', { method: 'POST', path: '/graphql', headers: json, body: '{"query":"{ __typename }"}' }],
      ['bad JSON', { method: 'POST', path: '/graphql', headers: json, body: '{"query":' }],
      ['no body', { method: 'POST', path: '/graphql', headers: json, body: '{}' }],
      ['syntax error', { method: 'POST', path: '/graphql', headers: json, body: '{"query":"{"}' }],
      ['text body', { method: 'POST', path: '/graphql', headers: { 'content-type': 'text/plain' }, body: 'x' }],
      ['OPTIONS', { method: 'OPTIONS', path: '/graphql', headers: BROWSER }],
      ['PUT', { method: 'PUT', path: '/graphql', headers: json, body: '{}' }],
    ];
    for (const [label, req] of requests) {
      const res = await send(req);
      expect(res.status, label).toBeLessThan(500);
      expectNoServerName(res, `${label} (${res.status})`);
    }
  });
});
