import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeviceSession } from '../features/auth/device-session.entity.js';
import { createAccessLoaders } from '../features/access/access-loaders.js';
import { createFileLoaders } from '../features/files/file-loaders.js';
import { createProgressLoaders } from '../features/progress/progress-loaders.js';
import { createRipLoaders } from '../features/rip-detection/rip-alerts.js';

/** Per-request batch loaders for computed fields, so lists cost a fixed number of queries. */
export function createLoaders(em: EntityManager) {
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
    ...createFileLoaders(em),
    ...createAccessLoaders(em),
    ...createProgressLoaders(em),
    ...createRipLoaders(em),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
