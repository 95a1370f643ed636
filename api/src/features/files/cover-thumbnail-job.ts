import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { declareJob } from '../jobs/job-kinds.js';
import { makeThumbnail } from './cover-thumbnail.js';
import { Cover, CoverStorage } from './cover.entity.js';
import { resolveStoredPath, storageDirs } from './storage-paths.js';

export interface CoverThumbnailData {
  fileId: string;
  /** The cover's updatedAt when it was stored: a cover replaced since gets its own job. */
  updatedAt: string;
}

/**
 * Makes the card-sized copy of a cover just stored, beside the requests (sharp can take a second
 * on a 5 MB photo). Stored the way the original is; until then the original is served for it.
 */
export const coverThumbnailJob = declareJob<CoverThumbnailData>({
  name: 'cover-thumbnail',
  retryLimit: 2,
  expireInSeconds: 5 * 60,
  async handler({ fileId, updatedAt }, { orm, deps }) {
    const em = orm.em.fork();
    const version = { file: fileId, updatedAt: new Date(updatedAt) };
    const cover = await em.findOne(Cover, version, { populate: ['base64'] });
    if (!cover) return; // replaced or removed since: nothing to do
    const { dataDir } = deps.config;
    const inFiles = cover.storageType === CoverStorage.file;
    const original = inFiles
      ? await readFile(resolveStoredPath(dataDir, cover.path!))
      : Buffer.from(cover.base64 ?? '', 'base64');
    const thumbnail = await makeThumbnail(original);
    if (!thumbnail) return; // small enough to be its own, or not decodable: the original serves
    let written: string | null = null;
    if (inFiles) {
      written = path.posix.join(storageDirs.covers, `${fileId}-${randomBytes(6).toString('hex')}.thumb.webp`);
      await mkdir(path.dirname(resolveStoredPath(dataDir, written)), { recursive: true });
      await writeFile(resolveStoredPath(dataDir, written), thumbnail, { mode: 0o600 });
    }
    const updated = await em.nativeUpdate(
      Cover,
      { ...version, thumbnailPath: null },
      inFiles ? { thumbnailPath: written } : { thumbnail },
    );
    if (updated !== 1 && written) await rm(resolveStoredPath(dataDir, written), { force: true });
  },
});
