import { defineFeature } from '../../feature.js';
import { followAccountUnlocks } from './account-unlocked.js';
import { AuthResolver, DeviceSessionResolver, UserFieldsResolver } from './auth.resolver.js';
import { DeviceSession } from './device-session.entity.js';
import { authLimits } from './rate-limiter.js';
import { createSessionLoaders } from './session-loaders.js';
import { authRoutes } from './auth.routes.js';

export const authFeature = defineFeature({
  name: 'auth',
  entities: [DeviceSession],
  resolvers: [AuthResolver, DeviceSessionResolver, UserFieldsResolver],
  loaders: createSessionLoaders,
  deps: ({ config, counters }) => authLimits(config, counters),
  events: (deps) => followAccountUnlocks(deps.pubSub, deps, deps.logger),
  routes: authRoutes,
});
