import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import {
  createSizedAudioFile,
  eventually,
  openStream,
  readBody,
  seekUrl,
  subscribeTo,
} from '../../test/rip-fixtures.js';
import { grantFile } from '../../test/stream-fixtures.js';
import type { AudioFile } from '../files/audio-file.entity.js';

/** One hour at 128 kbit/s, as the ripper pulls it; the defaults of every threshold apply. */
const SIZE = 57_600_000;
const MB = 1_000_000;

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

describe('rip detection', () => {
  it("throttles and flags a script pulling a one-hour file's bytes, on the audit log, the dashboard and the user's row, live", async () => {
    const alerts = await subscribeTo<{ email: string; rule: string }>(
      t,
      admin,
      'subscription { ripAlerts { email rule speed accountLocked } }',
      'ripAlerts',
    );
    const ripper = await listener();
    const { url, cookie } = await openStream(t, book.id, ripper);
    const pulled = await readBody(url, { cookie }, { timeoutMs: 3000 });
    // Unthrottled the whole file takes well under a second here (an administrator's pull below);
    // throttled, the script has only the read-ahead and a minute's allowance after three seconds.
    expect(pulled.status).toBe(200);
    expect(pulled.ended).toBe(false);
    expect(pulled.received).toBeLessThan(SIZE * 0.5);

    const [entry] = await eventually(async () => {
      const found = await ripEntries(ripper.userId);
      return found.length > 0 ? found : undefined;
    });
    expect(entry.details).toMatchObject({ rule: 'rate', fileId: book.id, windowSeconds: 60, accountLocked: false });
    expect(entry.details?.speed).toBeGreaterThan(4);
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

    // Still throttled: a further megabyte of the file trickles at about real time.
    const later = await readBody(await seekUrl(t, book.id, ripper, 2000), { cookie }, { timeoutMs: 1500 });
    expect(later.status).toBe(200);
    expect(later.received).toBeLessThan(MB);
  });

  it('leaves an administrator pulling the same file alone (the originals are theirs)', async () => {
    const { url, cookie } = await openStream(t, book.id, admin);
    const pulled = await readBody(url, { cookie }, { timeoutMs: 10_000 });
    expect(pulled.ended).toBe(true);
    expect(pulled.received).toBe(SIZE);
    expect(await ripEntries(admin.userId)).toEqual([]);
  });

  it('never trips on a listener who seeks ten times and skips through the chapters', async () => {
    const person = await listener();
    const { url, cookie } = await openStream(t, book.id, person);
    // The player reads ahead about 3 MB and stops reading; the socket buffers take more meanwhile.
    const play = { upTo: 3 * MB, stallMs: 300, timeoutMs: 5000 };
    expect((await readBody(url, { cookie }, play)).status).toBe(200);
    for (const share of [0.05, 0.3, 0.55, 0.8, 0.95, 0.1, 0.4, 0.6, 0.7, 0.2]) {
      expect((await readBody(await seekUrl(t, book.id, person, share * 3600), { cookie }, play)).status).toBe(200);
    }
    const chapters = await t.rest<{ data: { startTime: number }[] }>(
      'GET',
      `/files/${book.id}/chapters`,
      undefined,
      person,
    );
    expect(chapters.body.data).toHaveLength(6);
    for (const { startTime } of chapters.body.data) {
      expect((await readBody(await seekUrl(t, book.id, person, startTime), { cookie }, play)).status).toBe(200);
    }
    // Not throttled: the next seek's read-ahead comes at full speed (throttled, 2 MB would take minutes).
    const next = await readBody(
      await seekUrl(t, book.id, person, 1500),
      { cookie },
      { upTo: 2 * MB, timeoutMs: 10_000 },
    );
    expect(next.received, JSON.stringify(next)).toBeGreaterThanOrEqual(2 * MB);
    await new Promise((r) => setTimeout(r, 300));
    const flagged = await ripEntries(person.userId);
    expect(flagged, JSON.stringify(flagged)).toEqual([]);
    // Seventeen reads of 3 MB with their pauses: about 6 s alone, over 30 s beside other test files on
    // two busy cores. A throttled session still fails above, on the full-speed read and the audit log.
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
