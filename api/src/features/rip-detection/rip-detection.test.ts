import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import {
  createSizedAudioFile,
  eventually,
  openStream,
  readBody,
  readWide,
  seekUrl,
  subscribeTo,
} from '../../test/rip-fixtures.js';
import { grantFile } from '../../test/stream-fixtures.js';
import type { AudioFile } from '../files/audio-file.entity.js';

/** One hour at 128 kbit/s, as the ripper pulls it; the defaults of every threshold apply. */
const SIZE = 57_600_000;

let t: TestApp;
let admin: Session;
let book: AudioFile;
beforeAll(async () => {
  // Behind a proxy on this machine, whose X-Forwarded-For names the client (the two-address rule).
  t = await startTestApp({ env: { TRUST_PROXY: 'loopback' } });
  admin = await createAdminSession(t);
  book = await createSizedAudioFile(t, SIZE, 3600);
  await t.rest(
    'POST',
    `/files/${book.id}/chapters`,
    {
      chapters: [0, 600, 1200, 1800, 2400, 3000].map((startTime, i) => ({ label: `Chapter ${i + 1}`, startTime })),
    },
    admin,
  );
});
afterAll(async () => {
  await t?.close();
});

async function listener(): Promise<Session & { email: string }> {
  const user = await createUser(t);
  await grantFile(t, user.id, book.id);
  return { ...(await signIn(t, user.email)), email: user.email };
}

interface AuditItem {
  action: string;
  userId: string | null;
  ipAddress: string | null;
  details: Record<string, unknown> | null;
}

async function ripEntries(userId: string): Promise<AuditItem[]> {
  const res = await t.gql<{ auditLog: { items: AuditItem[] } }>(
    '{ auditLog(offset: 0, limit: 100) { items { action userId ipAddress details } } }',
    {},
    admin,
  );
  return (res.data?.auditLog.items ?? []).filter((e) => e.action === 'stream.rip_suspected' && e.userId === userId);
}

/** What a paced response may send past its allowance: a hold comes before a read's piece, not after. */
const CHUNKS = 128 * 1024;
/** Bytes of the one-hour file in `seconds` of its audio. */
const audio = (seconds: number) => (seconds * SIZE) / 3600;

describe('rip detection', () => {
  it('paces one GET of a whole file past its read-ahead, then flags the same script going wide, live everywhere', async () => {
    const alerts = await subscribeTo<{ email: string; rule: string }>(
      t,
      admin,
      'subscription { ripAlerts { email rule speed accountLocked } }',
      'ripAlerts',
    );
    const ripper = await listener();
    const { url, cookie } = await openStream(t, book.id, ripper);
    // Unpaced the whole file takes well under a second here (an administrator's pull below); paced,
    // the script has a minute of audio and four seconds a second after two seconds.
    const one = await readBody(url, { cookie }, { timeoutMs: 2000 });
    expect(one.status).toBe(200);
    expect(one.received).toBeLessThan(audio(60 + 4 * 3) + CHUNKS);
    expect(await ripEntries(ripper.userId)).toEqual([]);

    const wide = await readWide(url, { cookie });
    expect(wide.every((r) => r.status === 206)).toBe(true);
    const [entry] = await eventually(async () => {
      const found = await ripEntries(ripper.userId);
      return found.length > 0 ? found : undefined;
    });
    expect(entry.details).toMatchObject({ rule: 'rate', windowSeconds: 60, accountLocked: false });
    expect(entry.details?.leadSeconds).toBeGreaterThanOrEqual(240);
    expect(entry.ipAddress).toBe('127.0.0.1');

    const dashboard = await t.gql<{ dashboardStats: { ripAlerts: { email: string; rule: string }[] } }>(
      '{ dashboardStats { ripAlerts { email rule speed windowSeconds addresses accountLocked at } } }',
      {},
      admin,
    );
    expect(dashboard.data?.dashboardStats.ripAlerts).toContainEqual(
      expect.objectContaining({ email: ripper.email, rule: 'rate', addresses: ['127.0.0.1'] }),
    );

    const rows = await t.gql<{ adminUsers: { items: { email: string; ripSuspectedAt: string | null }[] } }>(
      'query ($s: String) { adminUsers(search: $s, offset: 0, limit: 5) { items { email ripSuspectedAt } } }',
      { s: ripper.email },
      admin,
    );
    expect(rows.data?.adminUsers.items[0].ripSuspectedAt).not.toBeNull();
    // The user does not see the flag on themselves.
    const me = await t.gql<{ me: { ripSuspectedAt: string | null } }>('{ me { ripSuspectedAt } }', {}, ripper);
    expect(me.data?.me.ripSuspectedAt).toBeNull();

    await eventually(async () => (alerts.received.some((a) => a.email === ripper.email) ? true : undefined));
    await alerts.close();

    // Throttled, on a new sign-in too: a seek's read-ahead trickles at 1.5x real time.
    await t.rest('POST', '/auth/logout', undefined, ripper);
    const again = await signIn(t, ripper.email);
    const bearer = { authorization: `Bearer ${again.token}`, 'x-device-id': again.deviceId };
    const later = await readBody(await seekUrl(t, book.id, again, 2000), bearer, { timeoutMs: 1500 });
    expect(later.status).toBe(200);
    expect(later.received).toBeLessThan(audio(20));
  });

  it('leaves an administrator pulling the same file alone (the originals are theirs)', async () => {
    const { url, cookie } = await openStream(t, book.id, admin);
    const pulled = await readBody(url, { cookie }, { timeoutMs: 10_000 });
    expect(pulled.ended).toBe(true);
    expect(pulled.received).toBe(SIZE);
    expect(await ripEntries(admin.userId)).toEqual([]);
  });

  it('paces descending 16 MiB ranges, a small file in one GET, and ranges that follow each other', async () => {
    const ripper = await listener();
    const { url, cookie } = await openStream(t, book.id, ripper);
    const MiB = 1024 * 1024;
    let received = 0;
    const started = performance.now();
    for (let piece = 3; piece >= 0; piece--) {
      const range = `bytes=${piece * 16 * MiB}-${piece * 16 * MiB + 16 * MiB - 1}`;
      received += (await readBody(url, { cookie, range }, { timeoutMs: 700 })).received;
    }
    // Four read-aheads and the allowed speed, not four quarters of the hour.
    expect(received).toBeLessThan(audio(4 * 60 + 4 * ((performance.now() - started) / 1000 + 1)) + 4 * CHUNKS);

    const small = await createSizedAudioFile(t, 9_600_000, 600);
    await grantFile(t, ripper.userId, small.id);
    const smallStream = await openStream(t, small.id, ripper);
    const whole = await readBody(smallStream.url, { cookie: smallStream.cookie }, { timeoutMs: 1500 });
    expect(whole.ended).toBe(false);
    expect(whole.received).toBeLessThan(1_600_000);

    // 64 KiB ranges, one after another from where the last stopped, signing in again halfway.
    let session = ripper;
    let stream = { url, cookie };
    let at = 40 * MiB;
    const followStart = performance.now();
    for (let k = 0; k < 24; k++) {
      if (k === 12) {
        await t.rest('POST', '/auth/logout', undefined, session);
        session = { ...(await signIn(t, ripper.email)), email: ripper.email };
        stream = await openStream(t, book.id, session);
      }
      const range = `bytes=${at}-${at + 64 * 1024 - 1}`;
      const res = await readBody(stream.url, { cookie: stream.cookie, range }, { timeoutMs: 5000 });
      at += res.received;
    }
    const seconds = (performance.now() - followStart) / 1000;
    expect(at - 40 * MiB).toBeLessThan(audio(60 + 4 * seconds) + CHUNKS);
  }, 60_000);

  it('never trips on a listener who seeks ten times, plays at 3x, pauses and resumes', async () => {
    const person = await listener();
    const { url, cookie } = await openStream(t, book.id, person);
    // The player reads about a minute ahead and stops reading; the socket buffers take more meanwhile.
    const play = { upTo: 1_100_000, stallMs: 300, timeoutMs: 5000 };
    expect((await readBody(url, { cookie }, play)).status).toBe(200);
    for (const share of [0.05, 0.3, 0.55, 0.8, 0.95, 0.1, 0.4, 0.6, 0.7]) {
      expect((await readBody(await seekUrl(t, book.id, person, share * 3600), { cookie }, play)).status).toBe(200);
    }
    // Playing at 3x: the read-ahead at once, then three seconds of audio a second for four seconds.
    const fast = await readBody(await seekUrl(t, book.id, person, 1500), { cookie }, { timeoutMs: 4000 });
    expect(fast.received).toBeGreaterThan(audio(60 + 3 * 3));
    // Paused, then resumed where it stopped.
    await new Promise((r) => setTimeout(r, 1000));
    const resumed = await readBody(await seekUrl(t, book.id, person, 1500 + 70), { cookie }, play);
    expect(resumed.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    const flagged = await ripEntries(person.userId);
    expect(flagged, JSON.stringify(flagged)).toEqual([]);
  }, 120_000);

  it('flags one session used from two client addresses at once (through a trusted proxy)', async () => {
    const shared = await listener();
    const { url, cookie } = await openStream(t, book.id, shared);
    for (const address of ['203.0.113.7', '198.51.100.9', '203.0.113.7']) {
      const res = await readBody(
        url,
        { cookie, range: 'bytes=0-999', 'x-forwarded-for': address },
        { timeoutMs: 2000 },
      );
      expect(res.status).toBe(206);
    }
    const [entry] = await eventually(async () => {
      const found = await ripEntries(shared.userId);
      return found.length > 0 ? found : undefined;
    });
    expect(entry.details).toMatchObject({ rule: 'two_addresses' });
    expect((entry.details?.addresses as string[]).sort()).toEqual(['198.51.100.9', '203.0.113.7']);
    expect(entry.ipAddress).toBe('203.0.113.7');
  });

  it('pushes rip alerts to administrators only', async () => {
    const query = 'subscription { ripAlerts { email } }';
    const user = await listener();
    const refused = await subscribeTo(t, user, query, 'ripAlerts');
    await eventually(async () => (refused.errors.length > 0 ? true : undefined));
    expect(JSON.stringify(refused.errors)).toContain('FORBIDDEN');
    await refused.close();
    const anonymous = await subscribeTo(t, null, query, 'ripAlerts');
    await eventually(async () => (anonymous.errors.length > 0 ? true : undefined));
    // A socket without a credential is refused when it connects (4403), before any subscription.
    expect(anonymous.errors).toContainEqual({ closeCode: 4403 });
    await anonymous.close();
  });
});
