import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from '../../test/count-queries.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type CallOptions, type TestApp } from '../../test/harness.js';
import {
  chunkedClient,
  CLIENT_CHUNK_SIZE,
  outcome,
  PARTIAL_TAIL,
  startPartialPart,
  threeChunkWav,
  trickle,
  uploadDir,
  uploadForm,
} from '../../test/upload-client.js';
import { User } from '../users/user.entity.js';
import { UploadSession, UploadStatus } from './upload-session.entity.js';

let t: TestApp;
let admin: Session;
let wav: Buffer;
const name = 'Long Tone (take 2).wav';
beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  wav = await threeChunkWav(name);
});
afterAll(async () => {
  await t?.close();
});

describe('who may send a chunk', () => {
  /** Chunk 0 of `wav` as `caller` sends it, the chunk headers overridden (undefined: left out). */
  async function sendChunk(caller: CallOptions, headers: Record<string, string | undefined>) {
    const all = {
      'x-chunk-index': '0',
      'x-total-chunks': '3',
      'x-file-size': String(wav.length),
      'x-file-name': encodeURIComponent(name),
      ...headers,
    };
    const res = await t.rest<{ message: string; error?: { code: string } }>(
      'POST',
      '/audio/upload/chunk',
      uploadForm({}, { chunk: { bytes: wav.subarray(0, CLIENT_CHUNK_SIZE), name: 'blob' } }),
      { ...caller, headers: Object.fromEntries(Object.entries(all).filter((h): h is [string, string] => !!h[1])) },
    );
    return [res.status, res.body.error?.code, res.body.message];
  }

  // A chunk authenticates in the statement that reads its upload, not before the route as others do.
  it('is refused as before: the token, then the role, then the headers, then the upload', async () => {
    const id = (await chunkedClient(t, admin).init(wav, name)).body.uploadId as string;
    const user = await signIn(t, (await createUser(t)).email);
    const ended = await createAdminSession(t);
    expect((await t.rest('POST', '/auth/logout', undefined, ended)).status).toBe(200);
    const locked = await createAdminSession(t);
    await t.app.orm.em.fork().nativeUpdate(User, { id: locked.userId }, { isLocked: true });
    const otherAdmin = await createAdminSession(t);
    const theirs = (await chunkedClient(t, otherAdmin).init(wav, name)).body.uploadId as string;

    const unauthenticated = (message: string) => [401, 'UNAUTHENTICATED', message];
    const missingToken = unauthenticated('Invalid or missing authentication token');
    const notAdmin = [403, 'FORBIDDEN', 'Administrator access required'];
    const badInput = (message: string) => [400, 'BAD_USER_INPUT', message];
    const badName = badInput('X-File-Name header must be URI-encoded');
    const cases: [string, CallOptions, Record<string, string | undefined>, unknown[]][] = [
      ['anonymous', { deviceId: admin.deviceId }, { 'x-upload-id': id }, missingToken],
      ['anonymous, malformed id', {}, { 'x-upload-id': 'not-an-id' }, missingToken],
      // As before: a bad token first, but an undecodable file name even before a missing token or the role.
      ['a forged token, undecodable name', { ...admin, token: 'x' }, { 'x-file-name': '%E0%A4%A' }, missingToken],
      ['anonymous, undecodable name', {}, { 'x-file-name': '%E0%A4%A' }, badName],
      ['a user, undecodable name', user, { 'x-upload-id': id, 'x-file-name': '%E0%A4%A' }, badName],
      ['a forged token', { ...admin, token: `${admin.token}x` }, { 'x-upload-id': id }, missingToken],
      [
        'an ended session',
        ended,
        { 'x-upload-id': id },
        unauthenticated('Session expired or ended. Please log in again.'),
      ],
      ['a locked administrator', locked, { 'x-upload-id': id }, unauthenticated('Account is locked')],
      [
        'another device',
        { ...admin, deviceId: 'another-device' },
        { 'x-upload-id': id },
        unauthenticated('This token does not belong to this device'),
      ],
      [
        'no device id',
        { ...admin, deviceId: null },
        { 'x-upload-id': id },
        unauthenticated('This token does not belong to this device'),
      ],
      ['a locked administrator, malformed id', locked, { 'x-upload-id': 'x' }, unauthenticated('Account is locked')],
      ['a user', user, { 'x-upload-id': id }, notAdmin],
      ['a user, malformed id', user, { 'x-upload-id': 'not-an-id' }, notAdmin],
      ['a user, no id', user, { 'x-upload-id': undefined }, notAdmin],
      ['a user, unknown id', user, { 'x-upload-id': randomUUID() }, notAdmin],
      [
        "another administrator's upload",
        admin,
        { 'x-upload-id': theirs },
        [403, 'FORBIDDEN', 'This upload belongs to another administrator'],
      ],
      ['an unknown upload', admin, { 'x-upload-id': randomUUID() }, [404, 'NOT_FOUND', 'Upload not found']],
      ['a malformed id', admin, { 'x-upload-id': 'not-an-id' }, badInput('uploadId is not a valid id')],
      ['no id', admin, { 'x-upload-id': undefined }, badInput('X-Upload-ID header is required')],
      [
        'a malformed id and no index',
        admin,
        { 'x-upload-id': 'not-an-id', 'x-chunk-index': undefined },
        badInput('X-Chunk-Index header is required'),
      ],
      ['an undecodable name', admin, { 'x-upload-id': 'not-an-id', 'x-file-name': '%E0%A4%A' }, badName],
    ];
    for (const [who, caller, headers, answer] of cases) {
      expect(await sendChunk(caller, headers), who).toEqual(answer);
    }
    expect((await chunkedClient(t, admin).status(id)).body.uploadedChunks).toEqual([]);
    expect(await sendChunk(admin, { 'x-upload-id': id.toUpperCase() })).toEqual([200, undefined, undefined]);
    expect((await chunkedClient(t, admin).status(id)).body.uploadedChunks).toEqual([0]);
  });

  it('answers a chunk of an upload past its expiry as expired, and marks it so', async () => {
    const c = chunkedClient(t, admin);
    const id = (await c.init(wav, name)).body.uploadId as string;
    await t.app.orm.em.fork().nativeUpdate(UploadSession, { id }, { expiresAt: new Date(Date.now() - 1000) });
    expect(await sendChunk(admin, { 'x-upload-id': id })).toEqual([
      409,
      'CONFLICT',
      'This upload has expired; start it again',
    ]);
    expect((await t.app.orm.em.fork().findOneOrFail(UploadSession, { id })).status).toBe(UploadStatus.expired);
    expect(existsSync(uploadDir(t, id))).toBe(false);
  });

  it('costs one statement: the device session, its user and the upload, read together', async () => {
    const c = chunkedClient(t, admin);
    const id = (await c.init(wav, name)).body.uploadId as string;
    const { result, statements } = await countQueries(() => c.chunk(id, wav, name, 0));
    expect(result.status).toBe(200);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^\s*select\b[\s\S]*\bdevice_sessions\b[\s\S]*\bupload_sessions\b/);
  });

  it("takes an administrator's chunk that keeps coming for longer than any body may take", async () => {
    // Any body is cut after five times this idle limit, unless its route lifts the deadline.
    const slow = await startTestApp({ env: { BODY_IDLE_TIMEOUT_SECONDS: '1' } });
    try {
      const session = await createAdminSession(slow);
      const id = (await chunkedClient(slow, session).init(wav, name)).body.uploadId as string;
      const bytes = wav.subarray(0, CLIENT_CHUNK_SIZE);
      const req = startPartialPart(slow.url, {
        route: '/audio/upload/chunk',
        session,
        headers: { 'x-upload-id': id, 'x-chunk-index': '0', 'x-total-chunks': '3', 'x-file-size': String(wav.length) },
        field: 'chunk',
        fileName: 'blob',
        bytes,
        sent: 0,
      });
      const answered = outcome(req);
      const started = Date.now();
      // Nine pieces a little under a second apart: never idle for 1 s, done after over 5 s.
      await trickle(req, bytes, 9, PARTIAL_TAIL);
      expect(await answered).toBe(200);
      expect(Date.now() - started).toBeGreaterThan(5_000);
    } finally {
      await slow.close();
    }
  }, 30_000);
});
