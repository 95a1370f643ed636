import { defineFeature } from '../../feature.js';
import { DashboardResolver } from './dashboard.resolver.js';
import { dashboardRoutes } from './dashboard.routes.js';

export const dashboardFeature = defineFeature({
  name: 'dashboard',
  resolvers: [DashboardResolver],
  routes: dashboardRoutes,
});
