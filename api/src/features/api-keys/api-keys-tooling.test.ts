import { readFileSync } from 'node:fs';
import { codegen } from '@graphql-codegen/core';
import * as typescriptPlugin from '@graphql-codegen/typescript';
import { buildClientSchema, getIntrospectionQuery, parse, printSchema, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey as newKeyAs, subscribeWithKey, waitFor } from '../../test/api-keys.js';
import { createAdminSession, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createAudioFile } from '../../test/library-fixtures.js';

let t: TestApp;
let admin: Session;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
});

async function newKey(scopes: string[], extra: Record<string, unknown> = {}): Promise<{ secret: string; id: string }> {
  const key = await newKeyAs(t, admin, admin.userId, scopes, { name: 'tooling', ...extra });
  return { secret: key.secret, id: key.apiKey.id };
}

describe('API keys with standard tooling', () => {
  it('serve the SDL at /graphql/schema.graphql to keys and signed-in callers, not to anonymous ones', async () => {
    const key = await newKey(['LIBRARY_READ']);
    const res = await fetch(`${t.url}/graphql/schema.graphql`, { headers: { authorization: `Bearer ${key.secret}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const committed = readFileSync(new URL('../../../../schema.graphql', import.meta.url), 'utf8');
    expect(await res.text()).toBe(committed);
    expect((await fetch(`${t.url}/graphql/schema.graphql`)).status).toBe(401);
  });

  it('let graphql-codegen generate types from the live /graphql with a key', async () => {
    const key = await newKey(['LIBRARY_READ']);
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.secret}` },
      body: JSON.stringify({ query: getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }) }),
    });
    const body = (await res.json()) as { data: IntrospectionQuery; errors?: unknown };
    expect(body.errors).toBeUndefined();
    const schema = buildClientSchema(body.data);
    const output = await codegen({
      filename: 'live.ts',
      schema: parse(printSchema(schema)),
      schemaAst: schema,
      documents: [],
      config: {},
      plugins: [{ typescript: {} }],
      pluginMap: { typescript: typescriptPlugin },
    });
    expect(output).toMatch(/export type AudioFile = \{/);
    expect(output).toMatch(/export enum ApiKeyScope \{/);
    expect(output).toMatch(/createApiKey: CreatedApiKey;/);
    expect(output).toMatch(/export type AudioFileConnection = \{/);
    expect(output).toMatch(/export enum ErrorCode \{/);
  });

  it('keep a graphql-ws subscription of a key open until the key is revoked', async () => {
    const file = await createAudioFile(t);
    const key = await newKey(['LIBRARY_READ']);
    const sub = subscribeWithKey(t.url, key.secret, file.id);
    await sub.connected;
    await new Promise((r) => setTimeout(r, 150));
    const created = await t.gql(
      `mutation { createChapters(fileId: "${file.id}", chapters: [{ label: "One", startTime: 0 }]) { id } }`,
      {},
      admin,
    );
    expect(created.errors).toBeUndefined();
    await waitFor(() => sub.events.length > 0, 'a chapter event');
    expect(sub.events[0]).toEqual({ chapterEvents: { fileId: file.id, status: 'pending' } });

    await t.rest('DELETE', `/admin/api-keys/${key.id}`, undefined, admin);
    await waitFor(() => sub.closeCode() !== null, 'the socket to close');
    expect(sub.closeCode()).toBe(4403);
    await sub.dispose();
  });

  it('close the subscription of a key when it expires, and refuse it from then on', async () => {
    const file = await createAudioFile(t);
    const key = await newKey(['LIBRARY_READ'], { expiresAt: new Date(Date.now() + 2500).toISOString() });
    const sub = subscribeWithKey(t.url, key.secret, file.id);
    await sub.connected;
    await waitFor(() => sub.closeCode() !== null, 'the socket to close at expiry', 8000);
    expect(sub.closeCode()).toBe(4403);
    await sub.dispose();
    const after = await t.gql('{ audioFiles { total } }', {}, { token: key.secret });
    expect(after.errors?.[0].message).toMatch(/expired/);
  });
});
