import { accessRoutes } from '../features/access/access.routes.js';
import { apiKeysRoutes } from '../features/api-keys/api-keys.routes.js';
import { authRoutes } from '../features/auth/auth.routes.js';
import { chapterRoutes } from '../features/chapters/chapter.routes.js';
import { checkpointsRoutes } from '../features/checkpoints/checkpoints.routes.js';
import { dashboardRoutes } from '../features/dashboard/dashboard.routes.js';
import { filesRoutes } from '../features/files/files.routes.js';
import { chapterPlaybackRoutes } from '../features/playback/chapter-playback.routes.js';
import { streamRoutes } from '../features/playback/stream.routes.js';
import { progressRoutes } from '../features/progress/progress.routes.js';
import { uploadsRoutes } from '../features/uploads/uploads.routes.js';
import { usersRoutes } from '../features/users/users.routes.js';
import { openApiRoute } from '../http/openapi.js';
import type { Route } from '../http/route.js';

/**
 * Every REST /api/v1 route, in the OpenAPI document's order: the Express router, the byte server,
 * the API-key scope guard and the document are all made from this one list (until each feature's
 * manifest carries its own).
 */
export const apiRoutes: readonly Route[] = [
  ...authRoutes,
  ...filesRoutes,
  ...chapterRoutes,
  ...chapterPlaybackRoutes,
  ...streamRoutes,
  ...checkpointsRoutes,
  ...progressRoutes,
  ...uploadsRoutes,
  ...dashboardRoutes,
  ...usersRoutes,
  ...accessRoutes,
  ...apiKeysRoutes,
  openApiRoute(() => apiRoutes),
];
