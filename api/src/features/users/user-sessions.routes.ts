import { Router } from 'express';
import { sendData } from '../../http/respond.js';
import { deviceView } from '../auth/device-view.js';
import { userView } from './user-view.js';
import * as sessions from './user-sessions.service.js';

/** REST /api/v1/admin/users/:id/{sessions,unlock}. */
export function userSessionsRoutes(): Router {
  const router = Router();

  router.get('/admin/users/:id/sessions', async (req, res) => {
    const list = await sessions.listUserSessions(res.locals.ctx, req.params.id);
    sendData(
      res,
      list.map((s) => deviceView(s)),
    );
  });

  router.delete('/admin/users/:id/sessions/:sessionId', async (req, res) => {
    await sessions.terminateUserSession(res.locals.ctx, req.params.id, req.params.sessionId);
    sendData(res, null, { message: 'Session terminated successfully' });
  });

  router.patch('/admin/users/:id/unlock', async (req, res) => {
    const user = await sessions.unlockUser(res.locals.ctx, req.params.id);
    sendData(res, userView(user), { message: `User ${user.email} has been unlocked successfully` });
  });

  return router;
}
