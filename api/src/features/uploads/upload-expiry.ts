import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../config.js';
import { uuidPattern } from '../../validation.js';
import { resolveStoredPath, storageDirs } from '../files/storage-paths.js';
import { dropRunningHash } from './running-hash.js';
import { UploadSession, UploadStatus } from './upload-session.entity.js';
import { removeUploadDir, uploadPaths } from './upload-storage.js';

/** Sessions handled per sweep, so one call stays short; the next sweep takes the rest. */
const SWEEP_BATCH = 100;
/** How old a folder without a session must be before a sweep removes it. */
const ORPHAN_GRACE_MS = 3600_000;

/**
 * Marks unfinished uploads past their expiry as expired and removes their parts, and removes
 * what no row owns any more: upload folders whose session is gone (its administrator deleted)
 * and direct-upload temp files a crash left behind. Runs as a background job (uploadSweepJob):
 * every quarter hour, once across replicas, and queued by each upload init.
 */
export async function sweepExpiredUploads(em: EntityManager, config: AppConfig, now = new Date()): Promise<number> {
  const expired = await em.find(
    UploadSession,
    { status: UploadStatus.active, expiresAt: { $lte: now } },
    { limit: SWEEP_BATCH, orderBy: { expiresAt: 'asc' } },
  );
  for (const session of expired) await expireUpload(em, config, session);
  if (expired.length) await em.flush();
  await removeOrphanUploadDirs(em, config, now);
  await removeStaleTempFiles(config, now);
  return expired.length;
}

/** Marks one upload past its expiry expired (flushed by the caller) and removes its parts. */
export async function expireUpload(em: EntityManager, config: AppConfig, session: UploadSession): Promise<void> {
  await removeUploadDir(uploadPaths(config.dataDir, session.id));
  dropRunningHash(config, session.id);
  em.assign(session, { status: UploadStatus.expired });
}

/** Folders under uploads/ with no active session, left alone while young (an init may be writing its row). */
async function removeOrphanUploadDirs(em: EntityManager, config: AppConfig, now: Date): Promise<void> {
  const root = resolveStoredPath(config.dataDir, `${storageDirs.uploads}/.`);
  const ids = (await readdir(root).catch(() => [] as string[])).filter((name) => uuidPattern.test(name));
  if (ids.length === 0) return;
  const active = await em.find(UploadSession, { id: { $in: ids }, status: UploadStatus.active }, { fields: ['id'] });
  const held = new Set(active.map((s) => s.id));
  const cutoff = now.getTime() - ORPHAN_GRACE_MS;
  for (const id of ids) {
    if (held.has(id)) continue;
    const info = await stat(path.join(root, id)).catch(() => null);
    if (info && info.mtimeMs < cutoff) await removeUploadDir(uploadPaths(config.dataDir, id));
  }
}

async function removeStaleTempFiles(config: AppConfig, now: Date): Promise<void> {
  const dir = resolveStoredPath(config.dataDir, `${storageDirs.tmp}/.`);
  const names = await readdir(dir).catch(() => [] as string[]);
  const cutoff = now.getTime() - config.uploadExpiryHours * 3600_000;
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info && info.mtimeMs < cutoff) await rm(file, { force: true, recursive: true });
  }
}
