import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../../context.js';
import { publishChapterEvent } from '../chapters/chapter-events.js';
import { queueFinalize } from '../chapters/chapter-finalize.js';
import { Chapter, ChapterStatus, SegmentStorage } from '../chapters/chapter.entity.js';
import { BookCredit } from '../catalog/person.entity.js';
import { BookDetails } from '../catalog/series.entity.js';
import { putBook, type BookValues } from '../catalog/book-catalog.js';
import { bookValuesOf } from '../catalog/catalog.service.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { setCover, type CoverWrite } from '../files/cover-storage.js';
import { Cover, CoverStorage } from '../files/cover.entity.js';
import { resolveStoredPath } from '../files/storage-paths.js';
import { declareJob } from '../jobs/job-kinds.js';
import { chaptersFitting, readEmbeddedMetadata, type EmbeddedMetadata } from './embedded-metadata.js';

export interface FileImportData {
  fileId: string;
  /** The title the upload gave for want of a typed one (from the file name); null when one was typed. */
  nameTitle: string | null;
  /** How a cover read from the file is stored (the upload form's choice). */
  coverStorageType: CoverStorage;
}

/**
 * Each field of `stored` that is still empty takes the tag's value. What the administrator typed
 * at upload (or has set since) is never empty, so it wins.
 */
export function tagsWhereEmpty(stored: BookValues, tags: BookValues): BookValues {
  const list = (mine: string[], read: string[]) => (mine.length ? mine : read);
  const series = stored.series ?? tags.series;
  return {
    subtitle: stored.subtitle ?? tags.subtitle,
    authors: list(stored.authors, tags.authors),
    narrators: list(stored.narrators, tags.narrators),
    series,
    // A position belongs to its series: a stored series keeps its own position.
    seriesPosition: stored.series ? stored.seriesPosition : series ? tags.seriesPosition : null,
    year: stored.year ?? tags.year,
    publisher: stored.publisher ?? tags.publisher,
    genres: list(stored.genres, tags.genres),
    language: stored.language ?? tags.language,
  };
}

const sameBook = (a: BookValues, b: BookValues) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Reads what an uploaded file says about itself (tags, embedded cover, chapter list) and fills in
 * what the upload left empty, after the upload has answered: the read can seek through a large
 * file, and a retry after a crash picks it up on any replica. Safe to run again: it fills only what
 * is still empty, so a second run, or one after an administrator's edit, changes nothing they set.
 */
export async function importFileMetadata(em: EntityManager, deps: AppDeps, data: FileImportData): Promise<void> {
  const file = await em.findOne(AudioFile, data.fileId);
  if (!file) return; // deleted before its import: nothing to fill
  const embedded = await readEmbeddedMetadata(resolveStoredPath(deps.config.dataDir, file.storagePath));
  const { dataDir } = deps.config;

  // Assigned inside the transaction's callback, so typed wide: TypeScript would narrow a `let` to null.
  const cover: { write: CoverWrite | null } = { write: null };
  let chapters: Chapter[] = [];
  try {
    await em.transactional(async (tx) => {
      const current = await tx.findOneOrFail(AudioFile, file.id);
      if (data.nameTitle !== null && embedded.title && current.title === data.nameTitle) current.title = embedded.title;
      if (embedded.description && current.description === null) current.description = embedded.description;
      await fillBook(tx, current, embedded);
      if (embedded.cover && !(await tx.count(Cover, { file: current.id }))) {
        cover.write = await setCover(tx, dataDir, current, embedded.cover, data.coverStorageType);
      }
      if (!(await tx.count(Chapter, { file: current.id }))) {
        chapters = chaptersFitting(embedded.chapters, current.duration).map((chapter, order) =>
          tx.create(Chapter, { file: current, ...chapter, order, status: ChapterStatus.pending }),
        );
      }
    });
  } catch (err) {
    await cover.write?.rollback();
    throw err;
  }
  await cover.write?.commit(deps);
  if (chapters.length) {
    publishChapterEvent(deps.pubSub, file.id, null, ChapterStatus.pending);
    // Into filesystem storage, so they play with no finalize step (as an administrator's would).
    await queueFinalize({ em, deps }, file.id, SegmentStorage.filesystem);
  }
}

/** The tags' book details where the file's are still empty; nothing written when nothing changes. */
async function fillBook(em: EntityManager, file: AudioFile, embedded: EmbeddedMetadata): Promise<void> {
  const before = await bookValuesOf({ em }, file.id);
  const after = tagsWhereEmpty(before, embedded);
  if (sameBook(before, after)) return;
  // Deleted first, not beside the new rows: the flush inserts before it deletes.
  await em.nativeDelete(BookCredit, { file: file.id });
  const stored = await em.findOne(BookDetails, { file: file.id });
  await putBook(em, file, after, stored);
}

/**
 * The import of an upload's tags, cover and chapters, queued once the upload has committed. Retried
 * twice; a file whose import is given up stays as uploaded, with what the administrator sent.
 */
export const fileImportJob = declareJob<FileImportData>({
  name: 'file-import',
  retryLimit: 2,
  expireInSeconds: 10 * 60,
  async handler(data, { orm, deps }) {
    await importFileMetadata(orm.em.fork(), deps, data);
  },
  async onGiveUp(data, reason, { deps }) {
    deps.logger.warn('upload.import-given-up', { fileId: data.fileId, reason });
  },
});
