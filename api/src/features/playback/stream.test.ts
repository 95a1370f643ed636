import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { expectSecurityHeaders } from '../../test/hostile/response-checks.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { StreamClient } from '../../test/stream-client.js';
import {
  createStoredAudioFile,
  expireStreamSessions,
  removeTones,
  setGrant,
  setLocked,
} from '../../test/stream-fixtures.js';
import type { AudioFile } from '../files/audio-file.entity.js';

/** Whole-file stream sessions and signed seek URLs: what they serve and whom they refuse. */

let t: TestApp;
let file: AudioFile;
let bytes: Buffer;
let c: StreamClient;
beforeAll(async () => {
  t = await startTestApp();
  file = await createStoredAudioFile(t, { seconds: 20 });
  bytes = await readFile(path.join(t.config.dataDir, file.storagePath));
  c = new StreamClient(t, file);
});
afterAll(async () => {
  await t?.close();
  await removeTones();
});

describe('stream sessions', () => {
  it('answers 401 signed out, 404 for a hidden file as for an unknown one, 400 for a malformed id', async () => {
    const user = await signIn(t, (await createUser(t)).email);
    expect((await t.rest('POST', `/drm/session/${file.id}`)).status).toBe(401);
    const missing = await t.rest('POST', '/drm/session/00000000-0000-4000-8000-000000000000', undefined, user);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, message: 'Audio file not found' });
    const denied = await t.rest('POST', `/drm/session/${file.id}`, undefined, user);
    expect([denied.status, denied.body]).toEqual([missing.status, missing.body]);
    expect((await t.rest('GET', `/drm/status/${file.id}`, undefined, user)).status).toBe(404);
    expect((await t.rest('GET', '/drm/status/not-an-id', undefined, user)).status).toBe(400);
  });

  it('reports the status of a visible file as chunked streaming', async () => {
    const v = await c.viewer();
    const res = await t.rest('GET', `/drm/status/${file.id}`, undefined, v);
    expect(res.body).toMatchObject({ success: true, data: { fileId: file.id, chunkedStreaming: true, duration: 20 } });
  });

  it('streams the whole file, and single ranges with 206, Content-Range and exact lengths', async () => {
    const url = await c.openStream(await c.viewer());
    const full = await c.get(url);
    expect(full.status).toBe(200);
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(full.headers.get('content-type')).toBe('audio/mpeg');
    expect(full.headers.get('content-length')).toBe(String(bytes.length));
    expect(full.headers.get('cache-control')).toBe('private, no-store');
    // Served ahead of the helmet middleware, with the same headers as every other answer.
    expectSecurityHeaders({ status: full.status, headers: Object.fromEntries(full.headers), text: '' }, 'stream');
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await c.get(url, { range: 'bytes=100-1099' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${bytes.length}`);
    expect(part.headers.get('content-length')).toBe('1000');
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 1100))).toBe(true);

    const open = await c.get(url, { range: `bytes=${bytes.length - 10}-` });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(bytes.length - 10))).toBe(true);

    const suffix = await c.get(url, { range: 'bytes=-500' });
    expect(suffix.headers.get('content-range')).toBe(`bytes ${bytes.length - 500}-${bytes.length - 1}/${bytes.length}`);
    expect((await suffix.arrayBuffer()).byteLength).toBe(500);

    const clamped = await c.get(url, { range: `bytes=0-${bytes.length * 10}` });
    expect(clamped.status).toBe(206);
    expect(clamped.headers.get('content-length')).toBe(String(bytes.length));
    await clamped.arrayBuffer();
  });

  it('answers 416 past the end, and ignores malformed and multi-range headers', async () => {
    const url = await c.openStream(await c.viewer());
    const beyond = await c.get(url, { range: `bytes=${bytes.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    await beyond.arrayBuffer();

    for (const range of ['bytes=abc', 'items=0-10', 'bytes=10-5', 'bytes=-', 'bytes 0-10']) {
      const res = await c.get(url, { range });
      expect(res.status, range).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(bytes.length);
    }
    const many = Array.from({ length: 1000 }, (_, i) => `${i * 2}-${i * 2}`).join(',');
    const res = await c.get(url, { range: `bytes=${many}` });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(bytes.length);
  });

  it('HEAD answers the headers while valid and 403 once the session has ended', async () => {
    const v = await c.viewer();
    const url = await c.openStream(v);
    const head = await c.get(url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect((await t.rest('POST', '/auth/logout', undefined, v)).status).toBe(200);
    expect((await c.get(url, {}, 'HEAD')).status).toBe(403);
    expect((await c.get(url)).status).toBe(403);
  });

  it('refuses the token to another user, another device, and after lock, revoke or expiry', async () => {
    const owner = await c.viewer();
    const url = await c.openStream(owner);
    const other = await c.viewer();
    expect((await c.get(url, { authorization: `Bearer ${other.token}`, 'x-device-id': other.deviceId })).status).toBe(
      403,
    );
    expect((await c.get(url, { 'x-device-id': other.deviceId })).status).toBe(403);
    expect((await c.get(url, { authorization: `Bearer ${owner.token}`, 'x-device-id': owner.deviceId })).status).toBe(
      200,
    );

    // A file gone from view answers as an unknown token would (the player then opens a new session: 404).
    await setGrant(t, owner.grantId, { canView: false });
    expect((await c.get(url)).status).toBe(403);
    await setGrant(t, owner.grantId, { canView: true, expiresAt: new Date(Date.now() - 1000) });
    expect((await c.get(url)).status).toBe(403);
    await setGrant(t, owner.grantId, { expiresAt: null });
    expect((await c.get(url)).status).toBe(200);

    await setLocked(t, owner.userId, true);
    expect((await c.get(url)).status).toBe(403);
    await setLocked(t, owner.userId, false);

    await expireStreamSessions(t, owner.userId);
    expect((await c.get(url)).status).toBe(403);
    expect((await c.get(`${t.url}/api/v1/drm/stream/not-a-real-token-at-all-000000`)).status).toBe(403);
  });

  it('lets an administrator stream any file over GraphQL', async () => {
    const admin = await createAdminSession(t);
    const res = await t.gql<{ createStreamSession: { sessionToken: string; streamUrl: string } }>(
      `mutation($id: ID!) { createStreamSession(fileId: $id) { sessionToken streamUrl duration } }`,
      { id: file.id },
      admin,
    );
    expect(res.errors).toBeUndefined();
    const url = `${t.url}${res.data?.createStreamSession.streamUrl}`;
    const bearer = { authorization: `Bearer ${admin.token}`, 'x-device-id': admin.deviceId };
    expect((await c.get(url, { range: 'bytes=0-0', ...bearer })).status).toBe(206);
    const status = await t.gql(
      `query($id: ID!) { drmStatus(fileId: $id) { chunkedStreaming readyChapters } }`,
      { id: file.id },
      admin,
    );
    expect(status.data).toEqual({ drmStatus: { chunkedStreaming: true, readyChapters: 0 } });
  });
});

describe('signed seek URLs', () => {
  async function signedUrl(session: Session, body: Record<string, unknown>): Promise<string> {
    const res = await t.rest<{ data: { signedUrl: string } }>('POST', `/drm/signed-url/${file.id}`, body, session);
    expect(res.status).toBe(200);
    return c.remember(`${t.url}${res.body.data.signedUrl}`, res.headers);
  }

  it('serves the file from the byte at startTime to the end', async () => {
    const v = await c.viewer();
    const res = await c.get(await signedUrl(v, { startTime: 10, endTime: -1, expiresIn: 1800000 }));
    expect(res.status).toBe(200);
    const from = Math.floor(bytes.length / 2);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(from))).toBe(true);
  });

  it('refuses a URL with any byte changed, a later expiry, or once it has run out', async () => {
    const v = await c.viewer();
    const url = await signedUrl(v, { startTime: 5, endTime: -1, expiresIn: 60000 });
    const parsed = new URL(url);
    const tampered: string[] = [];
    for (const key of ['sid', 'st', 'start', 'end', 'exp', 'sig']) {
      const copy = new URL(parsed);
      const value = copy.searchParams.get(key) as string;
      const last = value.at(-1) === '1' ? '2' : '1';
      copy.searchParams.set(key, value.slice(0, -1) + last);
      tampered.push(copy.toString());
    }
    const later = new URL(parsed);
    later.searchParams.set('exp', String(Number(parsed.searchParams.get('exp')) + 3600_000));
    tampered.push(later.toString());
    const otherFile = await createStoredAudioFile(t, { seconds: 20, isPublic: true });
    tampered.push(url.replace(file.id, otherFile.id));
    for (const bad of tampered) expect((await c.get(bad)).status, bad).toBe(403);
    expect((await c.get(url)).status).toBe(200);

    const short = await signedUrl(v, { startTime: 0, expiresIn: 1000 });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await c.get(short)).status).toBe(403);
  });

  it('validates times and lifetime, and re-checks access at fetch time', async () => {
    const v = await c.viewer();
    for (const body of [
      { startTime: -1 },
      { startTime: 25 },
      { startTime: 5, endTime: 2 },
      { startTime: 0, expiresIn: 1800001 },
    ]) {
      expect((await t.rest('POST', `/drm/signed-url/${file.id}`, body, v)).status, JSON.stringify(body)).toBe(400);
    }
    const url = await signedUrl(v, { startTime: 0 });
    await setGrant(t, v.grantId, { canView: false });
    expect((await c.get(url)).status).toBe(404);
  });
});

describe('the bearer token beside a byte credential', () => {
  it('is answered as on every route: 401 when it does not hold, 403 when it names someone else', async () => {
    const owner = await c.viewer();
    const url = await c.openStream(owner);
    const bearer = { authorization: `Bearer ${owner.token}` };
    expect((await c.get(url, { ...bearer, 'x-device-id': owner.deviceId })).status).toBe(200);
    expect((await c.get(url, bearer)).status).toBe(401);
    expect((await c.get(url, { ...bearer, 'x-device-id': `${owner.deviceId}-other` })).status).toBe(401);
    expect((await c.get(url, { authorization: 'Bearer not.a.token', 'x-device-id': owner.deviceId })).status).toBe(401);
    expect((await c.get(`${t.url}/api/v1/drm/stream/not-a-real-token-at-all-000000`, bearer)).status).toBe(401);
    await setLocked(t, owner.userId, true);
    expect((await c.get(url, { ...bearer, 'x-device-id': owner.deviceId })).status).toBe(401);
    expect((await c.get(url)).status).toBe(403);
    await setLocked(t, owner.userId, false);
    await t.rest('POST', '/auth/logout', undefined, owner);
    expect((await c.get(url, { ...bearer, 'x-device-id': owner.deviceId })).status).toBe(401);
    expect((await c.get(url)).status).toBe(403);
  });
});
