import { defineFeature } from '../../feature.js';
import { AudioFile } from './audio-file.entity.js';
import { Cover } from './cover.entity.js';
import { createFileLoaders } from './file-loaders.js';
import { AdminFilesResolver, AudioFileFieldsResolver, LibraryResolver } from './files.resolver.js';
import { filesRoutes } from './files.routes.js';

export const filesFeature = defineFeature({
  name: 'files',
  entities: [AudioFile, Cover],
  resolvers: [LibraryResolver, AdminFilesResolver, AudioFileFieldsResolver],
  loaders: createFileLoaders,
  routes: filesRoutes,
});
