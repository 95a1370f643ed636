import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChapterClient, parsePlaylist, withSession } from '../../test/chapter-client.js';
import { countQueries } from '../../test/count-queries.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { removeTones, setGrant, setLocked } from '../../test/stream-fixtures.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import { NOT_READY_MESSAGE } from './chapter-playback.js';

/** A chapter's playlist and key answer only the session they were made for, and only while it may play. */

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

describe('the key is re-checked at every fetch', () => {
  let file: AudioFile;
  let chapterId: string;
  beforeAll(async () => {
    file = await c.fileWithChapters([{ label: 'Only', startTime: 0, endTime: 6 }]);
    const [chapter] = await c.finalizeAndWait(file.id, 'filesystem');
    expect(chapter.status).toBe('ready');
    chapterId = chapter.id;
  });

  async function keyUrlFor(viewer: Session): Promise<string> {
    const url = await c.streamUrl(file.id, chapterId, viewer);
    return parsePlaylist(await (await fetch(url, { headers: withSession(viewer) })).text(), url).keyUrl;
  }

  /** A refusal as the player sees it: 403 FORBIDDEN with a message saying why, never a 401. */
  async function expectForbidden(res: Response, message: RegExp): Promise<void> {
    expect(res.status).toBe(403);
    const body = (await res.json()) as { success: boolean; error: { code: string; message: string } };
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('FORBIDDEN');
    expect(body.error.message).toMatch(message);
  }

  /** A file the session no longer sees, answered as an unknown chapter. */
  async function expectNotFound(res: Response): Promise<void> {
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'Chapter not found' } });
  }

  async function expectKey(res: Response): Promise<void> {
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await res.arrayBuffer()).byteLength).toBe(16);
  }

  it('needs the signed-in session the URL was made for, and answers 403 to any other caller', async () => {
    const viewer = await c.viewerOf(file.id);
    const keyUrl = await keyUrlFor(viewer);
    await expectForbidden(await fetch(keyUrl), /only given to the signed-in session/);
    await expectForbidden(await fetch(keyUrl, { headers: { 'x-device-id': viewer.deviceId } }), /signed-in session/);
    const bearerOnly = { authorization: `Bearer ${viewer.token}` };
    await expectForbidden(await fetch(keyUrl, { headers: bearerOnly }), /does not belong to this device/);
    const otherDevice = { ...withSession(viewer), 'x-device-id': `${viewer.deviceId}-other` };
    await expectForbidden(await fetch(keyUrl, { headers: otherDevice }), /does not belong to this device/);
    const forged = { ...withSession(viewer), authorization: 'Bearer not.a.token' };
    await expectForbidden(await fetch(keyUrl, { headers: forged }), /authentication token/);
    const other = await c.viewerOf(file.id);
    await expectForbidden(await fetch(keyUrl, { headers: withSession(other) }), /no longer valid/);
    const tampered = keyUrl.replace(/sig=([^&])/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    await expectForbidden(await fetch(tampered, { headers: withSession(viewer) }), /Invalid signed URL/);
    const later = keyUrl.replace(/exp=(\d+)/, (_m, exp: string) => `exp=${Number(exp) + 60_000}`);
    await expectForbidden(await fetch(later, { headers: withSession(viewer) }), /Invalid signed URL/);
    await expectKey(await fetch(keyUrl, { headers: withSession(viewer) }));
  });

  it('stops at once when the grant is revoked or expires, the account is locked or the session ends', async () => {
    const viewer = await c.viewerOf(file.id);
    const url = await c.streamUrl(file.id, chapterId, viewer);
    const keyUrl = await keyUrlFor(viewer);
    const fetchKey = () => fetch(keyUrl, { headers: withSession(viewer) });
    const fetchPlaylist = () => fetch(url, { headers: withSession(viewer) });
    await expectKey(await fetchKey());
    expect((await fetchPlaylist()).status).toBe(200);
    await setGrant(t, viewer.grantId, { canView: false });
    await expectNotFound(await fetchKey());
    await expectNotFound(await fetchPlaylist());
    await setGrant(t, viewer.grantId, { canView: true, expiresAt: new Date(Date.now() - 1000) });
    await expectNotFound(await fetchKey());
    await setGrant(t, viewer.grantId, { expiresAt: null });
    await expectKey(await fetchKey());
    await setLocked(t, viewer.userId, true);
    await expectForbidden(await fetchKey(), /locked/);
    await expectForbidden(await fetchPlaylist(), /locked/);
    await setLocked(t, viewer.userId, false);
    await expectKey(await fetchKey());
    await t.rest('POST', '/auth/logout', undefined, viewer);
    await expectForbidden(await fetchKey(), /Session expired or ended/);
    await expectForbidden(await fetchPlaylist(), /Session expired or ended/);
    // Without credentials the playlist is refused before anything else.
    await expectForbidden(await fetch(url), /only given to the signed-in session/);
    // Every other route keeps answering a bad credential with 401.
    expect((await t.rest('GET', `/files/${file.id}/chapters`, undefined, viewer)).status).toBe(401);

    // The device signs in again: a new session, in which the old URLs and the old token stay dead.
    const again = await signIn(t, viewer.email, viewer.deviceId);
    expect(again.sessionId).toBe(viewer.sessionId);
    await expectForbidden(await fetch(keyUrl, { headers: withSession(again) }), /no longer valid/);
    await expectForbidden(await fetch(url, { headers: withSession(again) }), /no longer valid/);
    await expectForbidden(await fetchKey(), /Session expired or ended/);
    expect((await t.rest('GET', `/files/${file.id}/chapters`, undefined, viewer)).status).toBe(401);
    await expectKey(await fetch(await keyUrlFor(again), { headers: withSession(again) }));
  });

  it('answers the playlist and the key in one statement each', async () => {
    const viewer = await c.viewerOf(file.id);
    const url = await c.streamUrl(file.id, chapterId, viewer);
    const keyUrl = await keyUrlFor(viewer);
    const playlist = await countQueries(async () => (await fetch(url, { headers: withSession(viewer) })).text());
    const key = await countQueries(async () => expectKey(await fetch(keyUrl, { headers: withSession(viewer) })));
    expect(playlist.result).toContain('#EXT-X-KEY');
    console.log(`queries: playlist ${playlist.queries}, key ${key.queries}`);
    expect({ playlist: playlist.queries, key: key.queries }).toEqual({ playlist: 1, key: 1 });
  });

  it('refuses a stream URL for a chapter that is not ready, and for a file the caller cannot see', async () => {
    const pendingFile = await c.fileWithChapters([{ label: 'Pending', startTime: 0 }]);
    const list = await t.rest<{ data: { id: string }[] }>('GET', `/files/${pendingFile.id}/chapters`, undefined, admin);
    const res = await t.rest('POST', `/files/${pendingFile.id}/chapters/${list.body.data[0].id}/stream-url`, {}, admin);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ message: NOT_READY_MESSAGE });

    const stranger = await signIn(t, (await createUser(t)).email);
    // A file the caller cannot see answers as an unknown id would.
    const denied = await t.rest('POST', `/files/${file.id}/chapters/${chapterId}/stream-url`, {}, stranger);
    expect(denied.status).toBe(404);
  });
});
