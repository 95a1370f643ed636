import { copyFile, link, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { resolveStoredPath } from '../files/storage-paths.js';

/**
 * Every stored path (relative to DATA_DIR) the database references, each once: audio, cover
 * images and their thumbnails, chapter segments kept on the filesystem. Read inside the snapshot,
 * so it is exactly the set of files the dumped rows need. Bytes kept in rows (inline covers,
 * segments in the database) travel with the tables.
 */
export async function mediaReferences(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ path: string }>(
    `select storage_path as path from audio_files
     union select path from covers where storage_type = 'file' and path is not null
     union select thumbnail_path from covers where storage_type = 'file' and thumbnail_path is not null
     union select path from chapter_segments where path is not null
     order by path`,
  );
  return rows.map((row) => row.path);
}

/** Link errors after which a copy serves instead (a file system without hard links). */
const NO_LINK = new Set(['EPERM', 'EXDEV', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS']);

/**
 * Hard-links each referenced file into `stagingDir` (on DATA_DIR's file system: a link is one
 * metadata write, a few thousand take milliseconds), so the backup reads the bytes the snapshot
 * saw even if the file is deleted while the archive is written. Why a link taken while the
 * snapshot is open holds the snapshot's bytes: media are write-once. A new cover gets a new name;
 * an upload's audio is renamed into place before its row exists; a chapter's segments are written
 * before it is ready, and a ready chapter is never encoded again. So a referenced path never gets
 * other bytes; it can only vanish, when a delete that committed after the snapshot removes it
 * before its link is made. Those come back as missing, and the caller takes a new snapshot, which
 * no longer references them.
 */
export async function freezeMedia(dataDir: string, stored: string[], stagingDir: string): Promise<string[]> {
  const missing: string[] = [];
  const made = new Set<string>();
  for (const relative of stored) {
    const source = resolveStoredPath(dataDir, relative);
    const target = resolveStoredPath(stagingDir, relative);
    const folder = path.dirname(target);
    if (!made.has(folder)) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      made.add(folder);
    }
    try {
      await link(source, target).catch((err: NodeJS.ErrnoException) => {
        if (!NO_LINK.has(err.code ?? '')) throw err;
        return copyFile(source, target);
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      missing.push(relative);
    }
  }
  return missing;
}
