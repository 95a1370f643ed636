import type { Caller, Ctx } from '../../context.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { requireCaller, requireDeviceCaller } from '../../caller-policy.js';
import { inList } from '../../sql-condition.js';
import { parseId, parseInput } from '../../validation.js';
import { findVisibleFile, visibleFilesCondition } from '../access/visibility.js';
import { FILE_COLUMNS, toFileSummary, type FileRow, type FileSummary } from '../files/files.service.js';
import { wantToListenLimitSchema } from './collections.schemas.js';

/**
 * The caller's own "Want to listen" list, most recently added first. Files they may no longer see
 * (a revoked or expired grant) drop out through the library's own condition, and come back with a
 * new grant.
 */
export async function listWantToListen(ctx: Ctx, limit?: number): Promise<FileSummary[]> {
  const caller = requireCaller(ctx);
  const take = parseInput(wantToListenLimitSchema, limit);
  const visible = visibleFilesCondition(caller);
  const rows = await ctx.em.execute<FileRow[]>(
    `select ${FILE_COLUMNS}
     from want_to_listen w join audio_files on audio_files.id = w.file_id
     where w.user_id = ? and (${visible.sql})
     order by w.added_at desc, audio_files.id asc limit ?`,
    [caller.user.id, ...visible.params, take],
  );
  return rows.map(toFileSummary);
}

/** Puts a file the caller may see on their list; adding it again keeps its first place. */
export async function addToWantToListen(ctx: Ctx, fileId: string): Promise<FileSummary> {
  const caller = requireDeviceCaller(ctx);
  const file = await findVisibleFile(ctx.em, caller, parseId(fileId, 'fileId'));
  await ctx.em.execute(
    `insert into want_to_listen (user_id, file_id, added_at) values (?, ?, now())
     on conflict (user_id, file_id) do nothing`,
    [caller.user.id, file.id],
  );
  return file;
}

/** Takes a file off the caller's list; a file not on it is fine (the list ends the same). */
export async function removeFromWantToListen(ctx: Ctx, fileId: string): Promise<FileSummary> {
  const caller = requireDeviceCaller(ctx);
  const file = await findVisibleFile(ctx.em, caller, parseId(fileId, 'fileId'));
  await ctx.em.execute('delete from want_to_listen where user_id = ? and file_id = ?', [caller.user.id, file.id]);
  return file;
}

/** Which of these files are on the caller's list: one statement for a page of files. */
export async function readWantToListen(
  em: EntityManager,
  caller: Caller,
  fileIds: readonly string[],
): Promise<Set<string>> {
  const files = inList('file_id', fileIds);
  const rows = await em.execute<{ file_id: string }[]>(
    `select file_id from want_to_listen where user_id = ? and ${files.sql}`,
    [caller.user.id, ...files.params],
  );
  return new Set(rows.map((row) => row.file_id));
}
