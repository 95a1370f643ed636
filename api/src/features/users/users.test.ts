import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, createUser, signIn, TEST_PASSWORD, type Session } from '../../test/factories.js';
import { newDeviceId, startTestApp, type TestApp } from '../../test/harness.js';
import { createAudioFile, grantFile } from '../../test/library-fixtures.js';
import { subscribeSecurityEvents } from '../../test/subscriptions.js';
import { FileAccess } from '../access/file-access.entity.js';
import { DeviceSession } from '../auth/device-session.entity.js';
import { Checkpoint } from '../checkpoints/checkpoint.entity.js';
import { User, UserRole } from './user.entity.js';

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
});

type UserBody = {
  id: string;
  name: string;
  email: string;
  role: string;
  isLocked: boolean;
  sessionCount?: number;
  hasMultipleSessions?: boolean;
};

describe('admin users', () => {
  it('creates a user with a role, reads, updates and counts', async () => {
    const before = await t.rest<{ count: number }>('GET', '/admin/users/count', undefined, admin);
    const email = `New.Person.${Date.now()}@Example.com`;
    const created = await t.rest<{ data: UserBody; message: string }>(
      'POST',
      '/admin/users',
      { name: 'New Person', email, password: 'long-enough-pw', role: 'admin' },
      admin,
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      message: 'User created successfully!',
      data: { email: email.toLowerCase(), role: 'admin' },
    });
    expect(JSON.stringify(created.body)).not.toMatch(/password/i);
    const dup = await t.rest('POST', '/admin/users', { name: 'Again', email, password: 'long-enough-pw' }, admin);
    expect(dup.status).toBe(409);
    const after = await t.rest<{ count: number }>('GET', '/admin/users/count', undefined, admin);
    expect(after.body.count).toBe(before.body.count + 1);

    const id = created.body.data.id;
    const read = await t.rest<{ data: UserBody }>('GET', `/admin/users/${id}`, undefined, admin);
    expect(read.body.data).toMatchObject({ name: 'New Person', role: 'admin', isLocked: false });
    const updated = await t.rest<{ data: UserBody; message: string }>(
      'PUT',
      `/admin/users/${id}`,
      { name: 'Renamed', email, role: 'user', isLocked: false },
      admin,
    );
    expect(updated.body).toMatchObject({
      message: 'User updated successfully!',
      data: { name: 'Renamed', role: 'user' },
    });
    const gql = await t.gql<{ userCount: number; adminUser: { name: string } }>(
      'query ($id: ID!) { userCount adminUser(id: $id) { name } }',
      { id },
      admin,
    );
    expect(gql.data).toEqual({ userCount: after.body.count, adminUser: { name: 'Renamed' } });
  });

  it('lists with session counts, searching name, email or role, paged with a total', async () => {
    const tag = `pg${Date.now()}`;
    for (let i = 0; i < 6; i++) await createUser(t, { name: `${tag} person ${i}` });
    const multi = await createUser(t, { name: `${tag} busy`, role: UserRole.admin });
    await signIn(t, multi.email);
    await signIn(t, multi.email);
    const page = await t.gql<{
      adminUsers: { total: number; items: { name: string; sessionCount: number; hasMultipleSessions: boolean }[] };
    }>(
      'query ($s: String) { adminUsers(search: $s, offset: 0, limit: 5) { total items { name sessionCount hasMultipleSessions } } }',
      { s: tag.toUpperCase() },
      admin,
    );
    expect(page.data?.adminUsers.total).toBe(7);
    expect(page.data?.adminUsers.items).toHaveLength(5);
    expect(page.data?.adminUsers.items[0]).toEqual({ name: `${tag} busy`, sessionCount: 2, hasMultipleSessions: true });
    const rest = await t.rest<{ data: UserBody[]; total: number }>(
      'GET',
      `/admin/users/with-sessions?search=${tag}&offset=5&limit=5`,
      undefined,
      admin,
    );
    expect(rest.body.total).toBe(7);
    expect(rest.body.data).toHaveLength(2);
    expect(rest.body.data[0]).toHaveProperty('sessionCount', 0);
    const admins = await t.rest<{ data: UserBody[] }>(
      'GET',
      '/admin/users/with-sessions?search=ADMIN&limit=100',
      undefined,
      admin,
    );
    expect(admins.body.data.every((u) => u.role === 'admin' || /admin/i.test(u.name + u.email))).toBe(true);
    expect(admins.body.data.map((u) => u.id)).toContain(multi.id);
  });

  it('locks a user (ending their sessions at once) and unlocks through update', async () => {
    const user = await createUser(t);
    const session = await signIn(t, user.email);
    const stream = await subscribeSecurityEvents(t.url, session);
    try {
      await t.rest('PUT', `/admin/users/${user.id}`, { isLocked: true }, admin);
      expect((await stream.next()).type).toBe('FORCED_LOGOUT');
    } finally {
      await stream.close();
    }
    expect((await t.rest('GET', '/auth/me', undefined, session)).status).toBe(401);
    const unlocked = await t.gql<{ updateUser: { isLocked: boolean } }>(
      'mutation ($id: ID!) { updateUser(id: $id, input: { isLocked: false }) { isLocked } }',
      { id: user.id },
      admin,
    );
    expect(unlocked.data?.updateUser.isLocked).toBe(false);
    const back = await t.rest('POST', '/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
      deviceData: { deviceId: newDeviceId() },
      deviceApproved: true,
    });
    expect(back.body).toMatchObject({ success: true });
  });

  it('deletes a user with their sessions, grants and checkpoints, but never an administrator', async () => {
    const user = await createUser(t);
    const file = await createAudioFile(t);
    await grantFile(t, user.id, [file.id]);
    const session = await signIn(t, user.email);
    await t.rest('POST', '/checkpoints', { fileId: file.id, timestamp: 1, name: 'mine' }, session);
    const res = await t.rest('DELETE', `/admin/users/${user.id}`, undefined, admin);
    expect(res.body).toMatchObject({ message: `User ${user.email} has been deleted successfully` });
    const em = t.app.orm.em.fork();
    expect(await em.count(DeviceSession, { user: user.id })).toBe(0);
    expect(await em.count(FileAccess, { user: user.id })).toBe(0);
    expect(await em.count(Checkpoint, { user: user.id })).toBe(0);
    expect((await t.rest('GET', `/admin/users/${user.id}`, undefined, admin)).status).toBe(404);

    const other = await createUser(t, { role: UserRole.admin });
    const refused = await t.gql('mutation ($id: ID!) { deleteUser(id: $id) }', { id: other.id }, admin);
    expect(refused.errors?.[0]).toMatchObject({
      message: 'Administrators cannot be deleted',
      extensions: { code: 'FORBIDDEN' },
    });
    const self = await t.rest('PUT', `/admin/users/${admin.userId}`, { role: 'user' }, admin);
    expect(self.status).toBe(400);
  });

  it('two administrators locking or demoting each other at once: one change holds, the other is refused', async () => {
    const lock = { isLocked: true };
    const demote = { role: 'user' };
    // Refused under the row lock, or by the request's own sign-in check when the other change committed first.
    const refusals = [
      { code: 'FORBIDDEN', message: 'Administrator access required' },
      { code: 'UNAUTHENTICATED', message: 'Session expired or ended. Please log in again.' },
      { code: 'UNAUTHENTICATED', message: 'Account is locked' },
    ];
    for (const [first, second] of [
      [lock, lock],
      [demote, demote],
      [lock, demote],
      [demote, lock],
    ]) {
      const a = await createAdminSession(t);
      const b = await createAdminSession(t);
      const [viaRest, viaGql] = await Promise.all([
        t.rest<{ error?: { code: string; message: string } }>('PUT', `/admin/users/${b.userId}`, first, a),
        t.gql(
          'mutation ($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { id } }',
          { id: a.userId, input: second },
          b,
        ),
      ]);
      const outcomes = [
        viaRest.status === 200 ? 'ok' : viaRest.body.error,
        viaGql.errors ? { code: viaGql.errors[0].extensions?.code, message: viaGql.errors[0].message } : 'ok',
      ];
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
      expect(refusals).toContainEqual(outcomes.find((o) => o !== 'ok'));
      const pair = await t.app.orm.em.fork().find(User, { id: [a.userId, b.userId] });
      expect(pair.filter((u) => u.role === UserRole.admin && !u.isLocked)).toHaveLength(1);
    }
  });

  it('a user promoted while another administrator deletes them is either kept as an administrator or gone', async () => {
    const promoter = await createAdminSession(t);
    for (let round = 0; round < 6; round++) {
      const target = await createUser(t);
      const [promoted, deleted] = await Promise.all([
        t.rest('PUT', `/admin/users/${target.id}`, { role: 'admin' }, promoter),
        t.rest('DELETE', `/admin/users/${target.id}`, undefined, admin),
      ]);
      const kept = await t.app.orm.em.fork().findOne(User, { id: target.id });
      if (kept) {
        expect([promoted.status, deleted.status]).toEqual([200, 403]);
        expect(kept.role).toBe(UserRole.admin);
      } else {
        expect([promoted.status, deleted.status]).toEqual([404, 200]);
      }
    }
  });

  it('demoting an administrator signs out all their devices but the one used most recently', async () => {
    const target = await createUser(t, { role: UserRole.admin });
    const [recent, older, oldest] = [
      await signIn(t, target.email),
      await signIn(t, target.email),
      await signIn(t, target.email),
    ];
    const streams = await Promise.all([recent, older, oldest].map((s) => subscribeSecurityEvents(t.url, s)));
    // Set after subscribing, which counts as activity: the first sign-in is the most recently used.
    const em = t.app.orm.em.fork();
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
    await em.nativeUpdate(DeviceSession, { id: recent.sessionId }, { lastActivity: minutesAgo(1) });
    await em.nativeUpdate(DeviceSession, { id: older.sessionId }, { lastActivity: minutesAgo(5) });
    await em.nativeUpdate(DeviceSession, { id: oldest.sessionId }, { lastActivity: minutesAgo(9) });
    try {
      const res = await t.rest('PUT', `/admin/users/${target.id}`, { role: 'user' }, admin);
      expect(res.status).toBe(200);
      for (const stream of streams.slice(1)) {
        expect(await stream.next()).toMatchObject({
          type: 'FORCED_LOGOUT',
          message:
            'Your administrator role has been removed. This device has been signed out; your most recently used device stays signed in.',
        });
      }
      expect((await t.rest('GET', '/auth/me', undefined, recent)).status).toBe(200);
      for (const ended of [older, oldest]) expect((await t.rest('GET', '/auth/me', undefined, ended)).status).toBe(401);
      const rows = await em.fork().find(DeviceSession, { user: target.id }, { orderBy: { lastActivity: 'desc' } });
      expect(rows.map((s) => [s.isActive, s.endReason ?? null, s.endedAt instanceof Date])).toEqual([
        [true, null, false],
        [false, 'role_changed', true],
        [false, 'role_changed', true],
      ]);
      // Events keep their order: the kept device's first one is the lock sent after the demotion.
      expect((await t.rest('PUT', `/admin/users/${target.id}`, { isLocked: true }, admin)).status).toBe(200);
      expect(await streams[0].next()).toMatchObject({ message: 'Your account has been locked by an administrator.' });
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });

  it('demoting under MAX_DEVICES=2 keeps the two most recently used devices and says so', async () => {
    const two = await startTestApp({ env: { MAX_DEVICES: '2' } });
    try {
      const boss = await createAdminSession(two);
      const target = await createUser(two, { role: UserRole.admin });
      const [recent, older, oldest] = [
        await signIn(two, target.email),
        await signIn(two, target.email),
        await signIn(two, target.email),
      ];
      const stream = await subscribeSecurityEvents(two.url, oldest);
      // Set after subscribing, which counts as activity.
      const em = two.app.orm.em.fork();
      for (const [s, minutes] of [
        [recent, 1],
        [older, 5],
        [oldest, 9],
      ] as const) {
        await em.nativeUpdate(
          DeviceSession,
          { id: s.sessionId },
          { lastActivity: new Date(Date.now() - minutes * 60_000) },
        );
      }
      try {
        expect((await two.rest('PUT', `/admin/users/${target.id}`, { role: 'user' }, boss)).status).toBe(200);
        expect(await stream.next()).toMatchObject({
          type: 'FORCED_LOGOUT',
          message:
            'Your administrator role has been removed. This device has been signed out; your 2 most recently used devices stay signed in.',
        });
      } finally {
        await stream.close();
      }
      for (const kept of [recent, older]) expect((await two.rest('GET', '/auth/me', undefined, kept)).status).toBe(200);
    } finally {
      await two.close();
    }
  });
});
