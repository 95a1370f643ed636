import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeviceSession } from '../features/auth/device-session.entity.js';

/** Per-request batch loaders for computed fields, so lists cost a fixed number of queries. */
export function createLoaders(em: EntityManager) {
  return {
    activeSessionCount: new DataLoader<string, number>(async (userIds) => {
      const rows: { user: string; count: string }[] = await em
        .createQueryBuilder(DeviceSession, 's')
        .select(['s.user', 'count(*) as count'])
        .where({ user: { $in: [...userIds] }, isActive: true })
        .groupBy('s.user')
        .execute('all', false);
      const counts = new Map(rows.map((r) => [r.user, Number(r.count)]));
      return userIds.map((id) => counts.get(id) ?? 0);
    }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
