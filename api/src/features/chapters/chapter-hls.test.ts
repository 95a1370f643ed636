import { createDecipheriv } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from '../../test/count-queries.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createStoredAudioFile, grantFile, removeTones, setGrant, setLocked } from '../../test/stream-fixtures.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import { NOT_READY_MESSAGE } from './chapter-playback.js';

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

interface ChapterRow {
  id: string;
  label: string;
  status: string;
  plainSize: number | null;
  encryptedSize: number | null;
  finalizedAt: string | null;
  error: string | null;
}
interface FinalizeBody {
  finalizedChapters: ChapterRow[];
  errors: { chapterId: string; message: string }[];
  summary: { finalized: number; failed: number };
}

async function fileWithChapters(
  chapters: { label: string; startTime: number; endTime?: number | null }[],
): Promise<AudioFile> {
  const file = await createStoredAudioFile(t, { seconds: 20 });
  const res = await t.rest('POST', `/files/${file.id}/chapters`, { chapters }, admin);
  expect(res.status).toBe(201);
  return file;
}

async function finalize(fileId: string, storageType: string) {
  return t.rest<{ data: FinalizeBody } & FinalizeBody>(
    'POST',
    `/files/${fileId}/chapters/finalize`,
    { storageType },
    admin,
  );
}

async function viewerOf(fileId: string): Promise<Session & { grantId: string; email: string }> {
  const user = await createUser(t);
  const grantId = await grantFile(t, user.id, fileId);
  return { ...(await signIn(t, user.email)), grantId, email: user.email };
}

async function streamUrl(fileId: string, chapterId: string, session: Session): Promise<string> {
  const res = await t.rest<{ data: { streamUrl: string }; streamUrl: string }>(
    'POST',
    `/files/${fileId}/chapters/${chapterId}/stream-url`,
    { expiresIn: 1800000 },
    session,
  );
  expect(res.status).toBe(200);
  expect(res.body.streamUrl).toBe(res.body.data.streamUrl);
  return `${t.url}${res.body.data.streamUrl}`;
}

function parsePlaylist(text: string, base: string) {
  const key = /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)",IV=0x([0-9a-f]{32})/i.exec(text);
  expect(key).not.toBeNull();
  const segments = text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => new URL(l, base).toString());
  return { keyUrl: new URL(key![1], base).toString(), iv: Buffer.from(key![2], 'hex'), segments };
}

/** MPEG-TS: a 0x47 sync byte at the start of each 188-byte packet (eight checked, so chance never passes). */
function looksLikeTransportStream(bytes: Buffer): boolean {
  const packets = Math.min(8, Math.floor(bytes.length / 188));
  return packets > 0 && Array.from({ length: packets }, (_, i) => bytes[i * 188]).every((b) => b === 0x47);
}

const withSession = (s: Session) => ({ authorization: `Bearer ${s.token}`, 'x-device-id': s.deviceId });

describe.each(['filesystem', 'database'])('finalize into %s storage and play as AES-128 HLS', (storageType) => {
  it('encrypts each chapter with its own key; segments decrypt to MPEG-TS only with the key', async () => {
    const file = await fileWithChapters([
      { label: 'One', startTime: 0, endTime: 8 },
      { label: 'Two', startTime: 8, endTime: null },
    ]);
    const res = await finalize(file.id, storageType);
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({ finalized: 2, failed: 0, total: 2 });
    expect(res.body.errors).toEqual([]);
    for (const c of res.body.finalizedChapters) {
      expect(c).toMatchObject({ status: 'ready', error: null });
      expect(c.finalizedAt).not.toBeNull();
      expect(c.encryptedSize).toBeGreaterThan(c.plainSize as number);
      expect((c.encryptedSize as number) - (c.plainSize as number)).toBeLessThanOrEqual(16 * 10);
    }
    expect(JSON.stringify(res.body)).not.toMatch(/"key"|"iv"|playlist/i);

    const viewer = await viewerOf(file.id);
    const [one, two] = res.body.finalizedChapters;
    const url = await streamUrl(file.id, two.id, viewer);
    const playlistRes = await fetch(url);
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
    const otherUrl = await streamUrl(file.id, one.id, viewer);
    const other = parsePlaylist(await (await fetch(otherUrl)).text(), otherUrl);
    const otherKey = Buffer.from(await (await fetch(other.keyUrl, { headers: withSession(viewer) })).arrayBuffer());
    expect(otherKey.equals(key)).toBe(false);
    const wrong = createDecipheriv('aes-128-cbc', otherKey, playlist.iv).setAutoPadding(false);
    expect(looksLikeTransportStream(Buffer.concat([wrong.update(encrypted), wrong.final()]))).toBe(false);

    // A guessed segment address is not served.
    const guessed = playlist.segments[0].replace(/segments\/[^/]+\//, 'segments/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/');
    expect((await fetch(guessed)).status).toBe(404);
  });
});

describe('the key is re-checked at every fetch', () => {
  let file: AudioFile;
  let chapterId: string;
  beforeAll(async () => {
    file = await fileWithChapters([{ label: 'Only', startTime: 0, endTime: 6 }]);
    const res = await finalize(file.id, 'filesystem');
    chapterId = res.body.finalizedChapters[0].id;
  });

  async function keyUrlFor(viewer: Session): Promise<string> {
    const url = await streamUrl(file.id, chapterId, viewer);
    return parsePlaylist(await (await fetch(url)).text(), url).keyUrl;
  }

  /** A refusal as the player sees it: 403 FORBIDDEN with a message saying why, never a 401. */
  async function expectForbidden(res: Response, message: RegExp): Promise<void> {
    expect(res.status).toBe(403);
    const body = (await res.json()) as { success: boolean; error: { code: string; message: string } };
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('FORBIDDEN');
    expect(body.error.message).toMatch(message);
  }

  async function expectKey(res: Response): Promise<void> {
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await res.arrayBuffer()).byteLength).toBe(16);
  }

  it('needs the signed-in session the URL was made for, and answers 403 to any other caller', async () => {
    const viewer = await viewerOf(file.id);
    const keyUrl = await keyUrlFor(viewer);
    await expectForbidden(await fetch(keyUrl), /only given to the signed-in session/);
    await expectForbidden(await fetch(keyUrl, { headers: { 'x-device-id': viewer.deviceId } }), /signed-in session/);
    const bearerOnly = { authorization: `Bearer ${viewer.token}` };
    await expectForbidden(await fetch(keyUrl, { headers: bearerOnly }), /does not belong to this device/);
    const otherDevice = { ...withSession(viewer), 'x-device-id': `${viewer.deviceId}-other` };
    await expectForbidden(await fetch(keyUrl, { headers: otherDevice }), /does not belong to this device/);
    const forged = { ...withSession(viewer), authorization: 'Bearer not.a.token' };
    await expectForbidden(await fetch(keyUrl, { headers: forged }), /authentication token/);
    const other = await viewerOf(file.id);
    await expectForbidden(await fetch(keyUrl, { headers: withSession(other) }), /no longer valid/);
    const tampered = keyUrl.replace(/sig=([^&])/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    await expectForbidden(await fetch(tampered, { headers: withSession(viewer) }), /Invalid signed URL/);
    const later = keyUrl.replace(/exp=(\d+)/, (_m, exp: string) => `exp=${Number(exp) + 60_000}`);
    await expectForbidden(await fetch(later, { headers: withSession(viewer) }), /Invalid signed URL/);
    await expectKey(await fetch(keyUrl, { headers: withSession(viewer) }));
  });

  it('stops at once when the grant is revoked or expires, the account is locked or the session ends', async () => {
    const viewer = await viewerOf(file.id);
    const url = await streamUrl(file.id, chapterId, viewer);
    const keyUrl = await keyUrlFor(viewer);
    const fetchKey = () => fetch(keyUrl, { headers: withSession(viewer) });
    const fetchPlaylist = () => fetch(url, { headers: withSession(viewer) });
    await expectKey(await fetchKey());
    expect((await fetchPlaylist()).status).toBe(200);
    await setGrant(t, viewer.grantId, { canView: false });
    await expectForbidden(await fetchKey(), /Access denied/);
    await expectForbidden(await fetchPlaylist(), /Access denied/);
    await setGrant(t, viewer.grantId, { canView: true, expiresAt: new Date(Date.now() - 1000) });
    await expectForbidden(await fetchKey(), /Access denied/);
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
    // Without credentials the playlist still names a session that has ended.
    await expectForbidden(await fetch(url), /no longer valid/);
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
    const viewer = await viewerOf(file.id);
    const url = await streamUrl(file.id, chapterId, viewer);
    const keyUrl = await keyUrlFor(viewer);
    const playlist = await countQueries(async () => (await fetch(url, { headers: withSession(viewer) })).text());
    const key = await countQueries(async () => expectKey(await fetch(keyUrl, { headers: withSession(viewer) })));
    expect(playlist.result).toContain('#EXT-X-KEY');
    console.log(`queries: playlist ${playlist.queries}, key ${key.queries}`);
    expect({ playlist: playlist.queries, key: key.queries }).toEqual({ playlist: 1, key: 1 });
  });

  it('refuses a stream URL for a chapter that is not ready, and for a file the caller cannot see', async () => {
    const pendingFile = await fileWithChapters([{ label: 'Pending', startTime: 0 }]);
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

describe('finalize failures', () => {
  it('marks every chapter failed when the source is missing from disk, and the server stays up', async () => {
    const file = await fileWithChapters([
      { label: 'A', startTime: 0, endTime: 5 },
      { label: 'B', startTime: 5 },
    ]);
    await rm(path.join(t.config.dataDir, file.storagePath));
    const res = await finalize(file.id, 'filesystem');
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({ finalized: 0, failed: 2, total: 2 });
    expect(res.body.errors.map((e) => e.message)).toEqual([
      'Source audio file is missing from storage',
      'Source audio file is missing from storage',
    ]);
    const status = await t.rest('GET', `/files/${file.id}/chapters/status`, undefined, admin);
    expect(status.body).toMatchObject({ data: { summary: { pending: 0, ready: 0, failed: 2 } } });
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);

    // Why it failed is for administrators; a viewer of the file sees that it failed, not the detail.
    const listed = (session: Session) => t.rest<{ data: Record<string, unknown>[] }>('GET', `/files/${file.id}/chapters`, undefined, session);
    expect((await listed(admin)).body.data[0]).toMatchObject({ status: 'failed', error: 'Source audio file is missing from storage' });
    const viewer = await viewerOf(file.id);
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
    const file = await fileWithChapters([{ label: 'Fixed', startTime: 0, endTime: 4 }]);
    const chapter = (await finalize(file.id, 'database')).body.finalizedChapters[0];
    const moved = await t.rest(
      'PUT',
      `/files/${file.id}/chapters/${chapter.id}`,
      { label: 'Fixed', startTime: 1, endTime: 4 },
      admin,
    );
    expect(moved.status).toBe(409);
    const renamed = await t.rest('PUT', `/files/${file.id}/chapters/${chapter.id}`, { label: 'Renamed' }, admin);
    expect(renamed.body).toMatchObject({ data: { label: 'Renamed', status: 'ready' } });
    const again = await finalize(file.id, 'database');
    expect(again.body.summary).toEqual({ finalized: 0, failed: 0, total: 0 });
  });
});
