import { defineFeature } from '../../feature.js';
import { apiKeyLimits } from './api-key-rate-limit.js';
import { ApiKey } from './api-key.entity.js';
import { ApiKeysResolver } from './api-keys.resolver.js';
import { apiKeysRoutes } from './api-keys.routes.js';

export const apiKeysFeature = defineFeature({
  name: 'api-keys',
  entities: [ApiKey],
  resolvers: [ApiKeysResolver],
  deps: ({ counters }) => apiKeyLimits(counters),
  routes: apiKeysRoutes,
});
