import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, type Session } from '../test/factories.js';
import { startTestApp, type TestApp } from '../test/harness.js';

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
});

describe('the GraphQL endpoint guards', () => {
  it('refuses introspection to anonymous callers and allows it to signed-in integrators', async () => {
    const anonymous = await t.gql('{ __schema { queryType { name } } }');
    expect(anonymous.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const signedIn = await t.gql<{ __schema: { queryType: { name: string } } }>(
      '{ __schema { queryType { name } } }',
      {},
      admin,
    );
    expect(signedIn.data?.__schema.queryType.name).toBe('Query');
  });

  it('marks every answer as never to be stored by caches', async () => {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${admin.token}`,
        'x-device-id': admin.deviceId,
      },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('gives no field suggestions', async () => {
    const res = await t.gql('{ mee { id } }');
    expect(res.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(res.errors?.[0].message).not.toMatch(/Did you mean/);
  });

  it('refuses a query nested too deeply', async () => {
    expect((await t.gql('{ me { id } }', {}, admin)).errors).toBeUndefined();
    const deep = `{ me { ${'avatar { '.repeat(12)} id ${'} '.repeat(12)} } }`;
    const res = await t.gql(deep, {}, admin);
    expect(res.errors?.[0].message).toMatch(/nested too deeply/);
  });

  it("answers graphql-js's standard introspection query to signed-in callers, not to anonymous ones", async () => {
    const query = getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, specifiedByUrl: true });
    const res = await t.gql<IntrospectionQuery>(query, {}, admin);
    expect(res.errors).toBeUndefined();
    expect(buildClientSchema(res.data!).getQueryType()?.getFields().audioFiles).toBeDefined();
    expect((await t.gql(query)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('refuses introspection that goes from type to type list again and again', async () => {
    const costly = `{ __type(name: "Query") { ${'fields { type { '.repeat(3)} name ${'} } '.repeat(3)} } }`;
    const res = await t.gql(costly, {}, admin);
    expect(res.errors?.[0].message).toMatch(/Introspection is nested too deeply/);
  });

  it('refuses batched requests', async () => {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('maps wrongly typed variables to BAD_USER_INPUT', async () => {
    const res = await t.gql('mutation($input: LoginInput!) { login(input: $input) { success } }', {
      input: { email: 42, password: true },
    });
    expect(res.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});
