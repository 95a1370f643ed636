import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../context.js';
import { inList } from '../../sql-condition.js';
import { visibleFilesCondition } from '../access/visibility.js';
import { FILE_COLUMNS, toFileSummary, type FileRow, type FileSummary } from '../files/files.service.js';

/**
 * The files of each collection that the caller may see, in the collection's order: one statement
 * for any number of collections. Files out of the caller's view are not listed, so a collection
 * never reveals a title, a count or an id the library would not.
 */
export async function readCollectionFiles(
  em: EntityManager,
  caller: Caller,
  collectionIds: readonly string[],
): Promise<Map<string, FileSummary[]>> {
  const visible = visibleFilesCondition(caller);
  const collections = inList('ci.collection_id', collectionIds);
  const rows = await em.execute<(FileRow & { collection_id: string })[]>(
    `select ci.collection_id, ${FILE_COLUMNS}
     from collection_items ci join audio_files on audio_files.id = ci.file_id
     where ${collections.sql} and (${visible.sql})
     order by ci.collection_id, ci.position, ci.added_at, audio_files.id`,
    [...collections.params, ...visible.params],
  );
  const byCollection = new Map<string, FileSummary[]>(collectionIds.map((id) => [id, []]));
  for (const row of rows) byCollection.get(row.collection_id)?.push(toFileSummary(row));
  return byCollection;
}
