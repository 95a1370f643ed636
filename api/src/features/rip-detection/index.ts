import { defineFeature } from '../../feature.js';
import { createRipLoaders, followRipAlerts } from './rip-alerts.js';
import {
  DashboardRipAlertsResolver,
  RipAlertSubscriptionResolver,
  UserRipFlagResolver,
} from './rip-alerts.resolver.js';
import { ripDeps } from './rip-deps.js';

export const ripDetectionFeature = defineFeature({
  name: 'rip-detection',
  resolvers: [DashboardRipAlertsResolver, UserRipFlagResolver, RipAlertSubscriptionResolver],
  loaders: createRipLoaders,
  deps: ripDeps,
  events: (deps) => followRipAlerts(deps.pubSub, deps.ripMeter, deps.logger),
});
