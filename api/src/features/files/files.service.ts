import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import {
  findConnection,
  findOffsetPage,
  mapConnection,
  type Connection,
  type ConnectionInput,
  type ListQuery,
  type Ordering,
  type Page,
} from '../../paging.js';
import { parseId, parseInput } from '../../validation.js';
import { libraryFilterSchema } from './files.schemas.js';
import { findVisibleFile, libraryFilesCondition } from '../access/visibility.js';
import { requireCaller } from '../../caller-policy.js';
import type { AudioFile } from './audio-file.entity.js';
import { THUMBNAIL_MIME, type CoverSize } from './cover-thumbnail.js';
import { Cover, CoverStorage } from './cover.entity.js';
import { libraryOrder, NEWEST_FILES } from './library-order.js';
import { parseSearch } from '../../search-term.js';
import { allOf, containsAny, type SqlCondition } from '../../sql-condition.js';
import { resolveStoredPath } from './storage-paths.js';

export interface FileListArgs {
  search?: string | null;
}

/** A file as lists show it: the fields of the GraphQL AudioFile type, read as plain data. */
export type FileSummary = Pick<
  AudioFile,
  'id' | 'title' | 'description' | 'filename' | 'size' | 'duration' | 'mimeType' | 'isPublic' | 'createdAt'
>;

export interface FilePage {
  total: number;
  items: FileSummary[];
}

/** Where a cover's bytes are: a file under DATA_DIR, or decoded from the inline base64. */
export interface CoverImage {
  mimeType: string;
  etag: string;
  updatedAt: Date;
  source: { kind: 'file'; fullPath: string } | { kind: 'inline'; bytes: Buffer };
}

export interface FileRow {
  id: string;
  title: string;
  description: string | null;
  filename: string;
  size: string;
  duration: number;
  mime_type: string;
  is_public: boolean;
  created_at: string;
}

/** The columns of a FileSummary, for statements that read audio_files with other tables. */
export const FILE_COLUMNS = [
  'id',
  'title',
  'description',
  'filename',
  'size',
  'duration',
  'mime_type',
  'is_public',
  'created_at',
]
  .map((column) => `audio_files.${column}`)
  .join(', ');

export function toFileSummary(row: FileRow): FileSummary {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    filename: row.filename,
    size: Number(row.size),
    duration: row.duration,
    mimeType: row.mime_type,
    isPublic: row.is_public,
    createdAt: new Date(row.created_at),
  };
}

/** A list of files: FileSummary columns of the rows matching `where`, newest first unless told otherwise. */
export function fileList(where: SqlCondition, ordering: Ordering = NEWEST_FILES): ListQuery {
  return { from: 'audio_files', columns: FILE_COLUMNS, where, ordering };
}

/** One offset page of a file list: two statements, whatever the number of rows. */
export async function findFilePage(ctx: Ctx, query: ListQuery, page: Partial<Page>): Promise<FilePage> {
  const { total, rows } = await findOffsetPage<FileRow>(ctx.em, query, page);
  return { total, items: rows.map(toFileSummary) };
}

/** A file list as a cursor connection: two statements, whatever the number of rows. */
export async function findFileConnection(
  ctx: Ctx,
  query: ListQuery,
  page: ConnectionInput,
): Promise<Connection<FileSummary>> {
  return mapConnection(await findConnection<FileRow>(ctx.em, query, page), (rows) => rows.map(toFileSummary));
}

export interface LibraryArgs extends FileListArgs {
  sort?: string | null;
  authorId?: string | null;
  narratorId?: string | null;
  seriesId?: string | null;
  genre?: string | null;
}

/**
 * The library's filters by book details, as conditions on audio_files over the catalog's tables
 * (book_credits, book_details), each answered by its own index (genres by GIN).
 */
function bookFilters(args: LibraryArgs): SqlCondition[] {
  const filter = parseInput(libraryFilterSchema, {
    authorId: args.authorId,
    narratorId: args.narratorId,
    seriesId: args.seriesId,
    genre: args.genre,
  });
  const credited = (personId: string, role: string): SqlCondition => ({
    sql: 'audio_files.id in (select bc.file_id from book_credits bc where bc.person_id = ? and bc.role = ?)',
    params: [personId, role],
  });
  const where: SqlCondition[] = [];
  if (filter.authorId) where.push(credited(filter.authorId, 'author'));
  if (filter.narratorId) where.push(credited(filter.narratorId, 'narrator'));
  if (filter.seriesId) {
    where.push({
      sql: 'audio_files.id in (select bd.file_id from book_details bd where bd.series_id = ?)',
      params: [filter.seriesId],
    });
  }
  if (filter.genre) {
    where.push({
      sql: 'audio_files.id in (select bd.file_id from book_details bd where bd.genres @> array[?]::text[])',
      params: [filter.genre],
    });
  }
  return where;
}

/**
 * The caller's library: the files they may see, optionally searched by title or description, in
 * the chosen order (newest first unless told otherwise). The offset and the cursor form read it.
 */
function libraryQuery(ctx: Ctx, args: LibraryArgs): ListQuery {
  const caller = requireCaller(ctx);
  const search = parseSearch(args.search);
  const where = [libraryFilesCondition(caller)];
  if (search) where.push(containsAny(['title', 'description'], search));
  where.push(...bookFilters(args));
  return fileList(allOf(where), libraryOrder(caller, args.sort));
}

export async function listLibrary(ctx: Ctx, args: LibraryArgs & Partial<Page> = {}): Promise<FilePage> {
  return findFilePage(ctx, libraryQuery(ctx, args), args);
}

export async function libraryConnection(
  ctx: Ctx,
  args: LibraryArgs & ConnectionInput = {},
): Promise<Connection<FileSummary>> {
  return findFileConnection(ctx, libraryQuery(ctx, args), args);
}

/** One file the caller may see; files they may not see are NOT_FOUND, as if they did not exist. */
export async function getFile(ctx: Ctx, fileId: string): Promise<AudioFile> {
  const caller = requireCaller(ctx);
  return findVisibleFile(ctx.em, caller, parseId(fileId, 'fileId'));
}

/**
 * A visible file's cover, from the file store or the row. A thumbnail request for a cover without
 * one (small enough to be its own, or stored before thumbnails existed) gets the original.
 */
export async function getCoverImage(ctx: Ctx, fileId: string, size: CoverSize = 'full'): Promise<CoverImage> {
  const file = await getFile(ctx, fileId);
  // Only the copy asked for is read: an inline original can be 7 MB of base64.
  const cover = await ctx.em.findOne(
    Cover,
    { file: file.id },
    { populate: [size === 'thumbnail' ? 'thumbnail' : 'base64'] },
  );
  if (!cover) throw new AppError('NOT_FOUND', 'Cover not found');
  const stored = (relative: string) =>
    ({ kind: 'file', fullPath: resolveStoredPath(ctx.deps.config.dataDir, relative) }) as const;
  const answer = (variant: CoverSize, mimeType: string, source: CoverImage['source']): CoverImage => ({
    mimeType,
    etag: `"${file.id}-${cover.updatedAt.getTime()}${variant === 'thumbnail' ? '-thumb' : ''}"`,
    updatedAt: cover.updatedAt,
    source,
  });
  const inFiles = cover.storageType === CoverStorage.file;
  if (size === 'thumbnail') {
    if (inFiles && cover.thumbnailPath) return answer(size, THUMBNAIL_MIME, stored(cover.thumbnailPath));
    if (!inFiles && cover.thumbnail) return answer(size, THUMBNAIL_MIME, { kind: 'inline', bytes: cover.thumbnail });
    if (!inFiles) await ctx.em.populate(cover, ['base64']);
  }
  if (inFiles && cover.path) return answer('full', cover.mimeType, stored(cover.path));
  if (!inFiles && cover.base64) {
    return answer('full', cover.mimeType, { kind: 'inline', bytes: Buffer.from(cover.base64, 'base64') });
  }
  throw new AppError('NOT_FOUND', 'Cover not found');
}
