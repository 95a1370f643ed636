import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asKey, createKey as createKeyAs, newKey as newKeyAs, type KeyInput } from '../../test/api-keys.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createAudioFiles, grantFile } from '../../test/library-fixtures.js';
import { UserRole, type User } from '../users/user.entity.js';
import { ApiKey } from './api-key.entity.js';

let t: TestApp;
let admin: Session;
let reader: User;
let files: { id: string }[];

beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  reader = await createUser(t, { name: 'Reader' });
  files = await createAudioFiles(t, 3, { isPublic: false });
  await grantFile(t, reader.id, [files[0].id, files[1].id]);
});
afterAll(async () => {
  await t?.close();
});

const createKey = (input: KeyInput) => createKeyAs(t, admin, input);
const newKey = (userId: string, scopes: string[], extra: Record<string, unknown> = {}) =>
  newKeyAs(t, admin, userId, scopes, extra);

const LIBRARY = '{ audioFiles { total items { id } } }';

describe('API keys', () => {
  it('are shown once, then listed by prefix only, with their creation in the audit log', async () => {
    const key = await newKey(reader.id, ['LIBRARY_READ']);
    expect(key.secret).toMatch(/^pal_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect(key.secret.startsWith(key.apiKey.prefix)).toBe(true);
    expect(key.apiKey.status).toBe('active');

    const list = await t.rest<{ data: Record<string, unknown>[] }>('GET', '/admin/api-keys', undefined, admin);
    const listed = list.body.data.find((k) => k.id === key.apiKey.id)!;
    expect(listed).toMatchObject({ prefix: key.apiKey.prefix, scopes: ['library:read'], userEmail: reader.email });
    expect(JSON.stringify(list.body)).not.toContain(key.secret.slice(20));
    const stored = await t.app.orm.em.fork().findOneOrFail(ApiKey, key.apiKey.id);
    expect(stored.secretHash).not.toContain(key.secret.slice(37));

    const audit = await t.gql<{ auditLog: { items: { action: string; email: string }[] } }>(
      '{ auditLog(limit: 50) { items { action email } } }',
      {},
      admin,
    );
    expect(audit.data!.auditLog.items).toContainEqual({ action: 'api_key.created', email: reader.email });
  });

  it('are managed by administrators only', async () => {
    const person = await signIn(t, (await createUser(t)).email);
    for (const [who, code] of [
      [null, 'UNAUTHENTICATED'],
      [person, 'FORBIDDEN'],
    ] as const) {
      expect((await t.gql('{ apiKeys { id } }', {}, who ?? {})).errors?.[0].extensions?.code).toBe(code);
      expect((await t.gql('{ apiKeyScopes { scope } }', {}, who ?? {})).errors?.[0].extensions?.code).toBe(code);
      const create = await t.gql(
        `mutation { createApiKey(input: { name: "n", userId: "${reader.id}", scopes: [LIBRARY_READ] }) { secret } }`,
        {},
        who ?? {},
      );
      expect(create.errors?.[0].extensions?.code).toBe(code);
      expect((await t.rest('GET', '/admin/api-keys', undefined, who ?? {})).status).toBe(
        code === 'FORBIDDEN' ? 403 : 401,
      );
      const revoke = await t.rest('DELETE', `/admin/api-keys/${reader.id}`, undefined, who ?? {});
      expect(revoke.status).toBe(code === 'FORBIDDEN' ? 403 : 401);
    }
  });

  it('with library:read list the library over GraphQL and REST while the account signs in from its one browser', async () => {
    const key = await newKey(reader.id, ['LIBRARY_READ']);
    const overGraphql = await t.gql<{ audioFiles: { total: number } }>(LIBRARY, {}, asKey(key.secret));
    expect(overGraphql.errors).toBeUndefined();
    expect(overGraphql.data!.audioFiles.total).toBe(2);

    // The person signs in from their browser: the one device allowed, no lock, no conflict.
    const browser = await signIn(t, reader.email);
    const me = await t.gql<{ me: { isLocked: boolean; sessionCount: number } }>(
      '{ me { isLocked sessionCount } }',
      {},
      browser,
    );
    expect(me.data!.me).toEqual({ isLocked: false, sessionCount: 1 });

    const overRest = await t.rest<{ data: { id: string }[]; total: number }>(
      'GET',
      '/files',
      undefined,
      asKey(key.secret),
    );
    expect(overRest.status).toBe(200);
    expect(overRest.body.total).toBe(2);
    expect(overRest.headers.get('ratelimit-limit')).toBe('600');
    expect(Number(overRest.headers.get('ratelimit-remaining'))).toBeLessThan(600);
    expect(Number(overRest.headers.get('ratelimit-reset'))).toBeGreaterThan(0);

    // Both still work side by side.
    expect((await t.gql(LIBRARY, {}, browser)).errors).toBeUndefined();
    expect((await t.gql(LIBRARY, {}, asKey(key.secret))).errors).toBeUndefined();
  });

  it('refuse what their scopes do not name, and every change with library:read only', async () => {
    const key = await newKey(admin.userId, ['LIBRARY_READ']);
    const create = await t.gql(
      'mutation { createUser(input: { name: "X", email: "x-by-key@example.com", password: "long-enough-1" }) { id } }',
      {},
      asKey(key.secret),
    );
    expect(create.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(create.errors?.[0].message).toMatch(/users:write/);
    const restCreate = await t.rest(
      'POST',
      '/admin/users',
      { name: 'X', email: 'x2@example.com', password: 'long-enough-1' },
      asKey(key.secret),
    );
    expect(restCreate.status).toBe(403);
    for (const mutation of [
      `mutation { createCheckpoint(input: { fileId: "${files[0].id}", timestamp: 1, name: "n" }) { id } }`,
      `mutation { updateFile(id: "${files[0].id}", input: { title: "T" }) { id } }`,
      'mutation { logout }',
      `mutation { createApiKey(input: { name: "n", userId: "${admin.userId}", scopes: [USERS_WRITE] }) { secret } }`,
    ]) {
      expect((await t.gql(mutation, {}, asKey(key.secret))).errors?.[0].extensions?.code, mutation).toBe('FORBIDDEN');
    }
    expect((await t.rest('POST', '/auth/logout', {}, asKey(key.secret))).status).toBe(403);
    expect((await t.rest('GET', '/admin/users/count', undefined, asKey(key.secret))).status).toBe(403);

    const writer = await newKey(admin.userId, ['USERS_WRITE']);
    const created = await t.gql<{ createUser: { email: string } }>(
      'mutation { createUser(input: { name: "Y", email: "y-by-key@example.com", password: "long-enough-1" }) { email } }',
      {},
      asKey(writer.secret),
    );
    expect(created.errors).toBeUndefined();
    expect(created.data!.createUser.email).toBe('y-by-key@example.com');
  });

  it("never widen their user's rights", async () => {
    const refused = await createKey({ userId: reader.id, scopes: ['USERS_READ'] });
    expect(refused.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const key = await newKey(reader.id, ['LIBRARY_READ']);
    const res = await t.gql('{ adminFiles { total } }', {}, asKey(key.secret));
    expect(res.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it("may have the stream scope, which still leaves the player's stream operations to devices", async () => {
    const key = await newKey(reader.id, ['LIBRARY_READ', 'STREAM']);
    expect(key.apiKey.scopes).toEqual(['LIBRARY_READ', 'STREAM']);
    const session = await t.gql(
      `mutation { createStreamSession(fileId: "${files[0].id}") { sessionToken } }`,
      {},
      asKey(key.secret),
    );
    expect(session.errors?.[0]).toMatchObject({
      message: 'API keys cannot do this: sign in on a device',
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await t.rest('POST', `/drm/session/${files[0].id}`, {}, asKey(key.secret))).status).toBe(403);
    expect((await t.rest('POST', `/drm/signed-url/${files[0].id}`, {}, asKey(key.secret))).status).toBe(403);
    type Scope = { scope: string; name: string; adminOnly: boolean };
    const scopes = await t.gql<{ apiKeyScopes: Scope[] }>('{ apiKeyScopes { scope name adminOnly } }', {}, admin);
    expect(scopes.data!.apiKeyScopes).toContainEqual({ scope: 'STREAM', name: 'stream', adminOnly: false });
    expect(scopes.data!.apiKeyScopes).toContainEqual({ scope: 'USERS_READ', name: 'users:read', adminOnly: true });
  });

  it('stop at once when revoked, expired, or their user is locked or demoted', async () => {
    const revoked = await newKey(reader.id, ['LIBRARY_READ']);
    expect((await t.gql(LIBRARY, {}, asKey(revoked.secret))).errors).toBeUndefined();
    const revoke = await t.rest<{ data: { status: string } }>(
      'DELETE',
      `/admin/api-keys/${revoked.apiKey.id}`,
      undefined,
      admin,
    );
    expect(revoke.body.data.status).toBe('revoked');
    const afterRevoke = await t.gql(LIBRARY, {}, asKey(revoked.secret));
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.errors?.[0].message).toMatch(/revoked/);

    const expiring = await newKey(reader.id, ['LIBRARY_READ'], {
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await t.gql(LIBRARY, {}, asKey(expiring.secret))).errors).toBeUndefined();
    await t.app.orm.em
      .fork()
      .nativeUpdate(ApiKey, { id: expiring.apiKey.id }, { expiresAt: new Date(Date.now() - 1000) });
    const afterExpiry = await t.rest('GET', '/files', undefined, asKey(expiring.secret));
    expect(afterExpiry.status).toBe(401);

    const other = await createUser(t);
    const locked = await newKey(other.id, ['LIBRARY_READ']);
    await t.gql(`mutation { updateUser(id: "${other.id}", input: { isLocked: true }) { id } }`, {}, admin);
    expect((await t.gql(LIBRARY, {}, asKey(locked.secret))).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');

    const second = await createUser(t, { role: UserRole.admin });
    const adminKey = await newKey(second.id, ['USERS_READ']);
    expect((await t.gql('{ userCount }', {}, asKey(adminKey.secret))).errors).toBeUndefined();
    await t.gql(`mutation { updateUser(id: "${second.id}", input: { role: user }) { id } }`, {}, admin);
    expect((await t.gql('{ userCount }', {}, asKey(adminKey.secret))).errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('refuse a wrong secret for a real key id', async () => {
    const key = await newKey(reader.id, ['LIBRARY_READ']);
    const forged = key.secret.slice(0, -4) + (key.secret.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const res = await t.gql(LIBRARY, {}, asKey(forged));
    expect(res.status).toBe(401);
    expect(res.errors?.[0].message).toBe('Invalid API key');
  });

  it('are limited per key, with RateLimit headers', async () => {
    const key = await newKey(reader.id, ['LIBRARY_READ'], { rateLimitPerMinute: 2 });
    const other = await newKey(reader.id, ['LIBRARY_READ'], { rateLimitPerMinute: 2 });
    expect((await t.rest('GET', '/files', undefined, asKey(key.secret))).status).toBe(200);
    const second = await t.rest('GET', '/files', undefined, asKey(key.secret));
    expect(second.headers.get('ratelimit-remaining')).toBe('0');
    const third = await t.rest<{ error: { code: string } }>('GET', '/files', undefined, asKey(key.secret));
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.gql(LIBRARY, {}, asKey(key.secret))).status).toBe(429);
    // Another key of the same user has its own budget.
    expect((await t.rest('GET', '/files', undefined, asKey(other.secret))).status).toBe(200);
  });

  it('record their last use and audit use from a new address', async () => {
    const key = await newKey(reader.id, ['LIBRARY_READ']);
    await t.gql(LIBRARY, {}, asKey(key.secret));
    await t.gql(LIBRARY, {}, asKey(key.secret));
    const stored = await t.app.orm.em.fork().findOneOrFail(ApiKey, key.apiKey.id);
    expect(stored.lastUsedAt).toBeInstanceOf(Date);
    expect(stored.lastUsedIp).toMatch(/127\.0\.0\.1/);
    const audit = await t.gql<{ auditLog: { items: { action: string; details: { apiKeyId?: string } }[] } }>(
      '{ auditLog(limit: 100) { items { action details } } }',
      {},
      admin,
    );
    const uses = audit.data!.auditLog.items.filter(
      (e) => e.action === 'api_key.new_address' && e.details.apiKeyId === key.apiKey.id,
    );
    expect(uses).toHaveLength(1);
  });
});
