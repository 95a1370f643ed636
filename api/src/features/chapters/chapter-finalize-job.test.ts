import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ChapterClient, waitForChaptersReady } from '../../test/chapter-client.js';
import { createTestDatabaseOf, databaseKinds } from '../../test/database.js';
import { createAdminSession, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { createStoredAudioFile, removeTones } from '../../test/stream-fixtures.js';
import { Chapter, ChapterStatus } from './chapter.entity.js';

/** The finalize job at the edges: its chapter deleted under it, its app stopped during it. */

afterAll(async () => {
  await removeTones();
});

/** Finalize work folders of a chapter (tmp/finalize-<id>-…): one exists while it encodes. */
const workFolders = (t: TestApp, chapterId: string) =>
  (existsSync(path.join(t.config.dataDir, 'tmp')) ? readdirSync(path.join(t.config.dataDir, 'tmp')) : []).filter(
    (name) => name.startsWith(`finalize-${chapterId}-`),
  );

async function jobState(t: TestApp, chapterId: string): Promise<string | undefined> {
  const rows: { state: string }[] = await t.app.orm.em
    .getConnection()
    .execute(`select state from pgboss.job where name = 'chapter-finalize' and data->>'chapterId' = ?`, [chapterId]);
  return rows[0]?.state;
}

/** A file of `seconds` with one chapter over it, queued for finalizing; resolves once it encodes. */
async function finalizing(t: TestApp, admin: Session, seconds: number): Promise<{ fileId: string; chapterId: string }> {
  const file = await createStoredAudioFile(t, { seconds });
  const created = await t.rest<{ data: { id: string }[] }>(
    'POST',
    `/files/${file.id}/chapters`,
    { chapters: [{ label: 'Long', startTime: 0 }] },
    admin,
  );
  expect(created.status).toBe(201);
  const chapterId = created.body.data[0].id;
  const res = await new ChapterClient(t, admin).finalize(file.id, 'filesystem');
  expect(res.body.data.queuedChapters).toBe(1);
  await vi.waitFor(() => expect(workFolders(t, chapterId)).toHaveLength(1), { timeout: 30_000, interval: 20 });
  return { fileId: file.id, chapterId };
}

describe.each(databaseKinds)('the finalize job on %s', (_, kind) => {
  it('ends quietly when its chapter is deleted while it encodes, leaving no files', async () => {
    const t = await startTestApp({ embedded: kind.embedded });
    try {
      const admin = await createAdminSession(t);
      const { fileId, chapterId } = await finalizing(t, admin, 240);
      const deleted = await t.rest('DELETE', `/files/${fileId}/chapters/${chapterId}`, undefined, admin);
      expect(deleted.status).toBe(200);
      await vi.waitFor(async () => expect(await jobState(t, chapterId)).toBe('completed'), {
        timeout: 60_000,
        interval: 100,
      });
      expect(workFolders(t, chapterId)).toEqual([]);
      expect(existsSync(path.join(t.config.dataDir, 'chapters', chapterId))).toBe(false);
    } finally {
      await t.close();
    }
  }, 90_000);

  it('is run again by the next start when the app stops during it, and the chapter ends ready', async () => {
    const db = await createTestDatabaseOf(kind);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pal-restart-'));
    const options = { embedded: kind.embedded, databaseUrl: db.url, dataDir };
    let t = await startTestApp(options);
    try {
      // Ten minutes of audio: about ten seconds of encoding, longer than stopping waits for it (5 s),
      // so this attempt fails and the job is left to retry.
      const { fileId, chapterId } = await finalizing(t, await createAdminSession(t), 600);
      await t.close();
      t = await startTestApp(options);
      const admin = await createAdminSession(t);
      const [chapter] = await waitForChaptersReady(t, fileId, admin, 90_000);
      expect(chapter).toMatchObject({ id: chapterId, status: 'ready', error: null });
      expect(workFolders(t, chapterId)).toEqual([]);
      const rows: { retry_count: number }[] = await t.app.orm.em
        .getConnection()
        .execute(`select retry_count from pgboss.job where data->>'chapterId' = ?`, [chapterId]);
      expect(rows.map((r) => r.retry_count)).toEqual([1]);
    } finally {
      await t.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);

  it('is sent again at start for a chapter left finalizing with no job (a restored backup)', async () => {
    const db = await createTestDatabaseOf(kind);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pal-resume-'));
    const options = { embedded: kind.embedded, databaseUrl: db.url, dataDir };
    let t = await startTestApp(options);
    try {
      const file = await createStoredAudioFile(t, { seconds: 12 });
      const em = t.app.orm.em.fork();
      const chapter = em.create(Chapter, { file, label: 'Restored', startTime: 0, status: ChapterStatus.finalizing });
      await em.flush();
      await t.close();
      t = await startTestApp(options);
      const [ended] = await waitForChaptersReady(t, file.id, await createAdminSession(t), 60_000);
      expect(ended).toMatchObject({ id: chapter.id, status: 'ready', error: null });
    } finally {
      await t.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
