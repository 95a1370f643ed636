import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from '../../test/count-queries.js';
import { createAdminSession, createUser, signIn } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { StreamClient } from '../../test/stream-client.js';
import { createStoredAudioFile, grantFile, removeTones, setGrant } from '../../test/stream-fixtures.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { RECHECK_MS } from './byte-range.js';

/** How long a stream's credentials and open responses live, and what one byte request costs. */

let t: TestApp;
let file: AudioFile;
let c: StreamClient;
beforeAll(async () => {
  t = await startTestApp();
  file = await createStoredAudioFile(t, { seconds: 20 });
  c = new StreamClient(t, file);
});
afterAll(async () => {
  await t?.close();
  await removeTones();
});

describe('a session that ended', () => {
  it('takes its stream and seek URLs with it, even once the device has signed in again', async () => {
    const user = await createUser(t);
    await grantFile(t, user.id, file.id);
    const before = await signIn(t, user.email);
    const stream = await c.openStream(before);
    const seek = await t.rest<{ data: { signedUrl: string } }>(
      'POST',
      `/drm/signed-url/${file.id}`,
      { startTime: 5 },
      before,
    );
    const signed = c.remember(`${t.url}${seek.body.data.signedUrl}`, seek.headers);
    const range = { range: 'bytes=0-9' };
    expect((await c.get(stream, range)).status).toBe(206);
    expect((await c.get(signed, range)).status).toBe(206);

    expect((await t.rest('POST', '/auth/logout', undefined, before)).status).toBe(200);
    const after = await signIn(t, user.email, before.deviceId);
    expect(after.sessionId).toBe(before.sessionId);
    const headers = { ...range, authorization: `Bearer ${after.token}`, 'x-device-id': after.deviceId };
    for (const url of [stream, signed]) {
      expect((await c.get(url, range)).status).toBe(403);
      expect((await c.get(url, headers)).status).toBe(403);
    }
    // What the new session asks for works as ever.
    expect((await c.get(await c.openStream(after), range)).status).toBe(206);
  });
});

describe('an open stream', () => {
  const size = 64 * 1024 * 1024;

  /** A granted file far larger than the socket buffers, so most of it is still to send when access ends. */
  async function bigGrantedFile() {
    const big = await createStoredAudioFile(t, { seconds: 20 });
    await writeFile(path.join(t.config.dataDir, big.storagePath), Buffer.alloc(size));
    // The row's size is what the server serves by, as it was when the file was stored.
    await t.app.orm.em.fork().nativeUpdate(AudioFile, { id: big.id }, { size });
    const user = await createUser(t);
    const grantId = await grantFile(t, user.id, big.id);
    return { big, grantId, session: await signIn(t, user.email) };
  }

  /** Opens `url` from byte 0 with a paused reader, runs `meanwhile`, then reads on to the end. */
  async function readPausedThrough(url: string, meanwhile: () => Promise<void>) {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(url, { headers: { range: 'bytes=0-', cookie: c.proofFor(url) } }, resolve).on('error', reject),
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
      c.remember(`${t.url}${opened.body.data.streamUrl}`, opened.headers),
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
    const read = await readPausedThrough(c.remember(`${t.url}${seek.body.data.signedUrl}`, seek.headers), async () => {
      await new Promise((r) => setTimeout(r, 1000 + RECHECK_MS + 1500));
    });
    expect(read.complete).toBe(false);
    expect(read.received).toBeLessThan(size / 2);
  });
});

describe('long responses', () => {
  /**
   * A file of random bytes (so any mixed-up piece shows), a few read buffers long, opened by an
   * administrator: their own sessions are metered but never paced, so many reads at once go at full speed.
   */
  async function randomFile(length: number) {
    const stored = await createStoredAudioFile(t, { seconds: 20 });
    const content = randomBytes(length);
    await writeFile(path.join(t.config.dataDir, stored.storagePath), content);
    await t.app.orm.em.fork().nativeUpdate(AudioFile, { id: stored.id }, { size: length });
    const session = await createAdminSession(t);
    const opened = await t.rest<{ data: { streamUrl: string } }>(
      'POST',
      `/drm/session/${stored.id}`,
      undefined,
      session,
    );
    return { content, url: c.remember(`${t.url}${opened.body.data.streamUrl}`, opened.headers) };
  }

  it('send exactly the file, whole and in ranges across read boundaries, many at once', async () => {
    // Read buffers are reused between responses: one handed back too soon would show here as
    // another response's bytes.
    const { content, url } = await randomFile(5 * 1024 * 1024 + 4321);
    const ranges: [number, number][] = [
      [0, content.length - 1],
      [1, content.length - 2],
      [512 * 1024 - 1, 2 * 512 * 1024 + 1],
      [128 * 1024 + 7, 3 * 1024 * 1024 + 13],
      [content.length - 600_000, content.length - 1],
    ];
    const answers = await Promise.all(
      [...ranges, ...ranges, [-1, -1] as [number, number], [-1, -1] as [number, number]].map(async ([from, to]) => {
        const res = await c.get(url, from < 0 ? {} : { range: `bytes=${from}-${to}` });
        expect(res.status).toBe(from < 0 ? 200 : 206);
        return {
          from: Math.max(from, 0),
          to: from < 0 ? content.length - 1 : to,
          body: Buffer.from(await res.arrayBuffer()),
        };
      }),
    );
    for (const { from, to, body } of answers) {
      expect(body.length).toBe(to - from + 1);
      expect(body.equals(content.subarray(from, to + 1))).toBe(true);
    }
  });

  it('to a reader that keeps reading are cut off within RECHECK_MS (and a second) of a revoke', async () => {
    const size = 64 * 1024 * 1024;
    const { big, grantId, session } = await (async () => {
      const stored = await createStoredAudioFile(t, { seconds: 20 });
      await writeFile(path.join(t.config.dataDir, stored.storagePath), Buffer.alloc(size));
      await t.app.orm.em.fork().nativeUpdate(AudioFile, { id: stored.id }, { size });
      const user = await createUser(t);
      return { big: stored, grantId: await grantFile(t, user.id, stored.id), session: await signIn(t, user.email) };
    })();
    const opened = await t.rest<{ data: { streamUrl: string } }>('POST', `/drm/session/${big.id}`, undefined, session);
    const url = c.remember(`${t.url}${opened.body.data.streamUrl}`, opened.headers);
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(url, { headers: { cookie: c.proofFor(url) } }, resolve).on('error', reject),
    );
    expect(res.statusCode).toBe(200);
    // About 4 MB/s, so the whole file would take some 16 s: the read goes on throughout.
    const bytesPerMs = 4000;
    const began = Date.now();
    let received = 0;
    res.on('data', (chunk: Buffer) => {
      received += chunk.length;
      const ahead = received / bytesPerMs - (Date.now() - began);
      if (ahead > 0) {
        res.pause();
        setTimeout(() => res.resume(), ahead);
      }
    });
    res.on('error', () => undefined);
    const closed = new Promise<number>((resolve) => res.on('close', () => resolve(Date.now())));
    await new Promise((r) => setTimeout(r, 500));
    await setGrant(t, grantId, { canView: false });
    const revokedAt = Date.now();
    const atRevoke = received;
    const closedAt = await closed;
    expect(res.complete).toBe(false);
    expect(closedAt - revokedAt).toBeLessThan(RECHECK_MS + 1000);
    // What still arrived is what the socket buffers held and the reader's pace allowed meanwhile.
    expect(received - atRevoke).toBeLessThan(bytesPerMs * (RECHECK_MS + 1000));
    expect(received).toBeLessThan(size / 2);
  });
});

describe('cost of a byte request', () => {
  /** Statements one ranged request costs, its body read to the end. */
  async function queriesFor(url: string, headers: Record<string, string>): Promise<number> {
    const { queries } = await countQueries(async () => {
      const res = await c.get(url, { range: 'bytes=0-99', ...headers });
      expect(res.status).toBe(206);
      await res.arrayBuffer();
    });
    return queries;
  }

  it('checks the stream token or signed URL, and a bearer token beside it, in one statement, then from memory', async () => {
    const v = await c.viewer();
    const url = await c.openStream(v);
    const res = await t.rest<{ data: { signedUrl: string } }>(
      'POST',
      `/drm/signed-url/${file.id}`,
      { startTime: 5 },
      v,
    );
    const signed = c.remember(`${t.url}${res.body.data.signedUrl}`, res.headers);
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
    const v = await c.viewer();
    const url = await c.openStream(v);
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
