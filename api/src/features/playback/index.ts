import { defineFeature } from '../../feature.js';
import { accessFactsCaches } from './access-facts-cache.js';
import { chapterPlaybackRoutes } from './chapter-playback.routes.js';
import { clearStreamProof } from './stream-proof.js';
import { StreamSession } from './stream-session.entity.js';
import { streamRoutes } from './stream.routes.js';
import { StreamResolver } from './stream.resolver.js';

export const playbackFeature = defineFeature({
  name: 'playback',
  entities: [StreamSession],
  resolvers: [StreamResolver],
  // Its event bus replaces the app's: an access change empties this replica's caches at once.
  deps: ({ pubSub, logger }) => accessFactsCaches(pubSub, logger),
  // Sign-out takes back the stream proof cookie with the session.
  signOut: clearStreamProof,
  routes: [...chapterPlaybackRoutes, ...streamRoutes],
});
