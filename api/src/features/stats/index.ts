import { defineFeature } from '../../feature.js';
import { ListeningHour } from './listening-hour.entity.js';
import { StatsResolver } from './stats.resolver.js';
import { statsRoutes } from './stats.routes.js';

export const statsFeature = defineFeature({
  name: 'stats',
  entities: [ListeningHour],
  resolvers: [StatsResolver],
  routes: statsRoutes,
});
