import { defineFeature } from '../../feature.js';
import { createAccessLoaders } from './access-loaders.js';
import { AccessResolver, AudioFileAccessResolver, FileAccessDataResolver } from './access.resolver.js';
import { FileAccess } from './file-access.entity.js';
import { accessRoutes } from './access.routes.js';

export const accessFeature = defineFeature({
  name: 'access',
  entities: [FileAccess],
  resolvers: [AudioFileAccessResolver, AccessResolver, FileAccessDataResolver],
  loaders: createAccessLoaders,
  routes: accessRoutes,
});
