import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from '../../test/count-queries.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import {
  createStoredAudioFile,
  expireStreamSessions,
  grantFile,
  removeTones,
  setGrant,
  setLocked,
  streamProofCookie,
} from '../../test/stream-fixtures.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import { RECHECK_MS } from './byte-range.js';

let t: TestApp;
let file: AudioFile;
let bytes: Buffer;
beforeAll(async () => {
  t = await startTestApp();
  file = await createStoredAudioFile(t, { seconds: 20 });
  bytes = await readFile(path.join(t.config.dataDir, file.storagePath));
});
afterAll(async () => {
  await t?.close();
  await removeTones();
});

const ACCESS_DENIED = 'Access denied. You do not have permission to access this file.';

/** A signed-in user holding a live grant to the test file. */
async function viewer(): Promise<Session & { grantId: string }> {
  const user = await createUser(t);
  const grantId = await grantFile(t, user.id, file.id);
  return { ...(await signIn(t, user.email)), grantId };
}

async function openStream(session: Session): Promise<string> {
  const res = await t.rest<{ data: { sessionToken: string; duration: number; streamUrl: string } }>(
    'POST',
    `/drm/session/${file.id}`,
    undefined,
    session,
  );
  expect(res.status).toBe(200);
  expect(res.body.data.duration).toBe(20);
  return remember(`${t.url}${res.body.data.streamUrl}`, res.headers);
}

/** The stream-path cookie each URL's session got with it, sent back with that URL as a browser would. */
const proofs = new Map<string, string>();
function remember(url: string, headers: Headers): string {
  proofs.set(url, streamProofCookie(headers));
  return url;
}

const get = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(url, { method, headers: { cookie: proofs.get(url) ?? '', ...headers } });

describe('stream sessions', () => {
  it('answers the DRM statuses of the spec: 401, 404, 403, and 400 for a malformed id', async () => {
    const user = await signIn(t, (await createUser(t)).email);
    expect((await t.rest('POST', `/drm/session/${file.id}`)).status).toBe(401);
    const missing = await t.rest('POST', '/drm/session/00000000-0000-4000-8000-000000000000', undefined, user);
    expect(missing.status).toBe(404);
    const denied = await t.rest('POST', `/drm/session/${file.id}`, undefined, user);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ success: false, message: ACCESS_DENIED });
    expect((await t.rest('GET', `/drm/status/${file.id}`, undefined, user)).status).toBe(404);
    expect((await t.rest('GET', '/drm/status/not-an-id', undefined, user)).status).toBe(400);
  });

  it('reports the status of a visible file as chunked streaming', async () => {
    const v = await viewer();
    const res = await t.rest('GET', `/drm/status/${file.id}`, undefined, v);
    expect(res.body).toMatchObject({ success: true, data: { fileId: file.id, chunkedStreaming: true, duration: 20 } });
  });

  it('streams the whole file, and single ranges with 206, Content-Range and exact lengths', async () => {
    const url = await openStream(await viewer());
    const full = await get(url);
    expect(full.status).toBe(200);
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(full.headers.get('content-type')).toBe('audio/mpeg');
    expect(full.headers.get('content-length')).toBe(String(bytes.length));
    expect(full.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await get(url, { range: 'bytes=100-1099' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${bytes.length}`);
    expect(part.headers.get('content-length')).toBe('1000');
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 1100))).toBe(true);

    const open = await get(url, { range: `bytes=${bytes.length - 10}-` });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(bytes.length - 10))).toBe(true);

    const suffix = await get(url, { range: 'bytes=-500' });
    expect(suffix.headers.get('content-range')).toBe(`bytes ${bytes.length - 500}-${bytes.length - 1}/${bytes.length}`);
    expect((await suffix.arrayBuffer()).byteLength).toBe(500);

    const clamped = await get(url, { range: `bytes=0-${bytes.length * 10}` });
    expect(clamped.status).toBe(206);
    expect(clamped.headers.get('content-length')).toBe(String(bytes.length));
    await clamped.arrayBuffer();
  });

  it('answers 416 past the end, and ignores malformed and multi-range headers', async () => {
    const url = await openStream(await viewer());
    const beyond = await get(url, { range: `bytes=${bytes.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    await beyond.arrayBuffer();

    for (const range of ['bytes=abc', 'items=0-10', 'bytes=10-5', 'bytes=-', 'bytes 0-10']) {
      const res = await get(url, { range });
      expect(res.status, range).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(bytes.length);
    }
    const many = Array.from({ length: 1000 }, (_, i) => `${i * 2}-${i * 2}`).join(',');
    const res = await get(url, { range: `bytes=${many}` });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(bytes.length);
  });

  it('HEAD answers the headers while valid and 403 once the session has ended', async () => {
    const v = await viewer();
    const url = await openStream(v);
    const head = await get(url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect((await t.rest('POST', '/auth/logout', undefined, v)).status).toBe(200);
    expect((await get(url, {}, 'HEAD')).status).toBe(403);
    expect((await get(url)).status).toBe(403);
  });

  it('refuses the token to another user, another device, and after lock, revoke or expiry', async () => {
    const owner = await viewer();
    const url = await openStream(owner);
    const other = await viewer();
    expect((await get(url, { authorization: `Bearer ${other.token}`, 'x-device-id': other.deviceId })).status).toBe(
      403,
    );
    expect((await get(url, { 'x-device-id': other.deviceId })).status).toBe(403);
    expect((await get(url, { authorization: `Bearer ${owner.token}`, 'x-device-id': owner.deviceId })).status).toBe(
      200,
    );

    await setGrant(t, owner.grantId, { canView: false });
    expect((await get(url)).status).toBe(403);
    await setGrant(t, owner.grantId, { canView: true, expiresAt: new Date(Date.now() - 1000) });
    expect((await get(url)).status).toBe(403);
    await setGrant(t, owner.grantId, { expiresAt: null });
    expect((await get(url)).status).toBe(200);

    await setLocked(t, owner.userId, true);
    expect((await get(url)).status).toBe(403);
    await setLocked(t, owner.userId, false);

    await expireStreamSessions(t, owner.userId);
    expect((await get(url)).status).toBe(403);
    expect((await get(`${t.url}/api/v1/drm/stream/not-a-real-token-at-all-000000`)).status).toBe(403);
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
    expect((await get(url, { range: 'bytes=0-0', ...bearer })).status).toBe(206);
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
    return remember(`${t.url}${res.body.data.signedUrl}`, res.headers);
  }

  it('serves the file from the byte at startTime to the end', async () => {
    const v = await viewer();
    const res = await get(await signedUrl(v, { startTime: 10, endTime: -1, expiresIn: 1800000 }));
    expect(res.status).toBe(200);
    const from = Math.floor(bytes.length / 2);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(from))).toBe(true);
  });

  it('refuses a URL with any byte changed, a later expiry, or once it has run out', async () => {
    const v = await viewer();
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
    for (const bad of tampered) expect((await get(bad)).status, bad).toBe(403);
    expect((await get(url)).status).toBe(200);

    const short = await signedUrl(v, { startTime: 0, expiresIn: 1000 });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await get(short)).status).toBe(403);
  });

  it('validates times and lifetime, and re-checks access at fetch time', async () => {
    const v = await viewer();
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
    expect((await get(url)).status).toBe(403);
  });
});

describe('the bearer token beside a byte credential', () => {
  it('is answered as on every route: 401 when it does not hold, 403 when it names someone else', async () => {
    const owner = await viewer();
    const url = await openStream(owner);
    const bearer = { authorization: `Bearer ${owner.token}` };
    expect((await get(url, { ...bearer, 'x-device-id': owner.deviceId })).status).toBe(200);
    expect((await get(url, bearer)).status).toBe(401);
    expect((await get(url, { ...bearer, 'x-device-id': `${owner.deviceId}-other` })).status).toBe(401);
    expect((await get(url, { authorization: 'Bearer not.a.token', 'x-device-id': owner.deviceId })).status).toBe(401);
    expect((await get(`${t.url}/api/v1/drm/stream/not-a-real-token-at-all-000000`, bearer)).status).toBe(401);
    await setLocked(t, owner.userId, true);
    expect((await get(url, { ...bearer, 'x-device-id': owner.deviceId })).status).toBe(401);
    expect((await get(url)).status).toBe(403);
    await setLocked(t, owner.userId, false);
    await t.rest('POST', '/auth/logout', undefined, owner);
    expect((await get(url, { ...bearer, 'x-device-id': owner.deviceId })).status).toBe(401);
    expect((await get(url)).status).toBe(403);
  });
});

describe('a session that ended', () => {
  it('takes its stream and seek URLs with it, even once the device has signed in again', async () => {
    const user = await createUser(t);
    await grantFile(t, user.id, file.id);
    const before = await signIn(t, user.email);
    const stream = await openStream(before);
    const seek = await t.rest<{ data: { signedUrl: string } }>(
      'POST',
      `/drm/signed-url/${file.id}`,
      { startTime: 5 },
      before,
    );
    const signed = remember(`${t.url}${seek.body.data.signedUrl}`, seek.headers);
    const range = { range: 'bytes=0-9' };
    expect((await get(stream, range)).status).toBe(206);
    expect((await get(signed, range)).status).toBe(206);

    expect((await t.rest('POST', '/auth/logout', undefined, before)).status).toBe(200);
    const after = await signIn(t, user.email, before.deviceId);
    expect(after.sessionId).toBe(before.sessionId);
    const headers = { ...range, authorization: `Bearer ${after.token}`, 'x-device-id': after.deviceId };
    for (const url of [stream, signed]) {
      expect((await get(url, range)).status).toBe(403);
      expect((await get(url, headers)).status).toBe(403);
    }
    // What the new session asks for works as ever.
    expect((await get(await openStream(after), range)).status).toBe(206);
  });
});

describe('an open stream', () => {
  const size = 64 * 1024 * 1024;

  /** A granted file far larger than the socket buffers, so most of it is still to send when access ends. */
  async function bigGrantedFile() {
    const big = await createStoredAudioFile(t, { seconds: 20 });
    await writeFile(path.join(t.config.dataDir, big.storagePath), Buffer.alloc(size));
    const user = await createUser(t);
    const grantId = await grantFile(t, user.id, big.id);
    return { big, grantId, session: await signIn(t, user.email) };
  }

  /** Opens `url` from byte 0 with a paused reader, runs `meanwhile`, then reads on to the end. */
  async function readPausedThrough(url: string, meanwhile: () => Promise<void>) {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(url, { headers: { range: 'bytes=0-', cookie: proofs.get(url) ?? '' } }, resolve).on('error', reject),
    );
    expect(res.statusCode).toBe(206);
    let received = 0;
    res.on('data', (chunk: Buffer) => (received += chunk.length));
    res.on('error', () => undefined);
    const closed = new Promise((resolve) => res.on('close', resolve));
    res.pause();
    await meanwhile();
    res.resume();
    await closed;
    return { complete: res.complete, received };
  }

  it('is cut off within seconds of a revoke, not at its end, while a slow reader holds it open', async () => {
    const { big, grantId, session } = await bigGrantedFile();
    const opened = await t.rest<{ data: { streamUrl: string } }>('POST', `/drm/session/${big.id}`, undefined, session);
    const read = await readPausedThrough(
      remember(`${t.url}${opened.body.data.streamUrl}`, opened.headers),
      async () => {
        await setGrant(t, grantId, { canView: false });
        await new Promise((r) => setTimeout(r, RECHECK_MS + 1500));
      },
    );
    expect(read.complete).toBe(false);
    expect(read.received).toBeLessThan(size / 2);
  });

  it('opened by a signed URL ends when the URL expires', async () => {
    const { big, session } = await bigGrantedFile();
    await t.rest('POST', `/drm/session/${big.id}`, undefined, session);
    const seek = await t.rest<{ data: { signedUrl: string } }>(
      'POST',
      `/drm/signed-url/${big.id}`,
      { startTime: 0, expiresIn: 1000 },
      session,
    );
    const read = await readPausedThrough(remember(`${t.url}${seek.body.data.signedUrl}`, seek.headers), async () => {
      await new Promise((r) => setTimeout(r, 1000 + RECHECK_MS + 1500));
    });
    expect(read.complete).toBe(false);
    expect(read.received).toBeLessThan(size / 2);
  });
});

describe('cost of a byte request', () => {
  /** Statements one ranged request costs, its body read to the end. */
  async function queriesFor(url: string, headers: Record<string, string>): Promise<number> {
    const { queries } = await countQueries(async () => {
      const res = await get(url, { range: 'bytes=0-99', ...headers });
      expect(res.status).toBe(206);
      await res.arrayBuffer();
    });
    return queries;
  }

  it('checks the stream token or signed URL, and a bearer token beside it, in one statement, then from memory', async () => {
    const v = await viewer();
    const url = await openStream(v);
    const res = await t.rest<{ data: { signedUrl: string } }>(
      'POST',
      `/drm/signed-url/${file.id}`,
      { startTime: 5 },
      v,
    );
    const signed = remember(`${t.url}${res.body.data.signedUrl}`, res.headers);
    const bearer = { authorization: `Bearer ${v.token}`, 'x-device-id': v.deviceId };
    const counts = {
      streamWithBearer: await queriesFor(url, bearer),
      streamAgain: await queriesFor(url, {}),
      streamWithBearerAgain: await queriesFor(url, bearer),
      signed: await queriesFor(signed, {}),
      signedWithBearerAgain: await queriesFor(signed, bearer),
    };
    console.log(`queries per byte request: ${JSON.stringify(counts)}`);
    expect(counts).toEqual({
      streamWithBearer: 1,
      streamAgain: 0,
      streamWithBearerAgain: 0,
      signed: 1,
      signedWithBearerAgain: 0,
    });
  });

  it("counts a player's byte requests as its device session's activity, writing at most once a minute", async () => {
    const v = await viewer();
    const url = await openStream(v);
    const sql = (text: string) => t.app.orm.em.fork().getConnection().execute<{ at: Date }[]>(text, [v.sessionId]);
    await sql(`update device_sessions set last_activity = now() - interval '10 minutes' where id = ?`);
    // A range fetched with the stream token alone is still this session's activity.
    expect(await queriesFor(url, {})).toBe(2);
    const [{ at }] = await sql('select last_activity as at from device_sessions where id = ?');
    expect(Date.now() - new Date(at).getTime()).toBeLessThan(60_000);
    // Just refreshed, and the kept facts know it: the next range costs no statement.
    expect(await queriesFor(url, {})).toBe(0);
  });
});
