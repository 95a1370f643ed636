import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey } from '../../test/api-keys.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import {
  createSizedAudioFile,
  eventually,
  openStream,
  readBody,
  readWide,
  subscribeTo,
} from '../../test/rip-fixtures.js';
import { createStoredAudioFile, grantFile, removeTones, setGrant, setLocked } from '../../test/stream-fixtures.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import { UserRole, type User } from '../users/user.entity.js';
import { RECHECK_MS } from './byte-range.js';

/** GET /api/v1/files/{id}/audio: an API key's audio, with the key in the Authorization header. */

const MB = 1_000_000;
let t: TestApp;
let admin: Session;
let tone: AudioFile;
let toneBytes: Buffer;
let listener: User;
let streamKey: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  tone = await createStoredAudioFile(t, { seconds: 12 });
  toneBytes = await readFile(path.join(t.config.dataDir, tone.storagePath));
  listener = await createUser(t);
  await grantFile(t, listener.id, tone.id);
  streamKey = (await newKey(t, admin, listener.id, ['STREAM'])).secret;
});
afterAll(async () => {
  await t?.close();
  await removeTones();
});

const audioUrl = (fileId: string) => `${t.url}/api/v1/files/${fileId}/audio`;
const fetchAudio = (fileId: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(audioUrl(fileId), { method, headers });
const withKey = (secret: string, headers: Record<string, string> = {}) => ({
  authorization: `Bearer ${secret}`,
  ...headers,
});
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

describe("an API key's audio", () => {
  it('serves a range and the whole file, byte for byte, to a key with the stream scope', async () => {
    const range = await fetchAudio(tone.id, withKey(streamKey, { range: 'bytes=100-1123' }));
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 100-1123/${toneBytes.length}`);
    expect(range.headers.get('cache-control')).toBe('private, no-store');
    expect(range.headers.get('ratelimit-limit')).toBe('600');
    expect(Buffer.from(await range.arrayBuffer()).equals(toneBytes.subarray(100, 1124))).toBe(true);

    const whole = await fetchAudio(tone.id, withKey(streamKey));
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(toneBytes)).toBe(true);

    const head = await fetchAudio(tone.id, withKey(streamKey), 'HEAD');
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(toneBytes.length)]);
    const past = await fetchAudio(tone.id, withKey(streamKey, { range: `bytes=${toneBytes.length}-` }));
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${toneBytes.length}`);
  });

  it('refuses a key without the stream scope', async () => {
    const reader = await newKey(t, admin, listener.id, ['LIBRARY_READ']);
    const res = await fetchAudio(tone.id, withKey(reader.secret));
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: 'FORBIDDEN', message: 'This API key lacks the scope stream' });
  });

  it("answers a file the key's user may not see as it answers an unknown id", async () => {
    const stranger = await createUser(t);
    const key = await newKey(t, admin, stranger.id, ['STREAM']);
    const hidden = await fetchAudio(tone.id, withKey(key.secret));
    const unknown = await fetchAudio('00000000-0000-4000-8000-000000000000', withKey(key.secret));
    expect([hidden.status, unknown.status]).toEqual([404, 404]);
    expect(await errorOf(hidden)).toEqual(await errorOf(unknown));
    const open = await createStoredAudioFile(t, { seconds: 12, isPublic: true });
    expect((await fetchAudio(open.id, withKey(key.secret, { range: 'bytes=0-9' }))).status).toBe(206);
  });

  it('refuses the same URL without the key, and with a signed-in device or its stream proof', async () => {
    const bare = await fetchAudio(tone.id);
    expect(bare.status).toBe(401);
    expect((await errorOf(bare)).code).toBe('UNAUTHENTICATED');
    const person = await signIn(t, listener.email);
    const device = await fetchAudio(tone.id, {
      authorization: `Bearer ${person.token}`,
      'x-device-id': person.deviceId,
    });
    expect(device.status).toBe(403);
    expect((await errorOf(device)).message).toMatch(/for API keys .*stream session/);
    // The player's cookie proves a device session on the stream paths only; here it proves nothing.
    const { cookie } = await openStream(t, tone.id, person);
    expect(cookie).not.toBe('');
    expect((await fetchAudio(tone.id, { cookie })).status).toBe(401);
    expect((await fetchAudio(tone.id, withKey('pal_not-a-key'))).status).toBe(401);
  });
});

describe("an API key's open audio response", () => {
  const size = 64 * 1024 * 1024;
  let big: AudioFile;
  beforeAll(async () => {
    // Far larger than the socket buffers, so most of it is still to send when the key stops holding.
    big = await createSizedAudioFile(t, size, 20);
  });

  /** Opens the file from byte 0 with a paused reader, runs `meanwhile`, then reads on to the end. */
  async function readPausedThrough(fileId: string, secret: string, meanwhile: () => Promise<void>) {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(audioUrl(fileId), { headers: withKey(secret, { range: 'bytes=0-' }) }, resolve).on('error', reject),
    );
    let received = 0;
    res.on('data', (chunk: Buffer) => (received += chunk.length));
    res.on('error', () => undefined);
    const closed = new Promise((resolve) => res.on('close', resolve));
    res.pause();
    await meanwhile();
    res.resume();
    await closed;
    return { status: res.statusCode, complete: res.complete, received };
  }

  interface Ending {
    what: string;
    role: UserRole;
    /** Ends what the key stood on; resolves to the administrator's answer when it goes through the API. */
    end: (s: { user: User; keyId: string; grantId: string; fileId: string }) => Promise<{ status: number } | void>;
    /** The status of the key's next request. */
    then: number;
    /** A file of its own, for the ending that deletes it. */
    ownFile?: boolean;
  }
  const endings: Ending[] = [
    {
      what: 'the key is revoked',
      role: UserRole.user,
      end: ({ keyId }) => t.rest('DELETE', `/admin/api-keys/${keyId}`, undefined, admin),
      then: 401,
    },
    { what: 'its user is locked', role: UserRole.user, end: ({ user }) => setLocked(t, user.id, true), then: 401 },
    {
      what: 'its user is deleted',
      role: UserRole.user,
      end: ({ user }) => t.rest('DELETE', `/admin/users/${user.id}`, undefined, admin),
      then: 401,
    },
    {
      what: 'its grant is revoked',
      role: UserRole.user,
      end: ({ grantId }) => setGrant(t, grantId, { canView: false }),
      then: 404,
    },
    {
      what: 'its administrator is demoted',
      role: UserRole.admin,
      end: ({ user }) => t.rest('PUT', `/admin/users/${user.id}`, { role: 'user' }, admin),
      then: 404,
    },
    {
      what: 'its file is deleted',
      role: UserRole.user,
      end: ({ fileId }) => t.rest('DELETE', `/admin/files/${fileId}`, undefined, admin),
      then: 404,
      ownFile: true,
    },
  ];

  it.concurrent.for(endings)(
    'ends within seconds, not at its end, once $what; the next request is refused',
    async ({ role, end, then, ownFile }, { expect }) => {
      const user = await createUser(t, { role });
      const file = ownFile ? await createSizedAudioFile(t, size, 20) : big;
      // An administrator sees every file; the others see this one through their grant.
      const grantId = role === UserRole.admin ? '' : await grantFile(t, user.id, file.id);
      const key = await newKey(t, admin, user.id, ['STREAM']);
      let changed: { status: number } | void = undefined;
      const read = await readPausedThrough(file.id, key.secret, async () => {
        changed = await end({ user, keyId: key.apiKey.id, grantId, fileId: file.id });
        await new Promise((r) => setTimeout(r, RECHECK_MS + 1500));
      });
      expect(changed ?? { status: 200 }).toMatchObject({ status: 200 });
      expect(read.status).toBe(206);
      expect(read.complete).toBe(false);
      expect(read.received).toBeLessThan(size / 2);
      expect((await fetchAudio(file.id, withKey(key.secret, { range: 'bytes=0-9' }))).status).toBe(then);
    },
  );
});

interface AuditItem {
  action: string;
  userId: string | null;
  deviceSessionId: string | null;
  details: Record<string, unknown> | null;
}

async function auditOf(userId: string, action: string): Promise<AuditItem[]> {
  const res = await t.gql<{ auditLog: { items: AuditItem[] } }>(
    '{ auditLog(offset: 0, limit: 100) { items { action userId deviceSessionId details } } }',
    {},
    admin,
  );
  return (res.data?.auditLog.items ?? []).filter((e) => e.action === action && e.userId === userId);
}

describe("rip detection of an API key's audio", () => {
  it('paces a key pulling a one-hour file, then throttles, audits and reports it going wide', async () => {
    const alerts = await subscribeTo<{ apiKeyId: string | null; deviceSessionId: string | null }>(
      t,
      admin,
      'subscription { ripAlerts { apiKeyId deviceSessionId rule accountLocked apiKeyRevoked } }',
      'ripAlerts',
    );
    const book = await createSizedAudioFile(t, 57_600_000, 3600);
    const user = await createUser(t);
    await grantFile(t, user.id, book.id);
    const key = await newKey(t, admin, user.id, ['STREAM']);
    const pulled = await readBody(audioUrl(book.id), withKey(key.secret), { timeoutMs: 2000 });
    // Unpaced, the whole file takes well under a second here; paced, the key has a minute of audio
    // and four seconds a second.
    expect(pulled.status).toBe(200);
    expect(pulled.ended).toBe(false);
    expect(pulled.received).toBeLessThan(1.5 * MB);
    await readWide(audioUrl(book.id), withKey(key.secret));

    const [entry] = await eventually(async () => {
      const found = await auditOf(user.id, 'stream.rip_suspected');
      return found.length > 0 ? found : undefined;
    });
    expect(entry.deviceSessionId).toBeNull();
    expect(entry.details).toMatchObject({
      rule: 'rate',
      fileId: book.id,
      apiKeyId: key.apiKey.id,
      apiKeyRevoked: false,
      accountLocked: false,
    });
    await eventually(async () => (alerts.received.some((a) => a.apiKeyId === key.apiKey.id) ? true : undefined));
    expect(alerts.received.find((a) => a.apiKeyId === key.apiKey.id)).toMatchObject({ deviceSessionId: null });
    await alerts.close();

    // Still throttled: a further megabyte elsewhere in the file trickles at about real time.
    const later = await readBody(audioUrl(book.id), withKey(key.secret, { range: 'bytes=40000000-' }), {
      timeoutMs: 1500,
    });
    expect(later.status).toBe(206);
    expect(later.received).toBeLessThan(MB);
  });

  it("throttles an administrator's key too: a key can leak, whoever it acts for", async () => {
    const book = await createSizedAudioFile(t, 57_600_000, 3600);
    const owner = await createUser(t, { role: UserRole.admin });
    const key = await newKey(t, admin, owner.id, ['STREAM']);
    const pulled = await readBody(audioUrl(book.id), withKey(key.secret), { timeoutMs: 2000 });
    expect(pulled.status).toBe(200);
    expect(pulled.received).toBeLessThan(1.5 * MB);
    await readWide(audioUrl(book.id), withKey(key.secret));
    const [entry] = await eventually(async () => {
      const found = await auditOf(owner.id, 'stream.rip_suspected');
      return found.length > 0 ? found : undefined;
    });
    expect(entry.details).toMatchObject({ apiKeyId: key.apiKey.id, accountLocked: false });
  });
});
