import { defineFeature } from '../../feature.js';
import { DashboardResolver } from './dashboard.resolver.js';

export const dashboardFeature = defineFeature({
  name: 'dashboard',
  resolvers: [DashboardResolver],
});
