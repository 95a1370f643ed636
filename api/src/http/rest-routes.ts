import { Router } from 'express';
import { authRoutes } from '../features/auth/auth.routes.js';
import { userSessionsRoutes } from '../features/users/user-sessions.routes.js';

/** Every REST /api/v1 router; a feature adds its own here. */
export function restRoutes(): Router {
  const router = Router();
  router.use(authRoutes());
  router.use(userSessionsRoutes());
  return router;
}
