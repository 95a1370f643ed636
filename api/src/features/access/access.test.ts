import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createAudioFile, grantFile } from '../../test/library-fixtures.js';
import { subscribeSecurityEvents } from '../../test/subscriptions.js';
import { FileAccess } from './file-access.entity.js';

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
});

type Grant = {
  id: string;
  status: string;
  canView: boolean;
  expiresAt: string | null;
  user: { id: string; name: string; email: string };
};

describe('access management', () => {
  it('grants a file, refuses a second grant for the pair, revokes it and pushes ACCESS_REVOKED', async () => {
    const user = await createUser(t, { name: 'Listener' });
    const file = await createAudioFile(t, { title: 'Private talk' });
    const session = await signIn(t, user.email);
    expect((await t.rest('GET', `/files/${file.id}`, undefined, session)).status).toBe(404);

    const granted = await t.rest<{ data: Grant; message: string }>(
      'POST',
      '/admin/file-access',
      { userId: user.id, fileId: file.id, expiresAt: null },
      admin,
    );
    expect(granted.status).toBe(201);
    expect(granted.body).toMatchObject({
      message: 'Access granted successfully',
      data: { status: 'Active', canView: true, user: { id: user.id, name: 'Listener', email: user.email } },
    });
    expect((await t.rest('GET', `/files/${file.id}`, undefined, session)).status).toBe(200);

    const again = await t.rest('POST', '/admin/file-access', { userId: user.id, fileId: file.id }, admin);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'CONFLICT' } });
    expect(await t.app.orm.em.fork().count(FileAccess, { user: user.id, file: file.id })).toBe(1);

    const list = await t.rest<{ data: { file: { id: string; fileAccesses: Grant[] }; allUsers: { id: string }[] } }>(
      'GET',
      `/admin/file-access/file/${file.id}`,
      undefined,
      admin,
    );
    expect(list.body.data.file.id).toBe(file.id);
    expect(list.body.data.file.fileAccesses).toEqual([
      expect.objectContaining({ id: granted.body.data.id, status: 'Active' }),
    ]);
    expect(list.body.data.allUsers.map((u) => u.id)).toContain(user.id);
    expect(JSON.stringify(list.body)).not.toMatch(/passwordHash|password_hash/);

    const stream = await subscribeSecurityEvents(t.url, session);
    try {
      const revoked = await t.rest<{ data: Grant; message: string }>(
        'DELETE',
        `/admin/file-access/${granted.body.data.id}`,
        undefined,
        admin,
      );
      expect(revoked.body).toMatchObject({
        message: 'Access revoked successfully',
        data: { status: 'Revoked', canView: false },
      });
      const event = await stream.next();
      expect(event).toMatchObject({ type: 'ACCESS_REVOKED', fileId: file.id });
    } finally {
      await stream.close();
    }
    expect((await t.rest('GET', `/files/${file.id}`, undefined, session)).status).toBe(404);

    // A revoked grant is renewed in place, not duplicated.
    const renewed = await t.gql<{ grantAccess: Grant }>(
      'mutation ($input: GrantAccessInput!) { grantAccess(input: $input) { id status } }',
      { input: { userId: user.id, fileId: file.id, expiresAt: new Date(Date.now() + 3_600_000).toISOString() } },
      admin,
    );
    expect(renewed.data?.grantAccess).toEqual({ id: granted.body.data.id, status: 'Active' });
  });

  it('tells a revoke only to sessions still open, not to a socket that outlived its logout', async () => {
    const user = await createUser(t);
    const file = await createAudioFile(t);
    const [grant] = await grantFile(t, user.id, [file.id]);
    // One device at a time: the first signs out (its socket stays open), then another signs in.
    const ended = await signIn(t, user.email);
    const stale = await subscribeSecurityEvents(t.url, ended);
    expect((await t.rest('POST', '/auth/logout', undefined, ended)).status).toBe(200);
    expect(await stale.next()).toMatchObject({ type: 'FORCED_LOGOUT' });
    const streams = [await subscribeSecurityEvents(t.url, await signIn(t, user.email)), stale];
    try {
      expect((await t.rest('DELETE', `/admin/file-access/${grant.id}`, undefined, admin)).status).toBe(200);
      expect(await streams[0].next()).toMatchObject({ type: 'ACCESS_REVOKED', fileId: file.id });
      // Events keep their order: news for every socket, sent after the revoke, comes next.
      expect((await t.rest('DELETE', `/admin/users/${user.id}`, undefined, admin)).status).toBe(200);
      expect(await streams[1].next()).toMatchObject({
        type: 'FORCED_LOGOUT',
        message: 'Your account has been deleted.',
      });
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });

  it('reads grant status as Expired, Active or Revoked and exposes fileAccesses to admins only', async () => {
    const [a, b, c] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const file = await createAudioFile(t, { isPublic: true });
    await grantFile(t, a.id, [file.id], { expiresAt: new Date(Date.now() - 60_000) });
    await grantFile(t, b.id, [file.id]);
    await grantFile(t, c.id, [file.id], { canView: false });
    const res = await t.gql<{ fileAccessList: { grants: Grant[] } }>(
      'query ($id: ID!) { fileAccessList(fileId: $id) { grants { status user { id } } allUsers { id } file { id } } }',
      { id: file.id },
      admin,
    );
    const statusOf = new Map(res.data!.fileAccessList.grants.map((g) => [g.user.id, g.status]));
    expect(Object.fromEntries(statusOf)).toEqual({ [a.id]: 'Expired', [b.id]: 'Active', [c.id]: 'Revoked' });

    const user = await signIn(t, b.email);
    const denied = await t.gql(
      'query ($id: ID!) { audioFile(id: $id) { id fileAccesses { id } } }',
      { id: file.id },
      user,
    );
    expect(denied.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const allowed = await t.gql<{ audioFile: { fileAccesses: unknown[] } }>(
      'query ($id: ID!) { audioFile(id: $id) { fileAccesses { id status } } }',
      { id: file.id },
      admin,
    );
    expect(allowed.data?.audioFile.fileAccesses).toHaveLength(3);
  });

  it('validates the grant input', async () => {
    const user = await createUser(t);
    const file = await createAudioFile(t);
    const missing = await t.rest('POST', '/admin/file-access', { fileId: file.id }, admin);
    expect(missing.body).toMatchObject({ message: 'Please select a user' });
    const past = await t.rest(
      'POST',
      '/admin/file-access',
      { userId: user.id, fileId: file.id, expiresAt: '2001-01-01T00:00:00Z' },
      admin,
    );
    expect(past.status).toBe(400);
    const shape = await t.rest('POST', '/admin/file-access', { userId: 'x', fileId: file.id }, admin);
    expect(shape.status).toBe(400);
    const unknown = await t.rest(
      'POST',
      '/admin/file-access',
      { userId: '00000000-0000-4000-8000-000000000000', fileId: file.id },
      admin,
    );
    expect(unknown.status).toBe(404);
  });
});
