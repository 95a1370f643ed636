import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../context.js';
import type { FileSummary } from '../files/files.service.js';
import { readCollectionFiles } from './collection-files.js';
import { readWantToListen } from './want-to-listen.service.js';

function callerLoaders(em: EntityManager, caller: Caller) {
  return {
    /** The files of a collection the caller may see, in order. */
    filesByCollection: new DataLoader<string, FileSummary[]>(async (ids) => {
      const found = await readCollectionFiles(em, caller, ids);
      return ids.map((id) => found.get(id) ?? []);
    }),
    /** Whether a file is on the caller's own "Want to listen" list. */
    wantToListenByFile: new DataLoader<string, boolean>(async (fileIds) => {
      const listed = await readWantToListen(em, caller, fileIds);
      return fileIds.map((id) => listed.has(id));
    }),
  };
}

/**
 * Collections and "Want to listen" for a list of rows: one statement per page, not one per row.
 * Both answers depend on who asks, so the loaders are made per caller (a request has one).
 */
export function createCollectionLoaders(em: EntityManager) {
  const made = new Map<string, ReturnType<typeof callerLoaders>>();
  return {
    collectionsFor(caller: Caller): ReturnType<typeof callerLoaders> {
      let loaders = made.get(caller.user.id);
      if (!loaders) made.set(caller.user.id, (loaders = callerLoaders(em, caller)));
      return loaders;
    },
  };
}

declare module '../../graphql/loaders.js' {
  interface Loaders extends ReturnType<typeof createCollectionLoaders> {}
}
