import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { resolveStoredPath, storageDirs } from '../files/storage-paths.js';
import { ArchiveWriter } from './archive-writer.js';
import {
  BACKUP_FORMAT_NAME,
  BACKUP_FORMAT_VERSION,
  HEADER_ENTRY,
  MANIFEST_ENTRY,
  SECRET_FILE,
  fileEntry,
  tableEntry,
  type BackupHeader,
} from './backup-format.js';
import { stagingParts, takeSnapshot } from './database-snapshot.js';
import { freezeMedia } from './media-references.js';

/** What a backup reads: the app's database (any EntityManager of it: the pool is shared) and its DATA_DIR. */
export interface BackupSource {
  em: EntityManager;
  dataDir: string;
  /**
   * Runs inside the snapshot's transaction, right after it read which files the rows reference
   * and before it links them: the seam the snapshot-consistency test uses to commit a delete in
   * that window. Nothing else sets it.
   */
  insideSnapshot?: () => Promise<void>;
}

export interface BackupSummary {
  /** Bytes of the archive. */
  bytes: number;
  durationMs: number;
  migration: string;
  createdAt: Date;
  mediaFiles: number;
  /** Files the database references that were not in DATA_DIR: the library had lost them already. */
  missingMedia: string[];
}

/**
 * Writes one backup archive (backup-format.ts) into `out`, streamed: a route can pass its response,
 * the command and the schedule a file. The database is snapshot first, then the archive is
 * written from the staged snapshot, so the database is held only for the snapshot.
 */
export async function writeBackup(source: BackupSource, out: Writable): Promise<BackupSummary> {
  const started = performance.now();
  const createdAt = new Date();
  // Under tmp/, on DATA_DIR's file system (hard links need it); a crash leaves it to the sweep of tmp/.
  const stagingDir = resolveStoredPath(source.dataDir, path.join(storageDirs.tmp, `backup-${randomUUID()}`));
  const archive = new ArchiveWriter(out);
  try {
    const snapshot = await takeSnapshot(source.em, source.dataDir, stagingDir, source.insideSnapshot);
    const parts = stagingParts(stagingDir);
    const media = [...snapshot.media];
    // The signing secret, when DATA_DIR keeps one (SECRET unset): restored, sign-ins survive.
    if ((await freezeMedia(source.dataDir, [SECRET_FILE], parts.files)).length === 0) media.push(SECRET_FILE);
    const header: BackupHeader = {
      format: BACKUP_FORMAT_NAME,
      formatVersion: BACKUP_FORMAT_VERSION,
      migration: snapshot.migration,
      createdAt: createdAt.toISOString(),
      tables: snapshot.tables,
      sequences: snapshot.sequences,
    };
    await archive.addBuffer(HEADER_ENTRY, Buffer.from(JSON.stringify(header, null, 2)), createdAt);
    for (const table of snapshot.tables) await addFile(archive, tableEntry(table.name), parts.table(table.name));
    for (const stored of media) await addFile(archive, fileEntry(stored), resolveStoredPath(parts.files, stored));
    const manifest = { entries: archive.entries };
    await archive.addBuffer(MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 2)), createdAt);
    await archive.finish();
    return {
      bytes: archive.bytes,
      durationMs: Math.round(performance.now() - started),
      migration: snapshot.migration,
      createdAt,
      mediaFiles: snapshot.media.length,
      missingMedia: snapshot.missingMedia,
    };
  } catch (err) {
    archive.abort(err as Error);
    throw err;
  } finally {
    await rm(stagingDir, { recursive: true, force: true });
  }
}

/** Reads of 1 MiB: with the default 64 KiB, per-chunk overhead of the streams dominated (bench/backup.mjs). */
const READ_CHUNK = 1024 * 1024;

async function addFile(archive: ArchiveWriter, name: string, file: string): Promise<void> {
  const { size, mtime } = await stat(file);
  await archive.add(name, size, createReadStream(file, { highWaterMark: READ_CHUNK }), mtime);
}

/**
 * Writes a backup to `file`, through `file.partial` flushed to disk and renamed at the end: a file
 * of that name is always a whole backup, never one cut off by a crash or a full disk.
 */
export async function backupToFile(source: BackupSource, file: string): Promise<BackupSummary> {
  const partial = `${file}.partial`;
  try {
    const summary = await writeBackup(source, createWriteStream(partial, { mode: 0o600, flush: true }));
    await rename(partial, file);
    return summary;
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}
