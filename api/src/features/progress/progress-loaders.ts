import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { inList } from '../../sql-condition.js';
import { toProgress, type ProgressRow } from './progress.service.js';
import type { ListeningProgress } from './progress.types.js';

interface ProgressKey {
  userId: string;
  fileId: string;
}

/** A user's listening progress in each file of a list: one statement per page, not one per row. */
export function createProgressLoaders(em: EntityManager) {
  return {
    progressByUserFile: new DataLoader<ProgressKey, ListeningProgress | null, string>(
      async (keys) => {
        // One request has one caller, so a batch holds a single user's keys.
        const byUser = new Map<string, string[]>();
        for (const { userId, fileId } of keys) byUser.set(userId, [...(byUser.get(userId) ?? []), fileId]);
        const found = new Map<string, ListeningProgress>();
        for (const [userId, fileIds] of byUser) {
          const files = inList('file_id', fileIds);
          const rows = await em.execute<ProgressRow[]>(
            `select file_id, position, finished, finished_at, updated_at from listening_progress where user_id = ? and ${files.sql}`,
            [userId, ...files.params],
          );
          for (const row of rows) found.set(`${userId}:${row.file_id}`, toProgress(row));
        }
        return keys.map((k) => found.get(`${k.userId}:${k.fileId}`) ?? null);
      },
      { cacheKeyFn: (k) => `${k.userId}:${k.fileId}` },
    ),
  };
}

declare module '../../graphql/loaders.js' {
  interface Loaders extends ReturnType<typeof createProgressLoaders> {}
}
