import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderState } from '../../test/backup-fixtures.js';
import { createTestDatabaseOf, databaseKinds } from '../../test/database.js';
import { createAdminSession } from '../../test/factories.js';
import { startTestApp } from '../../test/harness.js';
import { addCover, createAudioFile } from '../../test/library-fixtures.js';
import { CoverStorage } from '../files/cover.entity.js';
import { MANIFEST_ENTRY, type Manifest } from './backup-format.js';
import { backupToFile } from './backup.service.js';
import { restoreBackup } from './restore.service.js';

/** Seconds with the build's template (the tests' setup); without a build, an embedded restore runs initdb. */
const RESTORE_TIMEOUT = 180_000;
const work = mkdtempSync(path.join(tmpdir(), 'pal-restore-refusals-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The archive's entries, each edited by `edit`, with the manifest made anew unless `keepManifest`. */
async function repack(
  archive: string,
  edit: (name: string, bytes: Buffer) => Buffer,
  options: { keepManifest?: boolean } = {},
): Promise<Buffer> {
  const entries: { name: string; bytes: Buffer }[] = [];
  const extract = tar.extract();
  createReadStream(archive).pipe(extract);
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const chunk of entry) parts.push(chunk as Buffer);
    entries.push({ name: entry.header.name, bytes: edit(entry.header.name, Buffer.concat(parts)) });
  }
  const pack = tar.pack();
  for (const { name, bytes } of entries) {
    if (name !== MANIFEST_ENTRY || options.keepManifest) {
      pack.entry({ name }, bytes);
      continue;
    }
    const manifest: Manifest = {
      entries: entries
        .filter((e) => e.name !== MANIFEST_ENTRY)
        .map((e) => ({
          path: e.name,
          size: e.bytes.length,
          sha256: createHash('sha256').update(e.bytes).digest('hex'),
        })),
    };
    pack.entry({ name }, JSON.stringify(manifest));
  }
  pack.finalize();
  const out: Buffer[] = [];
  for await (const chunk of pack) out.push(chunk as Buffer);
  return Buffer.concat(out);
}

describe.each(databaseKinds)('restore refusals on %s: nothing changes', (_, kind) => {
  const archive = path.join(work, `${kind.slug}.tar`);
  let target: { dataDir: string; databaseUrl?: string; drop(): Promise<void> };

  beforeAll(async () => {
    const t = await startTestApp({ embedded: kind.embedded });
    try {
      await createAdminSession(t);
      const file = await createAudioFile(t, { title: 'Kept' });
      await addCover(t, file.id, CoverStorage.file);
      await backupToFile({ em: t.app.orm.em, dataDir: t.config.dataDir }, archive);
    } finally {
      await t.close();
    }
    const database = await createTestDatabaseOf(kind);
    // An empty target, but for the secret a first start may have generated: a refusal must leave it so.
    const dataDir = path.join(work, `target-${kind.slug}`);
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, 'secret.key'), 'generated before the restore');
    target = { dataDir, databaseUrl: database.url, drop: database.drop };
  });

  afterAll(async () => {
    await target?.drop();
  });

  async function databaseTables(): Promise<string[]> {
    if (!target.databaseUrl) return [];
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        `select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'S')`,
      );
      return rows.map((r) => r.name).sort();
    } finally {
      await client.end();
    }
  }

  /** Restores `bytes`, expecting a refusal that matches `message`, and the target exactly as it was. */
  async function expectRefused(bytes: Buffer, message: RegExp): Promise<void> {
    const [files, tables] = [folderState(target.dataDir), await databaseTables()];
    await expect(restoreBackup(Readable.from([bytes]), target)).rejects.toThrow(message);
    expect(folderState(target.dataDir)).toEqual(files);
    expect(await databaseTables()).toEqual(tables);
  }

  it('refuses an archive cut short', async () => {
    const whole = readFileSync(archive);
    await expectRefused(whole.subarray(0, Math.floor(whole.length / 2)), /cut short/);
    // Cut at an entry boundary, the manifest alone is gone.
    const withoutManifest = await repack(archive, (_name, bytes) => bytes, { keepManifest: true });
    const end = withoutManifest.indexOf(Buffer.from(MANIFEST_ENTRY));
    await expectRefused(withoutManifest.subarray(0, end), /cut short/);
  });

  it('refuses an archive whose media or rows were altered', async () => {
    const flip = (bytes: Buffer) => Buffer.from(bytes.map((b, i) => (i === 0 ? b ^ 1 : b)));
    const media = await repack(archive, (name, bytes) => (name.startsWith('files/covers/') ? flip(bytes) : bytes), {
      keepManifest: true,
    });
    await expectRefused(media, /files\/covers\/.* does not match its manifest/);
    const rows = await repack(archive, (name, bytes) => (name === 'db/users.copy' ? flip(bytes) : bytes), {
      keepManifest: true,
    });
    await expectRefused(rows, /db\/users\.copy does not match its manifest/);
  });

  it('refuses an archive of a newer format, or of a newer schema', async () => {
    const header = (edit: (h: Record<string, unknown>) => void) =>
      repack(archive, (name, bytes) => {
        if (name !== 'backup.json') return bytes;
        const parsed = JSON.parse(bytes.toString()) as Record<string, unknown>;
        edit(parsed);
        return Buffer.from(JSON.stringify(parsed));
      });
    await expectRefused(
      await header((h) => (h.formatVersion = 2)),
      /format version 2, newer than this version of the application reads/,
    );
    await expectRefused(
      await header((h) => (h.migration = 'Migration20991231000000_future')),
      /made by a newer version of the application/,
    );
  });

  it(
    'leaves the target as it was when loading the rows fails, even past the checks',
    async () => {
      // A row the manifest vouches for that the database refuses: the restore gets as far as loading.
      const broken = await repack(archive, (name, bytes) =>
        name === 'db/audit_log.copy' ? Buffer.concat([bytes, Buffer.from('not\ta\trow\n')]) : bytes,
      );
      await expectRefused(broken, /does not have its columns/);
    },
    RESTORE_TIMEOUT,
  );

  it('refuses a DATA_DIR that holds anything', async () => {
    mkdirSync(path.join(target.dataDir, 'audio'));
    try {
      await expectRefused(readFileSync(archive), /DATA_DIR .* is not empty/);
    } finally {
      rmSync(path.join(target.dataDir, 'audio'), { recursive: true });
    }
  });

  it(
    'restores the same archive once the target is as it was',
    async () => {
      await restoreBackup(createReadStream(archive), target);
      expect(Object.keys(folderState(path.join(target.dataDir, 'covers')))).toHaveLength(1);
      // The app ran with SECRET set, so the archive has no secret file: the generated one stays.
      expect(readFileSync(path.join(target.dataDir, 'secret.key'), 'utf8')).toBe('generated before the restore');
      await expect(restoreBackup(createReadStream(archive), target)).rejects.toThrow(/not empty/);
    },
    RESTORE_TIMEOUT,
  );
});
