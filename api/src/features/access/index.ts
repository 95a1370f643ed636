import { defineFeature } from '../../feature.js';
import { accessFactsCaches } from './access-facts-cache.js';
import { createAccessLoaders } from './access-loaders.js';
import { AccessResolver, AudioFileAccessResolver, FileAccessDataResolver } from './access.resolver.js';
import { FileAccess } from './file-access.entity.js';

export const accessFeature = defineFeature({
  name: 'access',
  entities: [FileAccess],
  resolvers: [AudioFileAccessResolver, AccessResolver, FileAccessDataResolver],
  loaders: createAccessLoaders,
  // Its event bus replaces the app's: an access change empties this replica's caches at once.
  deps: ({ pubSub, logger }) => accessFactsCaches(pubSub, logger),
});
