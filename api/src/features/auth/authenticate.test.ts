import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from '../../test/count-queries.js';
import { createAdminSession, createUser, signIn } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { UploadSession } from '../uploads/upload-session.entity.js';
import { User } from '../users/user.entity.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ctx } from '../../context.js';
import { authenticateRequest } from './authenticate-request.js';
import type { Credential } from './authenticate.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/** A request's context with no caller yet, on `em`. */
const contextOn = (em: EntityManager): Ctx => ({
  em,
  deps: t.app.deps,
  meta: { requestId: 'test', ip: null, userAgent: null, deviceId: null },
  caller: null,
});
const withRow = (em: EntityManager, credential: Credential, id: string) =>
  authenticateRequest(contextOn(em), credential, { row: { entity: UploadSession, id } });

describe('authenticateRequest', () => {
  it('gives the caller as managed entities with typed values, the password hash unread', async () => {
    const user = await createUser(t, { name: 'Typed' });
    const lockUntil = new Date(Date.now() - 60_000);
    const session = await signIn(t, user.email);
    // A lapsed temporary lock (a successful sign-in clears it, so set after).
    await t.app.orm.em.fork().nativeUpdate(User, { id: user.id }, { lockUntil, failedLoginCount: 2 });

    const em = t.app.orm.em.fork();
    const caller = await authenticateRequest(contextOn(em), session, { check: 'any' });
    expect(caller).not.toBeNull();
    const { user: who } = caller!;
    const device = caller!.session!;
    expect(who.id).toBe(user.id);
    expect(who.lockUntil).toBeInstanceOf(Date);
    expect(who.lockUntil!.getTime()).toBe(lockUntil.getTime());
    expect(who.createdAt).toBeInstanceOf(Date);
    expect(who.isAdmin).toBe(false);
    expect(who.passwordHash).toBeUndefined();
    expect(device.id).toBe(session.sessionId);
    expect(device.user).toBe(who);
    expect(device.lastActivity).toBeInstanceOf(Date);
    expect(device.isActive).toBe(true);

    // Managed: the identity map hands out the same objects, and a change flushes as an update.
    expect(await em.findOne(User, user.id)).toBe(who);
    who.name = 'Renamed';
    await em.flush();
    expect((await t.app.orm.em.fork().findOneOrFail(User, user.id)).name).toBe('Renamed');
  });
});

describe('authenticateRequest with a row', () => {
  it('reads a row of another table in the same statement, managed and typed as findOne gives it', async () => {
    const admin = await createAdminSession(t);
    const made = t.app.orm.em.fork();
    const upload = made.create(UploadSession, {
      owner: made.getReference(User, admin.userId),
      fileName: 'Typed.wav',
      fileSize: 3 * 1024 ** 3,
      totalChunks: 615,
      chunkSize: 5 * 1024 * 1024,
      fileHash: 'a'.repeat(64),
      mimeType: 'audio/wav',
      metadata: { source: 'test', nested: { list: [1, 'two'] } },
      expiresAt: new Date(Date.now() + 3600_000),
    });
    await made.persist(upload).flush();

    const em = t.app.orm.em.fork();
    const { result, queries, statements } = await countQueries(() => withRow(em, admin, upload.id));
    expect(queries, statements.join('\n')).toBe(1);
    expect(result.caller?.session?.id).toBe(admin.sessionId);
    const read = result.companion!;
    const stored = await t.app.orm.em.fork().findOneOrFail(UploadSession, upload.id);
    const fields = ['fileName', 'fileSize', 'totalChunks', 'chunkSize', 'fileHash', 'metadata', 'status'] as const;
    for (const field of fields) expect(read[field], field).toEqual(stored[field]);
    expect(read.createdAt.getTime()).toBe(stored.createdAt.getTime());
    expect(read.expiresAt.getTime()).toBe(stored.expiresAt.getTime());
    expect(read.file).toBeNull();
    // Managed, its owner the caller's own user object.
    expect(read.owner).toBe(result.caller?.user);
    expect(await em.findOne(UploadSession, upload.id)).toBe(read);

    const none = await withRow(em, admin, randomUUID());
    expect(none.caller?.user.id).toBe(admin.userId);
    expect(none.companion).toBeNull();
  });

  it('reads nothing without a token', async () => {
    const em = t.app.orm.em.fork();
    const { result, queries } = await countQueries(() => withRow(em, { token: null, deviceId: null }, randomUUID()));
    expect(result).toEqual({ caller: null, companion: null });
    expect(queries).toBe(0);
  });
});
