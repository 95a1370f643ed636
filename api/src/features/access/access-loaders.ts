import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { FileAccess } from './file-access.entity.js';

/** A file's grants with their users, one query for a whole list of files. */
export function createAccessLoaders(em: EntityManager) {
  return {
    grantsByFile: new DataLoader<string, FileAccess[]>(async (fileIds) => {
      const grants = await em.find(
        FileAccess,
        { file: { $in: [...fileIds] } },
        { populate: ['user'], orderBy: { grantedAt: 'desc', id: 'asc' } },
      );
      const byFile = new Map<string, FileAccess[]>(fileIds.map((id) => [id, []]));
      for (const grant of grants) byFile.get(grant.file.id)?.push(grant);
      return fileIds.map((id) => byFile.get(id) ?? []);
    }),
  };
}

declare module '../../graphql/loaders.js' {
  interface Loaders extends ReturnType<typeof createAccessLoaders> {}
}
