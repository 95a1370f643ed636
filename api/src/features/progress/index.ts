import { defineFeature } from '../../feature.js';
import { ListeningProgress } from './listening-progress.entity.js';
import { createProgressLoaders } from './progress-loaders.js';
import { AudioFileProgressResolver, ProgressResolver } from './progress.resolver.js';
import { progressLimits } from './progress.service.js';
import { progressRoutes } from './progress.routes.js';

export const progressFeature = defineFeature({
  name: 'progress',
  entities: [ListeningProgress],
  resolvers: [ProgressResolver, AudioFileProgressResolver],
  loaders: createProgressLoaders,
  deps: progressLimits,
  routes: progressRoutes,
});
