import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createStoredAudioFile, grantFile, removeTones, streamProofCookie } from '../../test/stream-fixtures.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import { UserRole } from '../users/user.entity.js';
import { FactsCache } from './access-facts-cache.js';
import type { AccessFacts } from './access-facts.js';

describe('the facts cache', () => {
  const started = new Date('2026-01-01T00:00:00Z');
  function facts(overrides: { userId?: string; fileId?: string; isLocked?: boolean } = {}): AccessFacts {
    const userId = overrides.userId ?? 'u1';
    return {
      session: { id: 's1', deviceId: 'd1', isActive: true, userId, startedAt: started, lastActivity: started },
      user: { id: userId, role: UserRole.user, isLocked: overrides.isLocked ?? false },
      file: {
        id: overrides.fileId ?? 'f1',
        isPublic: true,
        storagePath: 'audio/x.mp3',
        size: 1000,
        mimeType: 'audio/mpeg',
        duration: 1,
      },
      grant: null,
    };
  }
  /** A loader that counts its reads. */
  function loader(value: AccessFacts) {
    const load = async () => {
      load.reads += 1;
      return value;
    };
    load.reads = 0;
    return load;
  }

  it('keeps facts that allow the request and reads a refusal again each time', async () => {
    const cache = new FactsCache<AccessFacts>();
    const kept = facts();
    const allowed = loader(kept);
    expect(await cache.read('a', allowed)).toBe(kept);
    expect(await cache.read('a', allowed)).toBe(kept);
    expect(allowed.reads).toBe(1);
    const locked = loader(facts({ isLocked: true }));
    await cache.read('b', locked);
    await cache.read('b', locked);
    expect(locked.reads).toBe(2);
  });

  it("drops a user's or a file's entries on a change, and keeps nothing read while a change happened", async () => {
    const cache = new FactsCache<AccessFacts>();
    const ofUser = loader(facts({ userId: 'u1', fileId: 'f1' }));
    const ofFile = loader(facts({ userId: 'u2', fileId: 'f2' }));
    const other = loader(facts({ userId: 'u3', fileId: 'f3' }));
    for (const [key, load] of [
      ['u1', ofUser],
      ['f2', ofFile],
      ['u3', other],
    ] as const)
      await cache.read(key, load);
    cache.forget({ userId: 'u1', fileId: null });
    cache.forget({ userId: null, fileId: 'f2' });
    for (const [key, load] of [
      ['u1', ofUser],
      ['f2', ofFile],
      ['u3', other],
    ] as const)
      await cache.read(key, load);
    expect([ofUser.reads, ofFile.reads, other.reads]).toEqual([2, 2, 1]);

    // A revoke committed while the old facts were on their way: they answer this request only.
    const slow = loader(facts({ userId: 'u4' }));
    await cache.read('u4', async () => {
      const value = await slow();
      cache.forget({ userId: 'u4', fileId: null });
      return value;
    });
    await cache.read('u4', slow);
    expect(slow.reads).toBe(2);
  });

  it('reads an entry again after its time to live, and keeps at most its bound, the oldest out first', async () => {
    const cache = new FactsCache<AccessFacts>({ ttlMs: 50, maxEntries: 2 });
    const load = loader(facts());
    await cache.read('x', load);
    await cache.read('x', load);
    await new Promise((r) => setTimeout(r, 60));
    await cache.read('x', load);
    expect(load.reads).toBe(2);
    await cache.read('y', load);
    await cache.read('z', load);
    expect(cache.size).toBe(2);
    await cache.read('y', load);
    await cache.read('x', load);
    expect(load.reads).toBe(5);
  });
});

// Two instances sharing one PostgreSQL and one Redis, as replicas behind a load balancer would.
const postgresUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

describe('byte requests checked from memory', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let adminA: Session;
  let adminB: Session;
  let file: AudioFile;
  beforeAll(async () => {
    db = await createTestDatabase(postgresUrl);
    a = await startTestApp({ databaseUrl: db.url, env: { REDIS_URL: redisUrl } });
    b = await startTestApp({ databaseUrl: db.url, env: { REDIS_URL: redisUrl } });
    [adminA, adminB] = await Promise.all([createAdminSession(a), createAdminSession(b)]);
    file = await createStoredAudioFile(a, { seconds: 20 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    await removeTones();
  });

  /** A user holding a live grant to `target`, signed in on instance A. */
  async function listener(target = file) {
    const user = await createUser(a);
    const grantId = target.isPublic ? null : await grantFile(a, user.id, target.id);
    return { ...(await signIn(a, user.email)), grantId };
  }

  /** The stream-path cookie each URL came with, sent back with it as the player's browser does. */
  const proofs = new Map<string, string>();

  async function streamUrl(session: Session, target = file): Promise<string> {
    const res = await a.rest<{ data: { streamUrl: string } }>('POST', `/drm/session/${target.id}`, undefined, session);
    expect(res.status).toBe(200);
    const url = `${a.url}${res.body.data.streamUrl}`;
    proofs.set(url, streamProofCookie(res.headers));
    return url;
  }

  async function seekUrl(session: Session): Promise<string> {
    const res = await a.rest<{ data: { signedUrl: string } }>(
      'POST',
      `/drm/signed-url/${file.id}`,
      { startTime: 2 },
      session,
    );
    expect(res.status).toBe(200);
    const url = `${a.url}${res.body.data.signedUrl}`;
    proofs.set(url, streamProofCookie(res.headers));
    return url;
  }

  /** The status of a 64 KiB range, as a player asks for the next part of the file. */
  async function range(url: string): Promise<number> {
    const res = await fetch(url, { headers: { range: 'bytes=0-65535', cookie: proofs.get(url) ?? '' } });
    await res.arrayBuffer();
    return res.status;
  }

  /** Two ranges: the second one is answered from memory. */
  async function playing(url: string): Promise<void> {
    expect(await range(url)).toBe(206);
    expect(await range(url)).toBe(206);
  }

  it('refuse the next range once the session logs out, its grant is revoked or its account is locked', async () => {
    const [leaving, revoked, locked] = await Promise.all([listener(), listener(), listener()]);
    const urls = {
      leaving: [await streamUrl(leaving), await seekUrl(leaving)],
      revoked: [await streamUrl(revoked), await seekUrl(revoked)],
      locked: [await streamUrl(locked), await seekUrl(locked)],
    };
    for (const url of Object.values(urls).flat()) await playing(url);

    expect((await a.rest('POST', '/auth/logout', undefined, leaving)).status).toBe(200);
    expect((await a.rest('DELETE', `/admin/file-access/${revoked.grantId}`, undefined, adminA)).status).toBe(200);
    expect((await a.rest('PUT', `/admin/users/${locked.userId}`, { isLocked: true }, adminA)).status).toBe(200);
    for (const [who, [stream, seek]] of Object.entries(urls)) {
      expect(await range(stream), who).toBe(403);
      // A seek URL names its file: one gone from view answers as an unknown file.
      expect(await range(seek), who).toBe(who === 'revoked' ? 404 : 403);
    }
  });

  it('refuse a listener without a grant once the file is made private, and an administrator once demoted', async () => {
    const open = await createStoredAudioFile(a, { seconds: 20, isPublic: true });
    const visitor = await listener(open);
    const visitorUrl = await streamUrl(visitor, open);
    const demotedUser = await createUser(a, { role: UserRole.admin });
    const demoted = await signIn(a, demotedUser.email);
    const demotedUrl = await streamUrl(demoted);
    await playing(visitorUrl);
    await playing(demotedUrl);

    expect((await a.rest('PUT', `/admin/files/${open.id}`, { isPublic: false }, adminA)).status).toBe(200);
    expect((await a.rest('PUT', `/admin/users/${demotedUser.id}`, { role: 'user' }, adminA)).status).toBe(200);
    // The demoted account keeps its most recent device session (MAX_DEVICES), not the private file.
    expect((await a.rest('GET', '/auth/me', undefined, demoted)).status).toBe(200);
    expect(await range(visitorUrl)).toBe(403);
    expect(await range(demotedUrl)).toBe(403);
  });

  it('refuse the next range on instance A within moments of a revoke or a terminated session on instance B', async () => {
    const [revoked, terminated] = await Promise.all([listener(), listener()]);
    const revokedUrl = await streamUrl(revoked);
    const terminatedUrl = await streamUrl(terminated);
    await playing(revokedUrl);
    await playing(terminatedUrl);

    expect((await b.rest('DELETE', `/admin/file-access/${revoked.grantId}`, undefined, adminB)).status).toBe(200);
    const path = `/admin/users/${terminated.userId}/sessions/${terminated.sessionId}`;
    expect((await b.rest('DELETE', path, undefined, adminB)).status).toBe(200);
    // The change travels through Redis; the cache's own time to live (10 s) is far longer than this.
    await expect.poll(() => range(revokedUrl), { timeout: 2000, interval: 50 }).toBe(403);
    await expect.poll(() => range(terminatedUrl), { timeout: 2000, interval: 50 }).toBe(403);
  });
});
