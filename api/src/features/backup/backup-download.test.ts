import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../test/api-keys.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { addCover, createAudioFile } from '../../test/library-fixtures.js';
import { AuditEntry } from '../audit/audit-entry.entity.js';
import { CoverStorage } from '../files/cover.entity.js';
import { stageArchive } from './archive-reader.js';

let t: TestApp;
let admin: Session;
const work = mkdtempSync(path.join(tmpdir(), 'pal-backup-download-'));

beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
  const file = await createAudioFile(t, { title: 'Downloaded' });
  await addCover(t, file.id, CoverStorage.file);
});
afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

async function link(session: Session): Promise<string> {
  const res = await t.rest<{ data: { url: string } }>('POST', '/admin/backup/link', undefined, session);
  expect(res.status).toBe(200);
  return `${t.url}${res.body.data.url}`;
}

describe('an administrator downloading a backup', () => {
  it('follows a link with no Authorization header and gets a whole archive as a file', async () => {
    const res = await fetch(await link(admin));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-tar');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="pal-backup-\d{8}T\d{6}Z\.tar"$/);
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    // The archive checks against its own manifest: every row and file, whole.
    const staged = await stageArchive(Readable.fromWeb(res.body!), path.join(work, 'staged'));
    expect(staged.header.tables.map((table) => table.name)).toContain('audio_files');
    // Recorded once the archive has gone out whole, so just after the download ends.
    const downloads = async () =>
      (await t.app.orm.em.fork().find(AuditEntry, { action: 'backup.completed' })).map((e) => e.details?.download);
    await expect.poll(downloads, { timeout: 5000 }).toEqual([true]);
  });

  it('refuses a link to anyone but an administrator on a device', async () => {
    const user = await createUser(t);
    const listener = await signIn(t, user.email);
    expect((await t.rest('POST', '/admin/backup/link', undefined, listener)).status).toBe(403);
    expect((await t.rest('POST', '/admin/backup/link')).status).toBe(401);
    const key = await createKey(t, admin, { userId: admin.userId, scopes: ['AUDIT_READ', 'FILES_WRITE'] });
    const secret = key.data!.createApiKey.secret;
    const byKey = await t.rest('POST', '/admin/backup/link', undefined, { token: secret });
    expect(byKey.status).toBe(403);
  });

  it('refuses a link altered, expired, or outlived by its device session', async () => {
    const good = new URL(await link(admin));
    const altered = new URL(good);
    altered.searchParams.set('exp', String(Number(good.searchParams.get('exp')) + 1000));
    const expired = new URL(good);
    expired.searchParams.set('exp', String(Date.now() - 1));
    for (const url of [altered, expired, new URL(`${t.url}/api/v1/admin/backup`)]) {
      const res = await fetch(url);
      expect(res.status, url.search).toBe(403);
      await res.arrayBuffer();
    }
    const leaving = await createAdminSession(t);
    const theirs = await link(leaving);
    expect((await t.rest('POST', '/auth/logout', undefined, leaving)).status).toBe(200);
    const res = await fetch(theirs);
    expect(res.status).toBe(403);
    await res.arrayBuffer();
  });
});
