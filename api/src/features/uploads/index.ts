import { defineFeature } from '../../feature.js';
import { hashThread } from './hash-thread.js';
import { UploadSession } from './upload-session.entity.js';
import { UploadsResolver } from './uploads.resolver.js';
import { uploadsRoutes } from './uploads.routes.js';

export const uploadsFeature = defineFeature({
  name: 'uploads',
  entities: [UploadSession],
  resolvers: [UploadsResolver],
  events: ({ logger }) => {
    hashThread.onFailure = (err) => logger.error('uploads.hash_thread_failed', { error: String(err) });
  },
  routes: uploadsRoutes,
});
