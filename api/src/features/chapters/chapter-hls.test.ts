import { createDecipheriv } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChapterClient,
  looksLikeTransportStream,
  parsePlaylist,
  waitForChaptersReady,
  withSession,
} from '../../test/chapter-client.js';
import { createAdminSession, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { removeTones } from '../../test/stream-fixtures.js';

/** Finalizing chapters into encrypted HLS, playing them, and what a failed finalize leaves. */

let t: TestApp;
let admin: Session;
let c: ChapterClient;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  c = new ChapterClient(t, admin);
});
afterAll(async () => {
  await t?.close();
  await removeTones();
});

describe.each(['filesystem', 'database'])('finalize into %s storage and play as AES-128 HLS', (storageType) => {
  it('encrypts each chapter with its own key; segments decrypt to MPEG-TS only with the key', async () => {
    const file = await c.fileWithChapters([
      { label: 'One', startTime: 0, endTime: 8 },
      { label: 'Two', startTime: 8, endTime: null },
    ]);
    const res = await c.finalize(file.id, storageType);
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({ finalized: 0, failed: 0, total: 2 });
    expect(res.body.queuedChapters).toBe(2);
    expect(res.body.data.queuedChapters).toBe(2);
    expect(res.body.errors).toEqual([]);
    const finalized = await waitForChaptersReady(t, file.id, admin);
    expect(finalized.map((c) => c.status)).toEqual(['ready', 'ready']);
    for (const c of finalized) {
      expect(c).toMatchObject({ status: 'ready', error: null });
      expect(c.finalizedAt).not.toBeNull();
      expect(c.encryptedSize).toBeGreaterThan(c.plainSize as number);
      expect((c.encryptedSize as number) - (c.plainSize as number)).toBeLessThanOrEqual(16 * 10);
    }
    expect(JSON.stringify(finalized)).not.toMatch(/"key"|"iv"|playlist/i);

    const viewer = await c.viewerOf(file.id);
    const [one, two] = finalized;
    const url = await c.streamUrl(file.id, two.id, viewer);
    // The playlist proves the session too: its URL alone is refused, and counts for no one.
    const stranger = await fetch(url);
    expect(stranger.status).toBe(403);
    expect(stranger.headers.get('cache-control')).toBe('no-store');
    const playlistRes = await fetch(url, { headers: withSession(viewer) });
    expect(playlistRes.status).toBe(200);
    expect(playlistRes.headers.get('content-type')).toContain('application/vnd.apple.mpegurl');
    expect(playlistRes.headers.get('cache-control')).toBe('no-store');
    const playlist = parsePlaylist(await playlistRes.text(), url);
    expect(playlist.segments.length).toBeGreaterThanOrEqual(2); // 12 s in segments of about 6 s

    const keyRes = await fetch(playlist.keyUrl, { headers: withSession(viewer) });
    expect(keyRes.status).toBe(200);
    expect(keyRes.headers.get('cache-control')).toBe('no-store');
    const key = Buffer.from(await keyRes.arrayBuffer());
    expect(key.length).toBe(16);

    const segRes = await fetch(playlist.segments[0]);
    expect(segRes.status).toBe(200);
    expect(segRes.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(segRes.headers.get('content-type')).toBe('video/mp2t');
    const encrypted = Buffer.from(await segRes.arrayBuffer());
    expect(looksLikeTransportStream(encrypted)).toBe(false);
    const decipher = createDecipheriv('aes-128-cbc', key, playlist.iv);
    const plain = Buffer.concat([decipher.update(encrypted), decipher.final()]);
    expect(looksLikeTransportStream(plain)).toBe(true);

    // The other chapter's key is a different key: it does not decrypt this segment.
    const otherUrl = await c.streamUrl(file.id, one.id, viewer);
    const other = parsePlaylist(await (await fetch(otherUrl, { headers: withSession(viewer) })).text(), otherUrl);
    const otherKey = Buffer.from(await (await fetch(other.keyUrl, { headers: withSession(viewer) })).arrayBuffer());
    expect(otherKey.equals(key)).toBe(false);
    const wrong = createDecipheriv('aes-128-cbc', otherKey, playlist.iv).setAutoPadding(false);
    expect(looksLikeTransportStream(Buffer.concat([wrong.update(encrypted), wrong.final()]))).toBe(false);

    // A guessed segment address is not served.
    const guessed = playlist.segments[0].replace(/segments\/[^/]+\//, 'segments/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/');
    expect((await fetch(guessed)).status).toBe(404);
  });
});

describe('finalize failures', () => {
  it('marks every chapter failed after its retries when the source is missing, and the server stays up', async () => {
    const file = await c.fileWithChapters([
      { label: 'A', startTime: 0, endTime: 5 },
      { label: 'B', startTime: 5 },
    ]);
    await rm(path.join(t.config.dataDir, file.storagePath));
    const res = await c.finalize(file.id, 'filesystem');
    expect(res.status).toBe(200);
    expect(res.body.queuedChapters).toBe(2);
    const ended = await waitForChaptersReady(t, file.id, admin);
    expect(ended.map((e) => [e.status, e.error])).toEqual([
      ['failed', 'Source audio file is missing from storage'],
      ['failed', 'Source audio file is missing from storage'],
    ]);
    const status = await t.rest('GET', `/files/${file.id}/chapters/status`, undefined, admin);
    expect(status.body).toMatchObject({ data: { summary: { pending: 0, ready: 0, failed: 2 } } });
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);

    // Why it failed is for administrators; a viewer of the file sees that it failed, not the detail.
    const listed = (session: Session) =>
      t.rest<{ data: Record<string, unknown>[] }>('GET', `/files/${file.id}/chapters`, undefined, session);
    expect((await listed(admin)).body.data[0]).toMatchObject({
      status: 'failed',
      error: 'Source audio file is missing from storage',
    });
    const viewer = await c.viewerOf(file.id);
    const seen = (await listed(viewer)).body.data[0];
    expect(seen).toMatchObject({ status: 'failed' });
    expect(Object.keys(seen)).not.toContain('error');
    expect(Object.keys(seen)).not.toContain('storageType');
    const fields = `query($id: ID!) { chapters(fileId: $id) { status error storageType } }`;
    const asViewer = await t.gql(fields, { id: file.id }, viewer);
    expect(asViewer.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const asAdmin = await t.gql<{ chapters: { error: string | null }[] }>(fields, { id: file.id }, admin);
    expect(asAdmin.errors).toBeUndefined();
    expect(asAdmin.data?.chapters[0].error).toBe('Source audio file is missing from storage');
    const tmp = path.join(t.config.dataDir, 'tmp');
    expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
  });

  it('refuses to move a ready chapter back by editing its times', async () => {
    const file = await c.fileWithChapters([{ label: 'Fixed', startTime: 0, endTime: 4 }]);
    const [chapter] = await c.finalizeAndWait(file.id, 'database');
    expect(chapter.status).toBe('ready');
    const moved = await t.rest(
      'PUT',
      `/files/${file.id}/chapters/${chapter.id}`,
      { label: 'Fixed', startTime: 1, endTime: 4 },
      admin,
    );
    expect(moved.status).toBe(409);
    const renamed = await t.rest('PUT', `/files/${file.id}/chapters/${chapter.id}`, { label: 'Renamed' }, admin);
    expect(renamed.body).toMatchObject({ data: { label: 'Renamed', status: 'ready' } });
    const again = await c.finalize(file.id, 'database');
    expect(again.body.summary).toEqual({ finalized: 0, failed: 0, total: 0 });
    expect(again.body.queuedChapters).toBe(0);
  });
});
