import type { Caller } from '../../context.js';
import { AppError } from '../../errors.js';
import { newestFirst, type Ordering, type SortKey } from '../../paging.js';

/** The orders a library list can be read in. */
export enum LibrarySort {
  RECENTLY_ADDED = 'RECENTLY_ADDED',
  TITLE = 'TITLE',
  DURATION = 'DURATION',
  RECENTLY_PLAYED = 'RECENTLY_PLAYED',
}

/** Newest first: the order of every file list that names no other. */
export const NEWEST_FILES: Ordering = { name: 'files', keys: newestFirst('audio_files') };

const ID_LAST: SortKey = { sql: 'audio_files.id', type: 'uuid', direction: 'asc' };

/**
 * The order of a library page; each ends with the id so pages never overlap. Recently played reads
 * the caller's own listening progress (one indexed row per file; files never played come last,
 * newest first).
 */
export function libraryOrder(caller: Caller, sort: string | null | undefined): Ordering {
  switch (sort ?? LibrarySort.RECENTLY_ADDED) {
    case LibrarySort.RECENTLY_ADDED:
      return NEWEST_FILES;
    case LibrarySort.TITLE:
      return {
        name: 'files:TITLE',
        keys: [
          { sql: 'lower(audio_files.title)', type: 'text', direction: 'asc' },
          { sql: 'audio_files.title', type: 'text', direction: 'asc' },
          ID_LAST,
        ],
      };
    case LibrarySort.DURATION:
      return {
        name: 'files:DURATION',
        keys: [{ sql: 'audio_files.duration', type: 'float8', direction: 'asc' }, ID_LAST],
      };
    case LibrarySort.RECENTLY_PLAYED:
      return {
        name: 'files:RECENTLY_PLAYED',
        keys: [
          {
            sql: `(select lp.updated_at from listening_progress lp
                   where lp.user_id = ? and lp.file_id = audio_files.id)`,
            params: [caller.user.id],
            type: 'timestamptz',
            direction: 'desc',
            nullable: true,
          },
          ...NEWEST_FILES.keys,
        ],
      };
    default:
      throw new AppError('BAD_USER_INPUT', `sort must be one of ${Object.values(LibrarySort).join(', ')}`, {
        field: 'sort',
      });
  }
}
