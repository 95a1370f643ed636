import { Router } from 'express';
import { authRoutes } from '../features/auth/auth.routes.js';
import { userSessionsRoutes } from '../features/users/user-sessions.routes.js';
import { accessRoutes } from '../features/access/access.routes.js';
import { checkpointsRoutes } from '../features/checkpoints/checkpoints.routes.js';
import { dashboardRoutes } from '../features/dashboard/dashboard.routes.js';
import { filesRoutes } from '../features/files/files.routes.js';
import { usersRoutes } from '../features/users/users.routes.js';
import { openApiRoutes } from './openapi.js';
import { uploadsRoutes } from '../features/uploads/uploads.routes.js';
import { streamRoutes } from '../features/streaming/stream.routes.js';
import { chapterRoutes } from '../features/chapters/chapter.routes.js';
import { progressRoutes } from '../features/progress/progress.routes.js';
import { apiKeysRoutes } from '../features/api-keys/api-keys.routes.js';
import { apiKeyScopeGuard } from '../features/api-keys/scope-guard.js';

/** Every REST /api/v1 router; a feature adds its own here. */
export function restRoutes(): Router {
  const router = Router();
  // First: what an API key may reach is decided before any route runs.
  router.use(apiKeyScopeGuard);
  router.use(authRoutes());
  router.use(userSessionsRoutes());
  // Before filesRoutes: /admin/files/stats must not be read as /admin/files/:id.
  router.use(dashboardRoutes());
  router.use(filesRoutes());
  router.use(accessRoutes());
  router.use(checkpointsRoutes());
  router.use(usersRoutes());
  router.use(openApiRoutes());
  router.use(uploadsRoutes());
  router.use(streamRoutes());
  router.use(chapterRoutes());
  router.use(progressRoutes());
  router.use(apiKeysRoutes());
  return router;
}
