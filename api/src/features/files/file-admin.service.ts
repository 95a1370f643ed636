import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import type { Connection, ConnectionInput, ListQuery, Page } from '../../paging.js';
import { parseId, parseInput } from '../../validation.js';
import { lockLiveGrantees } from '../access/visibility.js';
import { recordAudit } from '../audit/audit.service.js';
import { requireAdmin } from '../../caller-policy.js';
import { publishSecurityEvent } from '../auth/security-events.js';
import { ChapterSegment } from '../chapters/chapter-segment.entity.js';
import { Chapter } from '../chapters/chapter.entity.js';
import { AudioFile } from './audio-file.entity.js';
import { removeCover, setCover, storedCoverPaths, type CoverWrite, type ReceivedCover } from './cover-storage.js';
import { Cover } from './cover.entity.js';
import { fileStatusSchema, updateFileSchema } from './files.schemas.js';
import {
  fileList,
  findFileConnection,
  findFilePage,
  type FileListArgs,
  type FilePage,
  type FileSummary,
} from './files.service.js';
import { FileStatusFilter } from './files.types.js';
import { parseSearch } from '../../search-term.js';
import { allOf, containsAny, type SqlCondition } from '../../sql-condition.js';
import { resolveStoredPath, storageDirs } from './storage-paths.js';

export type FileStatus = `${FileStatusFilter}`;

const statusFilter: Record<FileStatus, SqlCondition> = {
  ALL: allOf([]),
  PUBLIC: { sql: 'is_public', params: [] },
  PRIVATE: { sql: 'not is_public', params: [] },
};

async function findFile(ctx: Ctx, fileId: string): Promise<AudioFile> {
  const file = await ctx.em.findOne(AudioFile, { id: parseId(fileId, 'fileId') });
  if (!file) throw new AppError('NOT_FOUND', 'Audio file not found');
  return file;
}

export interface AdminFileListArgs extends FileListArgs {
  status?: FileStatus | null;
}

/** Administrators: every file, searched by title, filename or description and filtered by public flag. */
function adminFileQuery(ctx: Ctx, args: AdminFileListArgs): ListQuery {
  requireAdmin(ctx);
  const status = parseInput(fileStatusSchema, args.status ?? FileStatusFilter.ALL);
  const search = parseSearch(args.search);
  const where = [statusFilter[status]];
  if (search) where.push(containsAny(['title', 'filename', 'description'], search));
  return fileList(allOf(where));
}

export async function listAdminFiles(ctx: Ctx, args: AdminFileListArgs & Partial<Page> = {}): Promise<FilePage> {
  return findFilePage(ctx, adminFileQuery(ctx, args), args);
}

export async function adminFileConnection(
  ctx: Ctx,
  args: AdminFileListArgs & ConnectionInput = {},
): Promise<Connection<FileSummary>> {
  return findFileConnection(ctx, adminFileQuery(ctx, args), args);
}

export async function getAdminFile(ctx: Ctx, fileId: string): Promise<AudioFile> {
  requireAdmin(ctx);
  return findFile(ctx, fileId);
}

/** Title, description, public flag and cover; a new cover replaces the old one, on disk too. */
export async function updateFile(
  ctx: Ctx,
  fileId: string,
  rawInput: unknown,
  newCover: ReceivedCover | null = null,
): Promise<AudioFile> {
  requireAdmin(ctx);
  const input = parseInput(updateFileSchema, rawInput);
  const file = await findFile(ctx, fileId);
  const before = { title: file.title, description: file.description, isPublic: file.isPublic };
  // Absent (or null) means unchanged, except for the description, where null clears it.
  if (input.title != null) file.title = input.title;
  if (input.description !== undefined) file.description = input.description;
  if (input.isPublic != null) file.isPublic = input.isPublic;
  const dataDir = ctx.deps.config.dataDir;
  let coverWrite: CoverWrite | null = null;
  if (newCover) coverWrite = await setCover(ctx.em, dataDir, file, newCover, input.coverStorageType);
  else if (input.removeCover) coverWrite = await removeCover(ctx.em, dataDir, file);
  recordAudit(ctx, {
    action: 'file.updated',
    details: { fileId: file.id, before, cover: newCover ? 'replaced' : input.removeCover ? 'removed' : 'kept' },
  });
  try {
    await ctx.em.flush();
  } catch (err) {
    await coverWrite?.rollback();
    throw err;
  }
  await coverWrite?.commit(ctx.deps);
  // A file made private ends the cached byte checks of listeners who held no grant.
  if (file.isPublic !== before.isPublic) ctx.deps.pubSub.publish('ACCESS_CHANGED', { userId: null, fileId: file.id });
  return file;
}

/** Stored paths of everything a file owns on disk: audio, cover images, chapter segments. */
async function storedPathsOf(ctx: Ctx, file: AudioFile): Promise<{ files: string[]; dirs: string[] }> {
  const [cover, chapters] = await Promise.all([
    ctx.em.findOne(Cover, { file: file.id }),
    ctx.em.find(Chapter, { file: file.id }, { fields: ['id'] }),
  ]);
  const segments = chapters.length
    ? await ctx.em.find(
        ChapterSegment,
        { chapter: { $in: chapters.map((c) => c.id) }, path: { $ne: null } },
        { fields: ['path'] },
      )
    : [];
  const files = [file.storagePath, ...segments.map((s) => s.path as string)];
  files.push(...storedCoverPaths(cover));
  return { files, dirs: chapters.map((c) => path.posix.join(storageDirs.chapters, c.id)) };
}

/**
 * Deletes a file with everything it owns. Rows go first (covers, chapters, keys, segments, grants,
 * checkpoints and stream sessions cascade in the database), then the bytes on disk, so a failed
 * delete never leaves rows pointing at missing bytes. Users who could see the file through a grant
 * get ACCESS_REVOKED once the delete is committed, so their open players stop at once.
 */
export async function deleteFile(ctx: Ctx, fileId: string): Promise<boolean> {
  requireAdmin(ctx);
  const file = await findFile(ctx, fileId);
  const stored = await storedPathsOf(ctx, file);
  const grantees = await ctx.em.transactional(async (tx) => {
    const live = await lockLiveGrantees(tx, file.id);
    recordAudit(ctx, { action: 'file.deleted', details: { fileId: file.id, title: file.title } }, tx);
    await tx.nativeDelete(AudioFile, { id: file.id });
    return live;
  });
  for (const userId of grantees) publishSecurityEvent(ctx.deps.pubSub, userId, 'ACCESS_REVOKED', { fileId: file.id });
  // Listeners of a public file and administrators hold no grant: byte checks cached for them end too.
  ctx.deps.pubSub.publish('ACCESS_CHANGED', { userId: null, fileId: file.id });
  const dataDir = ctx.deps.config.dataDir;
  await Promise.all([
    ...stored.files.map((p) => rm(resolveStoredPath(dataDir, p), { force: true })),
    ...stored.dirs.map((p) => rm(resolveStoredPath(dataDir, p), { recursive: true, force: true })),
  ]);
  ctx.deps.logger.info('file.deleted', { fileId: file.id, removedPaths: stored.files.length + stored.dirs.length });
  return true;
}
