import { createPubSub } from '@graphql-yoga/subscription';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppPubSub } from '../../event-bus.js';
import { createSchema } from '../../compose/schema.js';
import type { Session } from '../factories.js';
import { startTestApp, type TestApp } from '../harness.js';
import { graphqlOperations } from '../operation-inventory.js';
import { graphqlCases, type GraphqlVariant } from './graphql-cases.js';
import {
  credentials,
  expectNoDataChange,
  inBatches,
  personas,
  sendSafely,
  signInPersonas,
  valuesOfKey,
  type Persona,
} from './hostile-session.js';

/**
 * Every GraphQL operation of the schema, called by each kind of caller with one hostile part at a
 * time: wrong types, nulls, SQL, script, traversal, over-long and NUL-carrying strings, huge lists.
 */

const schema = await createSchema(createPubSub() as AppPubSub);
const cases = graphqlCases(schema);

let t: TestApp;
let sessions: Record<Persona, Session | null>;
beforeAll(async () => {
  t = await startTestApp();
  sessions = await signInPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

interface GqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

async function post(body: unknown, persona: Persona, label: string) {
  const res = await sendSafely(
    t,
    {
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', ...credentials(sessions[persona]) },
      body: JSON.stringify(body),
    },
    `${persona}: ${label}`,
  );
  return { res, body: JSON.parse(res.text) as GqlBody };
}

/** Sends one variant; true when a mutation accepted it (and so may have stored something). */
async function runVariant(kind: string, document: string, v: GraphqlVariant, persona: Persona): Promise<boolean> {
  const { body } = await post({ query: document, variables: v.variables }, persona, v.label);
  const context = `${persona}: ${v.label}: ${JSON.stringify(body).slice(0, 300)}`;
  for (const error of body.errors ?? []) expect(error.extensions?.code, context).not.toBe('INTERNAL');
  const result = body.data ? Object.values(body.data)[0] : null;
  const refused =
    (body.errors?.length ?? 0) > 0 || result === null || (result as { success?: boolean }).success === false;
  if (v.mustBeRefused) expect(refused, context).toBe(true);
  if (refused || kind !== 'mutation') return false;
  if (v.stored) {
    for (const value of valuesOfKey(result, v.stored.field)) {
      if (typeof value === 'string') expect(value, `${context}: stored text comes back verbatim`).toBe(v.stored.text);
    }
  }
  return true;
}

describe('hostile GraphQL input', () => {
  it('covers every operation of the schema', () => {
    expect(cases.map((c) => c.operation).sort()).toEqual(graphqlOperations(schema));
    expect(cases.filter((c) => c.variants.length > 0).length).toBeGreaterThan(30);
  });

  it.each(cases.map((c) => [c.operation, c] as const))(
    '%s refuses hostile variables from every caller without a 5xx or a data change',
    async (_op, c) => {
      for (const persona of personas) {
        await expectNoDataChange(t, `${persona} ${c.operation}`, async () => {
          let accepted = false;
          // Without its variables, a query must refuse cleanly too (mutations are left alone: logout would end the session).
          if (c.kind !== 'mutation') await post({ query: c.document }, persona, 'no variables');
          // Only administrators get past the permission checks of most operations: they get every variant.
          const variants = persona === 'admin' ? c.variants : c.variants.filter((v) => v.core);
          await inBatches(variants, 8, async (v) => {
            if (await runVariant(c.kind, c.document, v, persona)) accepted = true;
          });
          return accepted;
        });
      }
      // The callers are still signed in, so no later operation is judged as a stranger by mistake.
      for (const persona of ['user', 'admin'] as const) {
        const { body } = await post({ query: '{ me { id } }' }, persona, 'still signed in');
        expect(body.data?.me, `${persona} is still signed in after ${c.operation}`).toBeTruthy();
      }
    },
  );
});

describe('hostile GraphQL documents', () => {
  const admin = (body: unknown, label: string) => post(body, 'admin', label);
  const anonymous = (body: unknown, label: string) => post(body, 'anonymous', label);
  const codes = (body: GqlBody) => (body.errors ?? []).map((e) => e.extensions?.code);

  it('refuses introspection to anonymous callers however it is dressed up', async () => {
    for (const query of [
      '{ __schema { types { name fields { name } } } }',
      '{ __type(name: "User") { fields { name } } }',
      '{ s: __schema { queryType { name } } }',
      'query { ...F } fragment F on Query { __schema { mutationType { name } } }',
      '{ ... on Query { __type(name: "Mutation") { name } } }',
    ]) {
      const { body } = await anonymous({ query }, query);
      expect(codes(body), query).toEqual(['UNAUTHENTICATED']);
      expect(JSON.stringify(body), query).not.toMatch(/"User"|Mutation"|fields/);
    }
  });

  it('gives anonymous callers no field suggestions that would map the schema', async () => {
    const { body } = await anonymous({ query: '{ audioFils { id } adminUsr { id } }' }, 'typo');
    expect(codes(body)).toContain('BAD_USER_INPUT');
    expect(JSON.stringify(body)).not.toMatch(/Did you mean/i);
  });

  it('refuses at once, even anonymously, fragments that expand exponentially without selecting a field', async () => {
    // F0 spreads F1 twice, F1 spreads F2 twice, ... F30 spreads a fragment that does not exist.
    const fragments = Array.from({ length: 30 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`);
    const query = `query { ...F0 } ${fragments.join(' ')} fragment F30 on Query { ...Missing }`;
    const started = Date.now();
    const { body } = await anonymous({ query }, 'exponential fragments');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(body.errors?.length).toBeGreaterThan(0);
    expect(
      codes(body).every((c) => c === 'BAD_USER_INPUT'),
      JSON.stringify(codes(body)),
    ).toBe(true);
  });

  it('runs at most 20 top-level fields per operation, however they are aliased', async () => {
    const aliased = (n: number, field: string) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
    const within = await admin({ query: aliased(20, 'audioFiles(limit: 100) { total }') }, 'twenty lists');
    expect(within.body.errors).toBeUndefined();
    for (const [label, query] of Object.entries({
      lists: aliased(21, 'audioFiles(limit: 100) { total }'),
      mutations: `mutation ${aliased(21, 'logout')}`,
      viaFragment: `query { ...F } fragment F on Query ${aliased(21, '__typename')}`,
    })) {
      const { body } = await admin({ query }, label);
      expect(codes(body), label).toEqual(['BAD_USER_INPUT']);
      expect(body.errors?.[0].message, label).toMatch(/too many top-level fields/);
    }
    // Refused before running: the admin's session did not log out 21 times, or at all.
    expect((await admin({ query: '{ me { id } }' }, 'still signed in')).body.errors).toBeUndefined();
  });

  it('refuses documents nested too deeply, with fragment cycles, or too wide', async () => {
    const deepSelection = `{ me ${'{ id '.repeat(3000)}${'}'.repeat(3000)} }`;
    const wide = `{ ${Array.from({ length: 2000 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const aliasesOfMe = `{ ${Array.from({ length: 800 }, (_, i) => `m${i}: me { id name email }`).join(' ')} }`;
    const cycle = 'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }';
    const directives = `{ __typename ${'@skip(if: false) '.repeat(3000)}}`;
    for (const [label, query] of Object.entries({ deepSelection, wide, aliasesOfMe, cycle, directives })) {
      const { body } = await admin({ query }, label);
      expect(body.errors?.length, label).toBeGreaterThan(0);
      expect(
        codes(body).every((c) => c === 'BAD_USER_INPUT'),
        `${label}: ${JSON.stringify(codes(body))}`,
      ).toBe(true);
    }
  });

  it('refuses batched, malformed and misdirected requests', async () => {
    const base = { method: 'POST', path: '/graphql' };
    const json = { 'content-type': 'application/json' };
    const requests: [string, Parameters<typeof sendSafely>[1]][] = [
      [
        'batch',
        { ...base, headers: json, body: JSON.stringify([{ query: '{ me { id } }' }, { query: '{ me { id } }' }]) },
      ],
      ['broken JSON', { ...base, headers: json, body: '{"query": "{ me { id } }"' }],
      ['query not a string', { ...base, headers: json, body: JSON.stringify({ query: 42 }) }],
      [
        'variables not an object',
        { ...base, headers: json, body: JSON.stringify({ query: '{ me { id } }', variables: 'x' }) },
      ],
      [
        'unknown operation name',
        { ...base, headers: json, body: JSON.stringify({ query: 'query A { me { id } }', operationName: 'B' }) },
      ],
      [
        'two operations, none named',
        { ...base, headers: json, body: JSON.stringify({ query: 'query A { me { id } } query B { me { id } }' }) },
      ],
      ['no query', { ...base, headers: json, body: '{}' }],
      ['text/plain (CSRF)', { ...base, headers: { 'content-type': 'text/plain' }, body: '{"query":"{ me { id } }"}' }],
      [
        'form (CSRF)',
        { ...base, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'query=%7Bme%7Bid%7D%7D' },
      ],
      [
        'over 100 kB',
        { ...base, headers: json, body: JSON.stringify({ query: `{ me { id } } #${'x'.repeat(150_000)}` }) },
      ],
      [
        'mutation over GET',
        {
          method: 'GET',
          path: `/graphql?query=${encodeURIComponent('mutation { logout }')}`,
          headers: { 'apollo-require-preflight': '1' },
        },
      ],
      [
        'subscription over HTTP',
        { ...base, headers: json, body: JSON.stringify({ query: 'subscription { securityEvents { type } }' }) },
      ],
      [
        'huge header',
        { ...base, headers: { ...json, 'x-padding': 'x'.repeat(20_000) }, body: '{"query":"{ __typename }"}' },
      ],
    ];
    for (const [label, req] of requests) {
      if (label === 'huge header') {
        // Refused by Node's HTTP parser itself, before the app (and its headers) are reached.
        const { rawRequest } = await import('./response-checks.js');
        expect((await rawRequest(t.url, req)).status, label).toBe(431);
        continue;
      }
      const res = await sendSafely(t, req, label);
      expect(res.status, label).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('the WebSocket', () => {
  /** What the server answers one operation sent over graphql-ws as the user: errors, or 'ok'. */
  async function overSocket(query: string): Promise<{ message: string; code?: string }[] | 'ok'> {
    const user = sessions.user as Session;
    const client = createClient({
      url: t.url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${user.token}`, deviceId: user.deviceId },
      retryAttempts: 0,
    });
    try {
      return await new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve('ok'), 1500);
        client.subscribe(
          { query },
          {
            next: () => undefined,
            error: (err) => {
              clearTimeout(timer);
              if (!Array.isArray(err)) return reject(err instanceof Error ? err : new Error(JSON.stringify(err)));
              const errors = err as { message: string; extensions?: { code?: string } }[];
              resolve(errors.map((e) => ({ message: e.message, code: e.extensions?.code })));
            },
            complete: () => undefined,
          },
        );
      });
    } finally {
      await client.dispose();
    }
  }

  it('serves subscriptions only, under the HTTP limits, with errors worded as over HTTP', async () => {
    expect(await overSocket('subscription { securityEvents { type } }')).toBe('ok');
    const query = await overSocket('{ me { id } }');
    expect(query).toEqual([
      expect.objectContaining({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/Only subscriptions/) }),
    ]);
    const mutation = await overSocket('mutation { logout }');
    expect(mutation).toEqual([expect.objectContaining({ code: 'BAD_USER_INPUT' })]);
    const wide = `subscription { securityEvents { ${Array.from({ length: 1600 }, (_, i) => `a${i}: type`).join(' ')} } }`;
    expect(await overSocket(wide)).toEqual([
      expect.objectContaining({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/too many fields/) }),
    ]);
    const fragments = Array.from(
      { length: 30 },
      (_, i) => `fragment F${i} on SecurityEvent { ...F${i + 1} ...F${i + 1} }`,
    );
    const exploding = `subscription { securityEvents { ...F0 } } ${fragments.join(' ')} fragment F30 on SecurityEvent { ...Missing }`;
    const started = Date.now();
    const refused = await overSocket(exploding);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(refused).not.toBe('ok');
    // The session that asked is still signed in: none of this was a logout.
    expect((await t.rest('GET', '/auth/me', undefined, sessions.user as Session)).status).toBe(200);
  });
});
