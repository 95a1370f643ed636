import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeviceSession } from './device-session.entity.js';

/** Each user's active device sessions, counted for a whole list of users in one query. */
export function createSessionLoaders(em: EntityManager) {
  return {
    activeSessionCount: new DataLoader<string, number>(async (userIds) => {
      const rows: { user_id: string; count: number }[] = await em.execute(
        `select user_id, count(*)::int as count from ${em.getMetadata(DeviceSession).tableName}
         where is_active and user_id in (${userIds.map(() => '?').join(', ')}) group by user_id`,
        [...userIds],
      );
      const counts = new Map(rows.map((r) => [r.user_id, r.count]));
      return userIds.map((id) => counts.get(id) ?? 0);
    }),
  };
}

declare module '../../graphql/loaders.js' {
  interface Loaders extends ReturnType<typeof createSessionLoaders> {}
}
