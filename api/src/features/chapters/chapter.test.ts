import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createStoredAudioFile, grantFile, removeTones } from '../../test/stream-fixtures.js';
import type { AudioFile } from '../files/audio-file.entity.js';

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
  await removeTones();
});

interface Row {
  id: string;
  label: string;
  startTime: number;
  endTime: number | null;
  status: string;
  order: number;
}

const add = (file: AudioFile, chapters: unknown[], as: Session = admin) =>
  t.rest<{ data: Row[]; message: string }>('POST', `/files/${file.id}/chapters`, { chapters }, as);

describe('chapter validation', () => {
  it('adds pending chapters in order and lists them', async () => {
    const file = await createStoredAudioFile(t);
    const res = await add(file, [
      { label: ' Intro ', startTime: 0, endTime: 5 },
      { label: 'Rest', startTime: 5, endTime: null },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('2 chapters added successfully');
    const list = await t.rest<{ data: Row[] }>('GET', `/files/${file.id}/chapters`, undefined, admin);
    expect(list.body.data.map((c) => [c.label, c.startTime, c.endTime, c.status, c.order])).toEqual([
      ['Intro', 0, 5, 'pending', 0],
      ['Rest', 5, null, 'pending', 1],
    ]);
    const status = await t.rest('GET', `/files/${file.id}/chapters/status`, undefined, admin);
    expect(status.body).toMatchObject({ data: { summary: { pending: 2, ready: 0, failed: 0, total: 2 } } });
  });

  it('refuses a missing label and negative, reversed, out-of-range or overlapping times', async () => {
    const file = await createStoredAudioFile(t);
    await add(file, [{ label: 'First', startTime: 0, endTime: 10 }]);
    const cases: [unknown, string | RegExp][] = [
      [{ label: '  ', startTime: 1 }, 'Chapter label is required'],
      [{ startTime: 1 }, 'Chapter label is required'],
      [{ label: 'x', startTime: -1 }, 'Start time must be 0 or more'],
      [{ label: 'x', startTime: 15, endTime: 12 }, 'Chapter "x": end time must be after the start time'],
      [{ label: 'x', startTime: 25 }, /start time must be within the file's duration \(20 s\)/],
      [{ label: 'x', startTime: 12, endTime: 21 }, /end time must be within/],
      [{ label: 'x', startTime: 5 }, 'Chapter "x" (from 5 s) overlaps chapter "First" (0 s to 10 s)'],
      [{ label: 'x', startTime: 'soon' }, /Start time must be a number/],
    ];
    for (const [chapter, message] of cases) {
      const res = await add(file, [chapter]);
      expect(res.status, JSON.stringify(chapter)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    const twoOverlapping = await add(file, [
      { label: 'p', startTime: 12, endTime: 16 },
      { label: 'q', startTime: 14 },
    ]);
    expect(twoOverlapping.body.message).toMatch(/"q" .* overlaps chapter "p"/);
    const list = await t.rest<{ data: Row[] }>('GET', `/files/${file.id}/chapters`, undefined, admin);
    expect(list.body.data).toHaveLength(1);
  });

  it('updates and deletes chapters, checking the new times against the others', async () => {
    const file = await createStoredAudioFile(t);
    const [a, b] = (
      await add(file, [
        { label: 'A', startTime: 0, endTime: 8 },
        { label: 'B', startTime: 8 },
      ])
    ).body.data;
    const clash = await t.rest(
      'PUT',
      `/files/${file.id}/chapters/${b.id}`,
      { label: 'B', startTime: 4, endTime: null },
      admin,
    );
    expect(clash.status).toBe(400);
    const ok = await t.rest(
      'PUT',
      `/files/${file.id}/chapters/${b.id}`,
      { label: 'B2', startTime: 10, endTime: 18 },
      admin,
    );
    expect(ok.body).toMatchObject({
      message: 'Chapter updated successfully',
      data: { label: 'B2', startTime: 10, endTime: 18 },
    });
    const del = await t.rest('DELETE', `/files/${file.id}/chapters/${a.id}`, undefined, admin);
    expect(del.body).toMatchObject({ message: 'Chapter deleted successfully' });
    expect((await t.rest('DELETE', `/files/${file.id}/chapters/${a.id}`, undefined, admin)).status).toBe(404);
  });

  it('loads sample chapters only onto a file without chapters', async () => {
    const file = await createStoredAudioFile(t, { seconds: 40 });
    const res = await t.rest<{ chapters: Row[] }>('POST', `/files/${file.id}/chapters/sample`, undefined, admin);
    expect(res.status).toBe(201);
    expect(res.body.chapters.map((c) => [c.startTime, c.status])).toEqual([
      [0, 'pending'],
      [13, 'pending'],
      [26, 'pending'],
    ]);
    expect((await t.rest('POST', `/files/${file.id}/chapters/sample`, undefined, admin)).status).toBe(409);
  });
});

describe('chapter permissions', () => {
  it('lets viewers read, only administrators change, and hides files a user cannot see', async () => {
    const file = await createStoredAudioFile(t);
    await add(file, [{ label: 'A', startTime: 0 }]);
    const user = await createUser(t);
    const session = await signIn(t, user.email);
    expect((await t.rest('GET', `/files/${file.id}/chapters`)).status).toBe(401);
    expect((await t.rest('GET', `/files/${file.id}/chapters`, undefined, session)).status).toBe(404);
    await grantFile(t, user.id, file.id);
    expect((await t.rest('GET', `/files/${file.id}/chapters`, undefined, session)).status).toBe(200);
    expect((await add(file, [{ label: 'B', startTime: 10 }], session)).status).toBe(403);
    expect((await t.rest('POST', `/files/${file.id}/chapters/finalize`, {}, session)).status).toBe(403);
    expect((await t.rest('POST', `/files/${file.id}/chapters/sample`, undefined, session)).status).toBe(403);
    const bad = await t.rest('POST', `/files/${file.id}/chapters/finalize`, { storageType: 'cloud' }, admin);
    expect(bad.status).toBe(400);
  });
});

describe('chapters over GraphQL', () => {
  // 90 s, past its 60 s wait for 'ready': a busy machine can take that long to encode four minutes.
  it('creates, finalizes and pushes status changes to an administrator', async () => {
    // Long enough for ffmpeg to report progress several times before it is done.
    const file = await createStoredAudioFile(t, { seconds: 240 });
    const client = createClient({
      url: t.url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${admin.token}`, deviceId: admin.deviceId },
      retryAttempts: 0,
    });
    type Event = { fileId: string; chapterId: string | null; status: string | null; progress: number | null };
    const events: Event[] = [];
    const stop = client.subscribe<{ chapterEvents: Event }>(
      {
        query: 'subscription($id: ID!) { chapterEvents(fileId: $id) { fileId chapterId status progress } }',
        variables: { id: file.id },
      },
      { next: ({ data }) => data && events.push(data.chapterEvents), error: () => {}, complete: () => {} },
    );
    await new Promise((r) => setTimeout(r, 300));
    try {
      const created = await t.gql<{ createChapters: { id: string; fileId: string; status: string }[] }>(
        'mutation($id: ID!) { createChapters(fileId: $id, chapters: [{ label: "Only", startTime: 0 }]) { id fileId status } }',
        { id: file.id },
        admin,
      );
      expect(created.errors).toBeUndefined();
      const chapter = created.data!.createChapters[0];
      expect(chapter).toMatchObject({ fileId: file.id, status: 'pending' });
      const asked = Date.now();
      const done = await t.gql<{
        finalizeChapters: {
          summary: { finalized: number; failed: number; total: number };
          finalizedChapters: unknown[];
          errors: unknown[];
          queuedChapters: number;
        };
      }>(
        'mutation($id: ID!) { finalizeChapters(fileId: $id, storageType: database) { summary { finalized failed total } finalizedChapters { status } errors { message } queuedChapters } }',
        { id: file.id },
        admin,
      );
      // The answer comes at once; the encoding (several seconds of work) goes on in a job.
      expect(Date.now() - asked).toBeLessThan(2000);
      expect(done.errors).toBeUndefined();
      expect(done.data!.finalizeChapters).toEqual({
        summary: { finalized: 0, failed: 0, total: 1 },
        finalizedChapters: [],
        errors: [],
        queuedChapters: 1,
      });
      const status = await t.gql<{ chapterStatus: Record<string, number> }>(
        'query($id: ID!) { chapterStatus(fileId: $id) { pending finalizing ready failed total } }',
        { id: file.id },
        admin,
      );
      expect(status.data!.chapterStatus).toMatchObject({ pending: 0, ready: 0, total: 1 });
      await vi.waitFor(() => expect(events.at(-1)?.status).toBe('ready'), { timeout: 60_000, interval: 100 });
      const url = await t.gql<{ chapterStreamUrl: { streamUrl: string } }>(
        'mutation($f: ID!, $c: ID!) { chapterStreamUrl(fileId: $f, chapterId: $c) { streamUrl expiresAt } }',
        { f: file.id, c: chapter.id },
        admin,
      );
      expect(url.data!.chapterStreamUrl.streamUrl).toMatch(
        new RegExp(`^/api/v1/chapters/${chapter.id}/playlist\\.m3u8\\?`),
      );
      expect(events[0]).toMatchObject({ fileId: file.id, chapterId: null, status: 'pending', progress: null });
      const encoding = events.slice(1, -1);
      expect(encoding.every((e) => e.chapterId === chapter.id && e.status === 'finalizing')).toBe(true);
      const percents = encoding.map((e) => e.progress!);
      expect(percents[0]).toBe(0);
      // Progress went up between the queueing and the end: some values strictly between 0 and 100.
      expect(percents.some((p) => p > 0 && p < 100)).toBe(true);
      for (let i = 1; i < percents.length; i++) expect(percents[i]).toBeGreaterThanOrEqual(percents[i - 1]);
      expect(events.at(-1)).toMatchObject({ chapterId: chapter.id, status: 'ready', progress: 100 });
    } finally {
      stop();
      await client.dispose();
    }
  }, 90_000);

  it('stops sending chapter events to an administrator who is no longer one', async () => {
    const file = await createStoredAudioFile(t);
    const second = await createAdminSession(t);
    const client = createClient({
      url: t.url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${second.token}`, deviceId: second.deviceId },
      retryAttempts: 0,
    });
    const received: unknown[] = [];
    const stop = client.subscribe(
      {
        query: 'subscription($id: ID!) { chapterEvents(fileId: $id) { chapterId status } }',
        variables: { id: file.id },
      },
      { next: (result) => received.push(result), error: (err) => received.push({ error: err }), complete: () => {} },
    );
    await new Promise((r) => setTimeout(r, 300));
    try {
      const addOne = (label: string, startTime: number) =>
        t.gql(
          'mutation($id: ID!, $c: [ChapterInput!]!) { createChapters(fileId: $id, chapters: $c) { id } }',
          { id: file.id, c: [{ label, startTime, endTime: startTime + 2 }] },
          admin,
        );
      await addOne('While admin', 0);
      await vi.waitFor(() => expect(received).toHaveLength(1));
      expect(received[0]).toMatchObject({ data: { chapterEvents: { status: 'pending' } } });

      const demoted = await t.rest('PUT', `/admin/users/${second.userId}`, { role: 'user' }, admin);
      expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
      await addOne('After demotion', 4);
      await vi.waitFor(() => expect(received).toHaveLength(2));
      expect(JSON.stringify(received[1])).toContain('Administrator access required');
      expect(JSON.stringify(received[1])).not.toContain('"status":"pending"');
    } finally {
      stop();
      await client.dispose();
    }
  });

  it('refuses the chapter subscription to a non-administrator', async () => {
    const file = await createStoredAudioFile(t, { isPublic: true });
    const user = await signIn(t, (await createUser(t)).email);
    const client = createClient({
      url: t.url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${user.token}`, deviceId: user.deviceId },
      retryAttempts: 0,
    });
    const error = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: 'subscription($id: ID!) { chapterEvents(fileId: $id) { chapterId } }', variables: { id: file.id } },
        { next: resolve, error: resolve, complete: () => resolve(null) },
      );
    });
    await client.dispose();
    expect(JSON.stringify(error)).toContain('Administrator access required');
  });
});
