import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSession, type Session } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { addCover, createAudioFile } from '../../test/library-fixtures.js';
import { CoverStorage } from '../files/cover.entity.js';
import { backupToFile } from './backup.service.js';

const work = mkdtempSync(path.join(tmpdir(), 'pal-backup-consistency-'));
let t: TestApp;
let admin: Session;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createAdminSession(t);
});

afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Each entry's name, and the text of the database entries. */
async function archived(file: string): Promise<{ names: string[]; tables: Record<string, string> }> {
  const extract = tar.extract();
  createReadStream(file).pipe(extract);
  const names: string[] = [];
  const tables: Record<string, string> = {};
  for await (const entry of extract) {
    names.push(entry.header.name);
    const parts: Buffer[] = [];
    for await (const chunk of entry) parts.push(chunk as Buffer);
    if (entry.header.name.startsWith('db/')) tables[entry.header.name] = Buffer.concat(parts).toString();
  }
  return { names, tables };
}

describe('the snapshot and the media agree', () => {
  // Transactions on the embedded database take turns on its one connection: no delete can commit
  // while a snapshot is open, so the race below exists on PostgreSQL only.
  it.skipIf(!process.env.DATABASE_URL)(
    'a file deleted while the snapshot is open is in neither: a new snapshot is taken',
    async () => {
      const [kept, deleted] = [await createAudioFile(t, { title: 'Kept' }), await createAudioFile(t)];
      await addCover(t, deleted.id, CoverStorage.file);
      let deletes = 0;
      /** Inside the snapshot, after it read which files its rows reference; the first time only. */
      const insideSnapshot = async () => {
        if (deletes++ > 0) return;
        // The administrator's delete commits on another connection and removes the files.
        expect((await t.rest('DELETE', `/admin/files/${deleted.id}`, undefined, admin)).status).toBe(200);
      };
      const file = path.join(work, 'race.tar');
      const summary = await backupToFile({ em: t.app.orm.em, dataDir: t.config.dataDir, insideSnapshot }, file);
      // Taken again: the first snapshot's files were gone when it linked them.
      expect(deletes).toBe(2);
      expect(summary.missingMedia).toEqual([]);
      const { names, tables } = await archived(file);
      expect(tables['db/audio_files.copy']).toContain(kept.id);
      expect(tables['db/audio_files.copy']).not.toContain(deleted.id);
      expect(names.filter((n) => n.includes(deleted.id))).toEqual([]);
      expect(names).toContain(`files/${kept.storagePath}`);
    },
  );

  it('a file the library had lost already is reported, and the rest is backed up', async () => {
    const lost = await createAudioFile(t, { title: 'Lost' });
    await rm(path.join(t.config.dataDir, lost.storagePath));
    const file = path.join(work, 'lost.tar');
    const summary = await backupToFile({ em: t.app.orm.em, dataDir: t.config.dataDir }, file);
    expect(summary.missingMedia).toEqual([lost.storagePath]);
    const { names, tables } = await archived(file);
    expect(tables['db/audio_files.copy']).toContain(lost.id);
    expect(names).not.toContain(`files/${lost.storagePath}`);
  });
});
