import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { User } from '../users/user.entity.js';
import { authenticate } from './authenticate.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('authenticate', () => {
  it('gives the caller as managed entities with typed values, the password hash unread', async () => {
    const user = await createUser(t, { name: 'Typed' });
    const lockUntil = new Date(Date.now() - 60_000);
    const session = await signIn(t, user.email);
    // A lapsed temporary lock (a successful sign-in clears it, so set after).
    await t.app.orm.em.fork().nativeUpdate(User, { id: user.id }, { lockUntil, failedLoginCount: 2 });

    const em = t.app.orm.em.fork();
    const caller = await authenticate(em, t.config, session.token, session.deviceId);
    expect(caller).not.toBeNull();
    const { user: who, session: device } = caller!;
    expect(who.id).toBe(user.id);
    expect(who.lockUntil).toBeInstanceOf(Date);
    expect(who.lockUntil!.getTime()).toBe(lockUntil.getTime());
    expect(who.createdAt).toBeInstanceOf(Date);
    expect(who.isAdmin).toBe(false);
    expect(who.passwordHash).toBeUndefined();
    expect(device.id).toBe(session.sessionId);
    expect(device.user).toBe(who);
    expect(device.lastActivity).toBeInstanceOf(Date);
    expect(device.isActive).toBe(true);

    // Managed: the identity map hands out the same objects, and a change flushes as an update.
    expect(await em.findOne(User, user.id)).toBe(who);
    who.name = 'Renamed';
    await em.flush();
    expect((await t.app.orm.em.fork().findOneOrFail(User, user.id)).name).toBe('Renamed');
  });
});
