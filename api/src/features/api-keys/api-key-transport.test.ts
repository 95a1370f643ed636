import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asKey, newKey, subscribeWithKey, waitFor } from '../../test/api-keys.js';
import { countQueries } from '../../test/count-queries.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createAudioFile } from '../../test/library-fixtures.js';
import { chunkedClient } from '../../test/upload-client.js';
import { UserRole } from '../users/user.entity.js';
import { ApiKey } from './api-key.entity.js';

/** API keys on the byte routes and the WebSocket: checked once, counted, addressed and ended as over HTTP. */

let t: TestApp;
let admin: Session;
let fileId: string;

beforeAll(async () => {
  // Behind a proxy on this machine, whose X-Forwarded-For names the client (a key's last address).
  t = await startTestApp({ env: { TRUST_PROXY: 'loopback' } });
  admin = await createAdminSession(t);
  fileId = (await createAudioFile(t)).id;
});
afterAll(async () => {
  await t?.close();
});

const keyStatements = (statements: string[]) => statements.filter((s) => /from api_keys k/.test(s)).length;

describe('API keys over every transport', () => {
  it('let a script read the library over GraphQL, REST and graphql-ws while the account signs in from its one browser', async () => {
    const owner = await createUser(t, { role: UserRole.admin, name: 'Script Owner' });
    const key = await newKey(t, admin, owner.id, ['LIBRARY_READ']);
    const library = '{ audioFilesConnection(first: 100) { totalCount edges { node { id } } } }';
    const overGraphql = await t.gql<{ audioFilesConnection: { totalCount: number } }>(library, {}, asKey(key.secret));
    expect(overGraphql.errors).toBeUndefined();
    expect(overGraphql.data!.audioFilesConnection.totalCount).toBeGreaterThan(0);
    const sub = subscribeWithKey(t.url, key.secret, fileId);
    await sub.connected;

    // The person signs in from their browser meanwhile: their one device, no lock, no approval asked again.
    const browser = await signIn(t, owner.email);
    const me = await t.gql<{ me: { isLocked: boolean; sessionCount: number } }>(
      '{ me { isLocked sessionCount } }',
      {},
      browser,
    );
    expect(me.data!.me).toEqual({ isLocked: false, sessionCount: 1 });

    const overRest = await t.rest<{ total: number }>('GET', '/files', undefined, asKey(key.secret));
    expect(overRest.status).toBe(200);
    expect(overRest.body.total).toBe(overGraphql.data!.audioFilesConnection.totalCount);
    const created = await t.gql(
      `mutation { createChapters(fileId: "${fileId}", chapters: [{ label: "Script", startTime: 0 }]) { id } }`,
      {},
      browser,
    );
    expect(created.errors).toBeUndefined();
    await waitFor(() => sub.events.length > 0, "a chapter event on the script's socket");
    expect(sub.closeCode()).toBeNull();
    expect((await t.gql('{ audioFiles { total } }', {}, browser)).errors).toBeUndefined();
    await sub.dispose();
  });

  it('are checked once per upload chunk, before the route, and counted once', async () => {
    const key = await newKey(t, admin, admin.userId, ['FILES_WRITE'], { rateLimitPerMinute: 3 });
    const client = chunkedClient(t, { token: key.secret, deviceId: '', userId: '', sessionId: '' });
    const bytes = new Uint8Array(4096).fill(7);
    const init = await client.init(bytes, 'key.wav');
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const { result, statements } = await countQueries(() => client.chunk(init.body.uploadId, bytes, 'key.wav', 0));
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(keyStatements(statements)).toBe(1);
    expect(result.headers.get('ratelimit-remaining')).toBe('1');
  });

  it('count a WebSocket connection and each subscription against the key, then refuse them', async () => {
    const key = await newKey(t, admin, admin.userId, ['LIBRARY_READ'], { rateLimitPerMinute: 3 });
    const sub = subscribeWithKey(t.url, key.secret, fileId);
    await sub.connected;
    // The connection and its first subscription made two uses; two more subscriptions: 3 is the limit.
    sub.subscribe();
    sub.subscribe();
    await waitFor(() => sub.errors.length > 0, 'the fourth use to be refused');
    expect(sub.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED' } });
    expect(sub.closeCode()).toBeNull();
    await sub.dispose();
    const another = subscribeWithKey(t.url, key.secret, fileId);
    await waitFor(() => another.closeCode() !== null, 'the fifth use to be refused');
    expect(another.closeCode()).toBe(4429);
    expect((await t.gql('{ me { id } }', {}, asKey(key.secret))).status).toBe(429);
  });

  it('take the client address from X-Forwarded-For on the WebSocket as over HTTP, behind a trusted proxy', async () => {
    const key = await newKey(t, admin, admin.userId, ['LIBRARY_READ']);
    const sub = subscribeWithKey(t.url, key.secret, fileId, { 'x-forwarded-for': '203.0.113.9' });
    await sub.connected;
    await sub.dispose();
    const stored = await t.app.orm.em.fork().findOneOrFail(ApiKey, key.apiKey.id);
    expect(stored.lastUsedIp).toBe('203.0.113.9');
    await t.gql('{ me { id } }', {}, { ...asKey(key.secret), headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect((await t.app.orm.em.fork().findOneOrFail(ApiKey, key.apiKey.id)).lastUsedIp).toBe('198.51.100.7');
  });

  it("close a key's socket when its user is demoted from administrator", async () => {
    const second = await createUser(t, { role: UserRole.admin });
    const key = await newKey(t, admin, second.id, ['LIBRARY_READ']);
    const sub = subscribeWithKey(t.url, key.secret, fileId);
    await sub.connected;
    const demoted = await t.gql(`mutation { updateUser(id: "${second.id}", input: { role: user }) { id } }`, {}, admin);
    expect(demoted.errors).toBeUndefined();
    await waitFor(() => sub.closeCode() !== null, 'the socket to close');
    expect(sub.closeCode()).toBe(4403);
    await sub.dispose();
    // The key itself still holds, with the user's rights now.
    expect((await t.gql('{ audioFiles { total } }', {}, asKey(key.secret))).errors).toBeUndefined();
  });
});
