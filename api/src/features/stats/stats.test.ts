import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createAudioFile, grantFile } from '../../test/library-fixtures.js';
import { FileAccess } from '../access/file-access.entity.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

interface Period {
  start: string;
  seconds: number;
}
interface MyStats {
  timeZone: string;
  days: Period[];
  weeks: Period[];
  finished: { file: { id: string; title: string }; finishedAt: string }[];
}

const sql = (query: string, params: unknown[] = []) => t.app.orm.em.getConnection().execute(query, params);

/** The player's saves come at most 4 a second per device session: keep under it. */
const pace = () => new Promise((resolve) => setTimeout(resolve, 300));

async function save(s: Session, fileId: string, position: number) {
  await pace();
  const res = await t.rest('PUT', `/progress/${fileId}`, { position }, s);
  expect(res.status).toBe(200);
}

/** Moves every save of the user `seconds` into the past, as if that much wall-clock time went by. */
const wait = (s: Session, seconds: number) =>
  sql(`update listening_progress set updated_at = updated_at - make_interval(secs => ?) where user_id = ?`, [
    seconds,
    s.userId,
  ]);

async function mine(s: Session, query = ''): Promise<MyStats> {
  const res = await t.rest<{ data: MyStats }>('GET', `/stats/me${query}`, undefined, s);
  expect(res.status).toBe(200);
  return res.body.data;
}
const today = async (s: Session) => (await mine(s)).days.at(-1)!.seconds;

/**
 * The wall-clock time credited, give or take the real seconds the test's own requests took (a
 * slow embedded database adds up to a couple between two saves).
 */
function expectAbout(seconds: number, expected: number) {
  expect(seconds).toBeGreaterThanOrEqual(expected - 0.01);
  expect(seconds).toBeLessThan(expected + 3);
}

const listener = async () => signIn(t, (await createUser(t)).email);

describe('listening time', () => {
  it('counts real playback between saves, at any speed up to 3x, as wall-clock time', async () => {
    const file = await createAudioFile(t, { duration: 3600, isPublic: true });
    const s = await listener();
    await save(s, file.id, 100);
    expect(await today(s)).toBe(0);
    await wait(s, 10);
    await save(s, file.id, 110);
    expectAbout(await today(s), 10);
    // Twice the speed: 20 s of the book in 10 s is 10 s of listening.
    await wait(s, 10);
    await save(s, file.id, 130);
    expectAbout(await today(s), 20);
    // A pause between two saves: only the 8 s the position moved count.
    await wait(s, 300);
    await save(s, file.id, 138);
    expectAbout(await today(s), 28);
  });

  it('counts nothing for seeks, jumps back, saves in quick succession or faked long gaps', async () => {
    const file = await createAudioFile(t, { duration: 3600, isPublic: true });
    const s = await listener();
    await save(s, file.id, 100);
    // A seek forward: 5 minutes of the book in 10 s.
    await wait(s, 10);
    await save(s, file.id, 400);
    // A jump back.
    await wait(s, 10);
    await save(s, file.id, 50);
    // A save right after the last one claiming a minute was played.
    await save(s, file.id, 110);
    expect(await today(s)).toBe(0);
    // An hour claimed after an hour away counts at most two saves' worth (20 s).
    await wait(s, 3600);
    await save(s, file.id, 110 + 3600 - 100);
    expectAbout(await today(s), 20);
  });

  it('never counts more than the wall clock when several files are saved at once', async () => {
    const a = await createAudioFile(t, { duration: 3600, isPublic: true });
    const b = await createAudioFile(t, { duration: 3600, isPublic: true });
    const s = await listener();
    await save(s, a.id, 0);
    await save(s, b.id, 0);
    await wait(s, 10);
    await save(s, a.id, 10);
    await save(s, b.id, 10);
    // Both claimed the same 10 s: only the first counts (the second follows within a moment).
    const counted = await today(s);
    expect(counted).toBeGreaterThanOrEqual(9.5);
    expect(counted).toBeLessThan(13);
  });

  it('is kept apart per user: another listener sees none of it', async () => {
    const file = await createAudioFile(t, { duration: 600, isPublic: true });
    const alice = await listener();
    const bob = await listener();
    await save(alice, file.id, 0);
    await wait(alice, 10);
    await save(alice, file.id, 10);
    expectAbout(await today(alice), 10);
    expect(await today(bob)).toBe(0);
    const gql = await t.gql<{ myListeningStats: MyStats }>(
      '{ myListeningStats { days { seconds } weeks { seconds } } }',
      {},
      bob,
    );
    expect(gql.data?.myListeningStats.days.every((d) => d.seconds === 0)).toBe(true);
    expect(gql.data?.myListeningStats.weeks.every((w) => w.seconds === 0)).toBe(true);
  });
});

describe('my listening stats', () => {
  it('sums days and Monday-to-Sunday weeks, cut in the asked time zone', async () => {
    const file = await createAudioFile(t, { duration: 600, isPublic: true });
    const s = await listener();
    const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    // 02:00 UTC yesterday is still the day before in New York (UTC-4 or -5).
    for (const [daysAgo, seconds] of [
      [1, 600],
      [3, 60],
      [9, 30],
    ] as const) {
      await sql(
        `insert into listening_hours (user_id, file_id, hour, seconds) values (?, ?, (?::date + interval '2 hours') at time zone 'UTC', ?)`,
        [s.userId, file.id, utcDay(daysAgo), seconds],
      );
    }
    const utc = await mine(s, '?days=14&weeks=4');
    expect(utc.timeZone).toBe('UTC');
    expect(utc.days).toHaveLength(14);
    expect(utc.days.at(-1)!.start).toBe(utcDay(0));
    const onDay = (stats: MyStats, day: string) => stats.days.find((d) => d.start === day)?.seconds;
    expect(onDay(utc, utcDay(1))).toBe(600);
    expect(onDay(utc, utcDay(3))).toBe(60);
    expect(onDay(utc, utcDay(9))).toBe(30);
    expect(utc.days.reduce((sum, d) => sum + d.seconds, 0)).toBe(690);

    expect(utc.weeks).toHaveLength(4);
    for (const week of utc.weeks) expect(new Date(`${week.start}T00:00:00Z`).getUTCDay()).toBe(1);
    // Each week holds exactly the days from its Monday to its Sunday.
    for (const week of utc.weeks) {
      const end = new Date(Date.parse(`${week.start}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
      const inWeek = utc.days
        .filter((d) => d.start >= week.start && d.start < end)
        .reduce((sum, d) => sum + d.seconds, 0);
      if (utc.days[0].start <= week.start) expect(week.seconds).toBe(inWeek);
    }
    expect(utc.weeks.reduce((sum, w) => sum + w.seconds, 0)).toBe(690);

    const ny = await mine(s, '?timeZone=America/New_York');
    expect(ny.timeZone).toBe('America/New_York');
    expect(onDay(ny, utcDay(2))).toBe(600);
    expect(onDay(ny, utcDay(4))).toBe(60);
  });

  it('lists finished books only while the listener may still see them, and keeps their time', async () => {
    const granted = await createAudioFile(t, { duration: 100, title: 'Granted book' });
    const open = await createAudioFile(t, { duration: 100, isPublic: true, title: 'Open book' });
    const s = await listener();
    const [grant] = await grantFile(t, s.userId, [granted.id]);
    await save(s, granted.id, 80);
    await wait(s, 10);
    await save(s, granted.id, 100);
    await save(s, open.id, 100);
    let stats = await mine(s);
    expect(stats.finished.map((b) => b.file.title)).toEqual(['Open book', 'Granted book']);
    expectAbout(stats.days.at(-1)!.seconds, 10);

    await t.app.orm.em.fork().nativeUpdate(FileAccess, { id: grant.id }, { canView: false });
    stats = await mine(s);
    expect(stats.finished.map((b) => b.file.title)).toEqual(['Open book']);
    expect(JSON.stringify(stats)).not.toContain('Granted book');
    expectAbout(stats.days.at(-1)!.seconds, 10);
  });

  it('refuses a bad time zone or range with a clear message', async () => {
    const s = await listener();
    const bad = await t.rest<{ error: { code: string; message: string } }>(
      'GET',
      '/stats/me?timeZone=Mars/Base',
      undefined,
      s,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('timeZone must be a time zone name such as Europe/Paris or UTC');
    const offset = await t.gql('{ myListeningStats(timeZone: "+02:00") { timeZone } }', {}, s);
    expect(offset.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const days = await t.rest<{ error: { message: string } }>('GET', '/stats/me?days=0', undefined, s);
    expect(days.body.error.message).toBe('days must be a whole number between 1 and 366');
  });
});

describe('listening overview', () => {
  it('shows administrators the most played books and the active listeners, and nobody else', async () => {
    const admin = await createAdminSession(t);
    const long = await createAudioFile(t, { duration: 3600, isPublic: true, title: 'Long listen' });
    const popular = await createAudioFile(t, { duration: 3600, isPublic: true, title: 'Popular' });
    const users = await Promise.all([listener(), listener(), listener()]);
    const hour = new Date();
    // One listener spent an hour on one book; three spent five minutes each on the other.
    await sql(
      `insert into listening_hours (user_id, file_id, hour, seconds) values (?, ?, date_trunc('hour', ?::timestamptz), 3600)`,
      [users[0].userId, long.id, hour],
    );
    for (const u of users) {
      await sql(
        `insert into listening_hours (user_id, file_id, hour, seconds) values (?, ?, date_trunc('hour', ?::timestamptz), 300)`,
        [u.userId, popular.id, hour],
      );
    }
    // Listening before the period is left out.
    await sql(
      `insert into listening_hours (user_id, file_id, hour, seconds) values (?, ?, now() - interval '40 days', 9999)`,
      [users[1].userId, long.id],
    );

    const res = await t.rest<{
      data: {
        totalSeconds: number;
        listenerCount: number;
        byTime: { file: { title: string }; seconds: number; listeners: number }[];
        byListeners: { file: { title: string }; seconds: number; listeners: number }[];
        activeListeners: { userId: string; seconds: number; files: number }[];
      };
    }>('GET', '/admin/stats/listening?days=30', undefined, admin);
    expect(res.status).toBe(200);
    const overview = res.body.data;
    expect(overview.byTime.slice(0, 2).map((b) => [b.file.title, b.seconds, b.listeners])).toEqual([
      ['Long listen', 3600, 1],
      ['Popular', 900, 3],
    ]);
    expect(overview.byListeners[0]).toMatchObject({ file: { title: 'Popular' }, listeners: 3 });
    expect(overview.activeListeners[0]).toMatchObject({ userId: users[0].userId, seconds: 3900, files: 2 });
    for (const u of users.slice(1))
      expect(overview.activeListeners.find((a) => a.userId === u.userId)).toMatchObject({ seconds: 300, files: 1 });
    expect(overview.totalSeconds).toBeGreaterThanOrEqual(4500);

    const gql = await t.gql<{ listeningOverview: { byTime: { file: { title: string } }[] } }>(
      '{ listeningOverview(days: 7, limit: 1) { byTime { file { title } } } }',
      {},
      admin,
    );
    expect(gql.data?.listeningOverview.byTime.map((b) => b.file.title)).toEqual(['Long listen']);

    const refused = await t.rest('GET', '/admin/stats/listening', undefined, users[0]);
    expect(refused.status).toBe(403);
    const refusedGql = await t.gql('{ listeningOverview { totalSeconds } }', {}, users[0]);
    expect(refusedGql.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});
