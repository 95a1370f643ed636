import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn, TEST_PASSWORD } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { User } from '../users/user.entity.js';
import { hashPassword, needsRehash, useTestHashCost, verifyPassword } from './password-hash.js';

let t: TestApp;
beforeAll(async () => {
  // The cost the server runs with, not the test tier's lowered one (test/setup.ts).
  useTestHashCost(null);
  t = await startTestApp();
});
afterAll(() => t?.close());

const storedHash = async (id: string) =>
  (await t.app.orm.em.fork().findOneOrFail(User, id, { populate: ['passwordHash'] })).passwordHash;

describe('password hashing', () => {
  it('hashes argon2id with one lane and verifies', async () => {
    const hash = await hashPassword('a password');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,p=1,t=3\$/);
    expect(await verifyPassword(hash, 'a password')).toBe(true);
    expect(await verifyPassword(hash, 'another')).toBe(false);
    expect(await verifyPassword('not a hash', 'a password')).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it('replaces a hash made with the old four-lane default at the next sign-in', async () => {
    const user = await createUser(t);
    const old = await argon2.hash(TEST_PASSWORD, { type: argon2.argon2id });
    expect(needsRehash(old)).toBe(true);
    await t.app.orm.em.fork().nativeUpdate(User, { id: user.id }, { passwordHash: old });

    const first = await signIn(t, user.email);
    const renewed = await storedHash(user.id);
    expect(renewed).not.toBe(old);
    expect(needsRehash(renewed)).toBe(false);
    // The new hash is of the same password: signing in again works and leaves it alone.
    await signIn(t, user.email, first.deviceId);
    expect(await storedHash(user.id)).toBe(renewed);
  });
});
