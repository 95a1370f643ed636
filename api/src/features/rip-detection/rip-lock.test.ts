import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asKey, newKey } from '../../test/api-keys.js';
import { createAdminSession, createUser, signIn, TEST_PASSWORD, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createSizedAudioFile, eventually, openStream, readBody } from '../../test/rip-fixtures.js';
import { grantFile } from '../../test/stream-fixtures.js';
import { subscribeSecurityEvents } from '../../test/subscriptions.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import type { MeteredCredential } from './rip-meter.js';
import { RIP_LOCK_MESSAGE, recordOffence } from './rip-offence.js';

// A throttle of half a second, so one session can offend again within the test.
let t: TestApp;
let admin: Session;
let file: AudioFile;
beforeAll(async () => {
  // Behind a proxy on this machine, whose X-Forwarded-For names the client (the two-address rule).
  t = await startTestApp({ env: { RIP_THROTTLE_MINUTES: '0.008', RIP_LOCK_OFFENCES: '3', TRUST_PROXY: 'loopback' } });
  admin = await createAdminSession(t);
  file = await createSizedAudioFile(t, 1_000_000, 600);
});
afterAll(async () => {
  await t?.close();
});

interface RipEntry {
  action: string;
  userId: string | null;
  details: { accountLocked?: boolean; offences?: number; apiKeyId?: string } | null;
}

async function entries(userId: string, action: string): Promise<RipEntry[]> {
  const res = await t.gql<{ auditLog: { items: RipEntry[] } }>(
    '{ auditLog(offset: 0, limit: 100) { items { action userId details } } }',
    {},
    admin,
  );
  return (res.data?.auditLog.items ?? []).filter((e) => e.action === action && e.userId === userId);
}

let addresses = 0;

/** Uses the session's stream from two new addresses by turns, `offences` times, a throttle period apart. */
async function offend(session: Session, offences: number): Promise<void> {
  const { url, cookie } = await openStream(t, file.id, session);
  const before = (await entries(session.userId, 'stream.rip_suspected')).length;
  for (let n = 0; n < offences; n++) {
    const [one, two] = [`192.0.2.${++addresses}`, `192.0.2.${++addresses}`];
    for (const address of [one, two, one]) {
      await readBody(url, { cookie, range: 'bytes=0-99', 'x-forwarded-for': address }, { timeoutMs: 2000 });
    }
    await eventually(async () => {
      const found = await entries(session.userId, 'stream.rip_suspected');
      return found.length === before + n + 1 ? true : undefined;
    });
    await new Promise((r) => setTimeout(r, 600));
  }
}

describe('repeated rip offences', () => {
  it('lock the account as the device policy does, and an administrator unlocks it', async () => {
    const user = await createUser(t);
    await grantFile(t, user.id, file.id);
    const session = await signIn(t, user.email);
    const events = await subscribeSecurityEvents(t.url, session);

    await offend(session, 2);
    expect((await entries(user.id, 'account.locked_rip')).length).toBe(0);
    await offend(session, 1);

    const event = await events.next(5000);
    expect(event).toMatchObject({ type: 'FORCED_LOGOUT', message: RIP_LOCK_MESSAGE });
    await events.close();
    const [locked] = await entries(user.id, 'account.locked_rip');
    expect(locked.details).toMatchObject({ offences: 3, endedSessions: 1 });
    expect((await entries(user.id, 'stream.rip_suspected')).map((e) => e.details?.accountLocked)).toContain(true);

    // The session has ended and the account is locked: sign-in says so until an administrator unlocks.
    expect((await t.gql('{ me { id } }', {}, session)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const refused = await t.rest<{ error: { code: string } }>('POST', '/auth/login', {
      email: user.email,
      password: TEST_PASSWORD,
      deviceData: { deviceId: session.deviceId },
      deviceApproved: true,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ACCOUNT_LOCKED');
    const users = await t.gql<{ adminUsers: { items: { isLocked: boolean; ripSuspectedAt: string | null }[] } }>(
      'query ($s: String) { adminUsers(search: $s, offset: 0, limit: 1) { items { isLocked ripSuspectedAt } } }',
      { s: user.email },
      admin,
    );
    expect(users.data?.adminUsers.items[0]).toMatchObject({ isLocked: true, ripSuspectedAt: expect.any(String) });

    expect((await t.rest('PATCH', `/admin/users/${user.id}/unlock`, undefined, admin)).status).toBe(200);
    const again = await signIn(t, user.email, session.deviceId);
    // The count starts again after the unlock: the next offence throttles and is audited, but does not lock.
    await offend(again, 1);
    const latest = (await entries(user.id, 'stream.rip_suspected'))[0];
    expect(latest.details).toMatchObject({ offences: 1, accountLocked: false });
    expect((await t.gql('{ me { id } }', {}, again)).errors).toBeUndefined();
  });

  it("revoke an API key on its own repeats, never locking its user's account", async () => {
    const user = await createUser(t);
    const person = await signIn(t, user.email);
    const key = await newKey(t, admin, user.id, ['LIBRARY_READ']);
    // The meter's reports, as an API key's audio or the person's player would raise them.
    const report = (credential: MeteredCredential) =>
      recordOffence(
        t.app.deps,
        t.app.orm.em.fork(),
        { requestId: 'test', ip: null, userAgent: null, deviceId: null },
        {
          rule: 'rate',
          userId: user.id,
          credential,
          fileId: file.id,
          chapterId: null,
          servedSeconds: 600,
          speed: 10,
          windowSeconds: 60,
          addresses: [],
        },
      );
    const byKey = { kind: 'apiKey', id: key.apiKey.id } as const;
    await report(byKey);
    await report(byKey);
    // The account's third offence, were the key's counted for it.
    await report({ kind: 'session', id: person.sessionId, start: 0 });
    expect(await entries(user.id, 'account.locked_rip')).toEqual([]);
    expect((await t.rest('GET', '/files', undefined, asKey(key.secret))).status).toBe(200);

    await report(byKey);
    const refused = await t.rest<{ error: { message: string } }>('GET', '/files', undefined, asKey(key.secret));
    expect([refused.status, refused.body.error.message]).toEqual([401, 'This API key has been revoked']);
    const [revoked] = await entries(user.id, 'api_key.revoked_rip');
    // Three: the person's offence is not counted against the key either.
    expect(revoked.details).toMatchObject({ apiKeyId: key.apiKey.id, offences: 3 });
    expect(await entries(user.id, 'account.locked_rip')).toEqual([]);
    expect((await t.gql('{ me { id } }', {}, person)).errors).toBeUndefined();
  });

  it('never lock an administrator', async () => {
    const other = await createAdminSession(t);
    const { url, cookie } = await openStream(t, file.id, other);
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.1', '192.0.2.2']) {
      await readBody(url, { cookie, range: 'bytes=0-99', 'x-forwarded-for': address }, { timeoutMs: 2000 });
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(await entries(other.userId, 'stream.rip_suspected')).toEqual([]);
    expect((await t.gql('{ me { id } }', {}, other)).errors).toBeUndefined();
  });
});
