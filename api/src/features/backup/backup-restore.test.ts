import { createReadStream, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRows, mediaHashes } from '../../test/backup-fixtures.js';
import { createTestDatabaseOf, databaseKinds } from '../../test/database.js';
import { newKey } from '../../test/api-keys.js';
import { createAdminSession, createUser, signIn, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { addChapter, addCover, createAudioFile } from '../../test/library-fixtures.js';
import { StreamClient } from '../../test/stream-client.js';
import { createStoredAudioFile, grantFile, removeTones } from '../../test/stream-fixtures.js';
import { chunkedClient, threeChunkWav, uploadDir } from '../../test/upload-client.js';
import { ChapterKey } from '../chapters/chapter-key.entity.js';
import { ChapterSegment } from '../chapters/chapter-segment.entity.js';
import { Chapter, ChapterStatus, SegmentStorage } from '../chapters/chapter.entity.js';
import { Checkpoint } from '../checkpoints/checkpoint.entity.js';
import { CoverStorage } from '../files/cover.entity.js';
import { ListeningProgress } from '../progress/listening-progress.entity.js';
import { backupToFile } from './backup.service.js';
import { restoreBackup } from './restore.service.js';

const work = mkdtempSync(path.join(tmpdir(), 'pal-backup-test-'));

afterAll(async () => {
  await removeTones();
  rmSync(work, { recursive: true, force: true });
});

/** A library with something in every table: accounts, sessions, files, covers, chapters, grants, progress, keys. */
async function fillLibrary(app: TestApp) {
  const admin = await createAdminSession(app);
  const listener = await createUser(app, { name: 'Listener' });
  const tone = await createStoredAudioFile(app, { seconds: 20, title: 'Streamed tone' });
  const [withFileCover, withInlineCover] = [await createAudioFile(app), await createAudioFile(app)];
  await addCover(app, withFileCover.id, CoverStorage.file);
  await addCover(app, withInlineCover.id, CoverStorage.base64);
  await grantFile(app, listener.id, tone.id);
  await grantFile(app, listener.id, withFileCover.id);
  const onDisk = await addChapter(app, withFileCover.id, { label: 'On disk' });
  const em = app.app.orm.em.fork();
  em.create(ChapterKey, { chapter: onDisk, key: Buffer.alloc(16, 7), iv: Buffer.alloc(16, 9) });
  // A chapter whose segment bytes live in the database, with bytes no text encoding would keep.
  const inRows = em.create(Chapter, {
    file: withInlineCover.id,
    label: 'In rows\ttab "quoted" \\ back',
    startTime: 0,
    order: 0,
    status: ChapterStatus.ready,
    storageType: SegmentStorage.database,
  });
  em.create(ChapterKey, { chapter: inRows, key: Buffer.alloc(16, 1), iv: Buffer.alloc(16, 2) });
  em.create(ChapterSegment, {
    chapter: inRows,
    index: 0,
    duration: 6,
    size: 256,
    data: Buffer.from([...Array(256).keys()]),
  });
  em.create(ListeningProgress, { user: listener.id, file: tone.id, position: 12.345678, finished: false });
  em.create(Checkpoint, { user: listener.id, file: tone.id, timestamp: 7, name: 'Bookmark\nnext line' });
  await em.flush();
  const listenerSession = await signIn(app, listener.email);
  await newKey(app, admin, listener.id, ['LIBRARY_READ']);
  return { admin, tone, listenerSession };
}

// On each kind of database, and each backup restored into each kind: the archive's format is the same.
describe.each(databaseKinds)('a backup taken on %s while the library is in use', (_, source) => {
  const archive = path.join(work, `${source.slug}.tar`);
  let before: { rows: Record<string, string[]>; media: Record<string, string> };
  let uploadId: string;
  let listenerSession: Session;
  let t: TestApp | undefined;

  afterAll(async () => {
    await t?.close();
  });

  beforeAll(async () => {
    t = await startTestApp({ embedded: source.embedded });
    const filled = await fillLibrary(t);
    const { admin, tone } = filled;
    listenerSession = filled.listenerSession;

    // A listener is part-way through the stream, and an upload has one chunk of three.
    const streams = new StreamClient(t, tone);
    const viewer = await streams.viewer();
    const streaming = await streams.get(await streams.openStream(viewer), { range: 'bytes=0-' });
    expect(streaming.status).toBe(206);
    const reader = streaming.body!.getReader();
    await reader.read();
    const wav = await threeChunkWav('backup-tone.wav');
    const uploads = chunkedClient(t, admin);
    uploadId = (await uploads.init(wav, 'backup-tone.wav')).body.uploadId;
    expect((await uploads.chunk(uploadId, wav, 'backup-tone.wav', 0)).status).toBe(200);

    const [summary] = await Promise.all([
      backupToFile({ em: t.app.orm.em, dataDir: t.config.dataDir }, archive),
      uploads.chunk(uploadId, wav, 'backup-tone.wav', 1),
    ]);
    expect(summary.missingMedia).toEqual([]);
    await reader.cancel();

    before = { rows: await allRows(t.app.orm), media: mediaHashes(t.config.dataDir) };
    expect(existsSync(uploadDir(t, uploadId))).toBe(true);
    await t.close(); // drops the database and removes DATA_DIR: everything is gone
    t = undefined;
  });

  // Seconds with the build's template (the tests' setup); without a build an embedded restore runs initdb.
  it.each(databaseKinds)(
    'restores into %s every row and media file as they were, and serves them',
    async (_, into) => {
      const database = await createTestDatabaseOf(into);
      const dataDir = path.join(work, `restored-${source.slug}-${into.slug}`);
      let restored: TestApp | undefined;
      try {
        const result = await restoreBackup(createReadStream(archive), { dataDir, databaseUrl: database.url });
        expect(new Date(result.createdAt).getTime()).toBeGreaterThan(Date.now() - 600_000);

        restored = await startTestApp({
          dataDir,
          embedded: into.embedded,
          ...(database.url ? { databaseUrl: database.url } : {}),
        });
        const after = { rows: await allRows(restored.app.orm), media: mediaHashes(dataDir) };
        const inProgress = (row: string) => (JSON.parse(row) as { id: string }).id === uploadId;
        expect(after.rows).toEqual({
          ...before.rows,
          upload_sessions: before.rows.upload_sessions.filter((r) => !inProgress(r)),
        });
        expect(after.media).toEqual(before.media);
        expect(Object.keys(after.media).some((p) => p.startsWith('chapters/'))).toBe(true);
        expect(readdirSync(dataDir).filter((name) => name.startsWith('.restore-') || name === 'uploads')).toEqual([]);

        // The listener's device session and token were restored with the rest: no new sign-in needed.
        const library = await restored.rest<{ data: { title: string }[] }>('GET', '/files', undefined, listenerSession);
        expect(library.status).toBe(200);
        expect(library.body.data.map((f) => f.title)).toContain('Streamed tone');
        // The audit log's next id comes after every restored one: its sequence came back too.
        const [next] = await restored.app.orm.em
          .getConnection()
          .execute<{ id: string }[]>(`select nextval(pg_get_serial_sequence('audit_log', 'id'))::text as id`);
        const restoredIds = before.rows.audit_log.map((r) => (JSON.parse(r) as { id: number }).id);
        expect(restoredIds.length).toBeGreaterThan(0);
        expect(Number(next.id)).toBeGreaterThan(Math.max(...restoredIds));
      } finally {
        await restored?.close();
        await database.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
