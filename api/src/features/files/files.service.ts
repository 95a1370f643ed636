import type { FilterQuery } from '@mikro-orm/core';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parsePage, type Page } from '../../graphql/paging.js';
import { parseId } from '../../validation.js';
import { findVisibleFile, visibleFilesFilter } from '../access/visibility.js';
import { requireCaller } from '../auth/auth.policy.js';
import { AudioFile } from './audio-file.entity.js';
import { Cover, CoverStorage } from './cover.entity.js';
import { containsPattern, parseSearch } from './search-term.js';
import { resolveStoredPath } from './storage-paths.js';

export interface FileListArgs extends Partial<Page> {
  search?: string | null;
}

export interface FilePage {
  total: number;
  items: AudioFile[];
}

/** Where a cover's bytes are: a file under DATA_DIR, or decoded from the inline base64. */
export interface CoverImage {
  mimeType: string;
  etag: string;
  updatedAt: Date;
  source: { kind: 'file'; fullPath: string } | { kind: 'inline'; bytes: Buffer };
}

/** Newest first; the id breaks ties so paging is stable. */
export const fileOrder = { createdAt: 'desc', id: 'asc' } as const;

/** One page of files matching `where`: two queries, whatever the number of rows. */
export async function findFilePage(ctx: Ctx, where: FilterQuery<AudioFile>, page: Page): Promise<FilePage> {
  const [items, total] = await ctx.em.findAndCount(AudioFile, where, {
    orderBy: fileOrder,
    offset: page.offset,
    limit: page.limit,
  });
  return { total, items };
}

/** The caller's library: the files they may see, optionally searched by title or description. */
export async function listLibrary(ctx: Ctx, args: FileListArgs = {}): Promise<FilePage> {
  const caller = requireCaller(ctx);
  const page = parsePage({ offset: args.offset, limit: args.limit });
  const search = parseSearch(args.search);
  const where: FilterQuery<AudioFile>[] = [visibleFilesFilter(ctx.em, caller)];
  if (search) {
    const pattern = containsPattern(search);
    where.push({ $or: [{ title: { $ilike: pattern } }, { description: { $ilike: pattern } }] });
  }
  return findFilePage(ctx, { $and: where }, page);
}

/** One file the caller may see; files they may not see are NOT_FOUND, as if they did not exist. */
export async function getFile(ctx: Ctx, fileId: string): Promise<AudioFile> {
  const caller = requireCaller(ctx);
  return findVisibleFile(ctx.em, caller, parseId(fileId, 'fileId'));
}

/** A visible file's cover, from the file store or decoded from the inline copy. */
export async function getCoverImage(ctx: Ctx, fileId: string): Promise<CoverImage> {
  const file = await getFile(ctx, fileId);
  const cover = await ctx.em.findOne(Cover, { file: file.id }, { populate: ['base64'] });
  if (!cover) throw new AppError('NOT_FOUND', 'Cover not found');
  const etag = `"${file.id}-${cover.updatedAt.getTime()}"`;
  const common = { mimeType: cover.mimeType, etag, updatedAt: cover.updatedAt };
  if (cover.storageType === CoverStorage.file && cover.path) {
    return { ...common, source: { kind: 'file', fullPath: resolveStoredPath(ctx.deps.config.dataDir, cover.path) } };
  }
  if (cover.storageType === CoverStorage.base64 && cover.base64) {
    return { ...common, source: { kind: 'inline', bytes: Buffer.from(cover.base64, 'base64') } };
  }
  throw new AppError('NOT_FOUND', 'Cover not found');
}
