import { copyFile, link, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { resolveStoredPath } from '../files/storage-paths.js';

/** A file under DATA_DIR that a row points at, with the size the row records when it records one. */
export interface MediaReference {
  path: string;
  size: number | null;
}

/**
 * Every stored path the database references: audio, cover images and their thumbnails, chapter
 * segments kept on the filesystem. Read inside the snapshot, so it is exactly the set of files
 * the dumped rows need. Bytes kept in rows (inline covers, segments in the database) travel with
 * the tables.
 */
export async function mediaReferences(client: pg.ClientBase): Promise<MediaReference[]> {
  const { rows } = await client.query<{ path: string; size: string | null }>(
    `select storage_path as path, size::text from audio_files
     union all select path, size::text from covers where storage_type = 'file' and path is not null
     union all select thumbnail_path, null from covers where storage_type = 'file' and thumbnail_path is not null
     union all select path, size::text from chapter_segments where path is not null`,
  );
  return rows.map((row) => ({ path: row.path, size: row.size === null ? null : Number(row.size) }));
}

/** What freezeMedia could not freeze as the snapshot recorded it. */
export interface FreezeResult {
  /** Referenced, but not on disk: nothing was linked. */
  missing: string[];
  /** Linked, but of another size than its row records. */
  resized: string[];
}

/** Link errors after which a copy serves instead (a file system without hard links). */
const NO_LINK = new Set(['EPERM', 'EXDEV', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS']);

/**
 * Hard-links each referenced file into `stagingDir` (on DATA_DIR's file system: a link is one
 * metadata write, a few thousand take milliseconds), so the backup reads the bytes the snapshot
 * saw even if the file is deleted or replaced while the archive is written. Media are write-once
 * (a new cover gets a new name, a chapter's segments are written before it is ready and never
 * after), so a link taken while the snapshot is open holds the snapshot's bytes. A file deleted
 * between the snapshot and its link comes back in `missing`, one of another size than its row
 * records in `resized`: the caller takes a new snapshot, which no longer references it.
 */
export async function freezeMedia(
  dataDir: string,
  references: MediaReference[],
  stagingDir: string,
): Promise<FreezeResult> {
  const missing: string[] = [];
  const resized: string[] = [];
  const made = new Set<string>();
  for (const reference of references) {
    const source = resolveStoredPath(dataDir, reference.path);
    const target = resolveStoredPath(stagingDir, reference.path);
    const folder = path.dirname(target);
    if (!made.has(folder)) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      made.add(folder);
    }
    try {
      await link(source, target);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (code === 'ENOENT') {
        missing.push(reference.path);
        continue;
      }
      if (code === 'EEXIST') continue; // two rows naming one file
      if (!NO_LINK.has(code)) throw err;
      await copyFile(source, target).catch((copyErr: NodeJS.ErrnoException) => {
        if (copyErr.code !== 'ENOENT') throw copyErr;
        missing.push(reference.path);
      });
    }
    if (reference.size !== null && !missing.includes(reference.path)) {
      const { size } = await stat(target);
      if (size !== reference.size) resized.push(reference.path);
    }
  }
  return { missing, resized };
}
