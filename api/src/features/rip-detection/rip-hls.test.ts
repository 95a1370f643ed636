import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { ChapterClient } from '../../test/chapter-client.js';
import { eventually } from '../../test/rip-fixtures.js';
import { createStoredAudioFile, grantFile, removeTones } from '../../test/stream-fixtures.js';
import type { AudioFile } from '../files/audio-file.entity.js';

const CHAPTERS = 24;
/** Distinct chapter keys a session may fetch per window in this app (the default is 30). */
const KEYS = 20;

let t: TestApp;
let admin: Session;
let file: AudioFile;
let chapterIds: string[];
beforeAll(async () => {
  t = await startTestApp({ env: { RIP_KEYS_PER_WINDOW: String(KEYS) } });
  admin = await createAdminSession(t);
  file = await createStoredAudioFile(t, { seconds: CHAPTERS });
  const chapters = Array.from({ length: CHAPTERS }, (_, i) => ({
    label: `Part ${i + 1}`,
    startTime: i,
    endTime: i + 1,
  }));
  expect((await t.rest('POST', `/files/${file.id}/chapters`, { chapters }, admin)).status).toBe(201);
  const done = await new ChapterClient(t, admin).finalizeAndWait(file.id, 'filesystem');
  expect(done.filter((c) => c.status === 'ready')).toHaveLength(CHAPTERS);
  // Listed in the file's order.
  chapterIds = done.map((c) => c.id);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await removeTones();
});

const headersOf = (s: Session) => ({ authorization: `Bearer ${s.token}`, 'x-device-id': s.deviceId });

async function viewer(): Promise<Session> {
  const user = await createUser(t);
  await grantFile(t, user.id, file.id);
  return signIn(t, user.email);
}

/** Loads a chapter as Shaka does: the playlist, its key with the session's headers, then its segments. */
async function loadChapter(session: Session, chapterId: string) {
  const grant = await t.rest<{ data: { streamUrl: string } }>(
    'POST',
    `/files/${file.id}/chapters/${chapterId}/stream-url`,
    { expiresIn: 1_800_000 },
    session,
  );
  const playlistUrl = `${t.url}${grant.body.data.streamUrl}`;
  const text = await (await fetch(playlistUrl, { headers: headersOf(session) })).text();
  const keyUri = /URI="([^"]+)"/.exec(text)?.[1] ?? '';
  const key = await fetch(new URL(keyUri, playlistUrl), { headers: headersOf(session) });
  const segments = text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => new URL(l, playlistUrl).toString());
  return { key, segments };
}

async function ripEntries(userId: string) {
  const res = await t.gql<{
    auditLog: { items: { action: string; userId: string; details: Record<string, unknown> }[] };
  }>('{ auditLog(offset: 0, limit: 100) { items { action userId details } } }', {}, admin);
  return (res.data?.auditLog.items ?? []).filter((e) => e.action === 'stream.rip_suspected' && e.userId === userId);
}

describe('rip detection on encrypted chapters', () => {
  it('never trips on a listener skipping chapters back and forth ten times', async () => {
    const person = await viewer();
    for (const index of [0, 1, 2, 5, 4, 9, 10, 3, 20, 21]) {
      const { key, segments } = await loadChapter(person, chapterIds[index]);
      expect(key.status).toBe(200);
      for (const segment of segments) expect((await fetch(segment)).status).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(await ripEntries(person.userId)).toEqual([]);
  });

  it("flags a session harvesting every chapter's key, then gives it one key a window and paces its segments", async () => {
    const harvester = await viewer();
    let last = { key: new Response(), segments: [] as string[] };
    for (const id of chapterIds.slice(0, KEYS + 1)) {
      last = await loadChapter(harvester, id);
      expect(last.key.status).toBe(200);
    }
    const [entry] = await eventually(async () => {
      const found = await ripEntries(harvester.userId);
      return found.length > 0 ? found : undefined;
    });
    expect(entry.details).toMatchObject({ rule: 'keys', keys: KEYS + 1 });

    // Throttled: a key already fetched this window is given again; a new one waits (429, Retry-After).
    expect((await loadChapter(harvester, chapterIds[0])).key.status).toBe(200);
    const next = await loadChapter(harvester, chapterIds[KEYS + 1]);
    expect(next.key.status).toBe(429);
    expect(Number(next.key.headers.get('retry-after'))).toBeGreaterThan(0);
    // Its segments go out at 1.5x real time: they count for the session their URL names, fetched
    // with no credential from anywhere; a URL naming another account is no URL at all.
    const forged = last.segments[0].replace(/segments\/[0-9a-f-]+\./, `segments/${admin.userId}.`);
    expect(forged).not.toBe(last.segments[0]);
    expect((await fetch(forged)).status).toBe(404);
    const started = performance.now();
    for (const segment of [...last.segments, ...next.segments]) expect((await fetch(segment)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThan(400);
  });
});
