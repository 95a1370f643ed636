import { defineFeature } from '../../feature.js';
import { StreamSession } from './stream-session.entity.js';
import { StreamResolver } from './stream.resolver.js';

export const streamingFeature = defineFeature({
  name: 'streaming',
  entities: [StreamSession],
  resolvers: [StreamResolver],
});
