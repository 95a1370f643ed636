import type { Caller } from '../../context.js';
import { AppError } from '../../errors.js';
import type { SqlCondition } from './sql-condition.js';

/** The orders a library list can be read in. */
export enum LibrarySort {
  RECENTLY_ADDED = 'RECENTLY_ADDED',
  TITLE = 'TITLE',
  DURATION = 'DURATION',
  RECENTLY_PLAYED = 'RECENTLY_PLAYED',
}

const ID_LAST = 'audio_files.id asc';

/**
 * ORDER BY for a library page; each ends with the id so pages never overlap. Recently played reads
 * the caller's own listening progress (one indexed row per file; files never played come last,
 * newest first).
 */
export function libraryOrder(caller: Caller, sort: string | null | undefined): SqlCondition {
  switch (sort ?? LibrarySort.RECENTLY_ADDED) {
    case LibrarySort.RECENTLY_ADDED:
      return { sql: `audio_files.created_at desc, ${ID_LAST}`, params: [] };
    case LibrarySort.TITLE:
      return { sql: `lower(audio_files.title) asc, audio_files.title asc, ${ID_LAST}`, params: [] };
    case LibrarySort.DURATION:
      return { sql: `audio_files.duration asc, ${ID_LAST}`, params: [] };
    case LibrarySort.RECENTLY_PLAYED:
      return {
        sql: `(select lp.updated_at from listening_progress lp
               where lp.user_id = ? and lp.file_id = audio_files.id) desc nulls last,
              audio_files.created_at desc, ${ID_LAST}`,
        params: [caller.user.id],
      };
    default:
      throw new AppError('BAD_USER_INPUT', `sort must be one of ${Object.values(LibrarySort).join(', ')}`, {
        field: 'sort',
      });
  }
}
