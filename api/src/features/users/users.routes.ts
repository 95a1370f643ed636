import { Router } from 'express';
import { readListQuery } from '../../http/list-query.js';
import { sendData } from '../../http/respond.js';
import { createSessionLoaders } from '../auth/session-loaders.js';
import { listUsers } from './user-list.js';
import { userView } from './user-view.js';
import * as users from './users.service.js';

/** REST /api/v1/admin/users: thin adapters over the user service. */
export function usersRoutes(): Router {
  const router = Router();

  router.get('/admin/users/count', async (_req, res) => {
    const count = await users.userCount(res.locals.ctx);
    sendData(res, { count }, { count });
  });

  router.get('/admin/users/with-sessions', async (req, res) => {
    const ctx = res.locals.ctx;
    const { search, offset, limit } = readListQuery(req);
    const page = await listUsers(ctx, { search, offset, limit });
    const loaders = createSessionLoaders(ctx.em);
    const counts = await Promise.all(page.items.map((u) => loaders.activeSessionCount.load(u.id)));
    sendData(
      res,
      page.items.map((u, i) => userView(u, counts[i])),
      { total: page.total },
    );
  });

  router.post('/admin/users', async (req, res) => {
    const user = await users.createUser(res.locals.ctx, req.body ?? {});
    sendData(res, userView(user, 0), { message: 'User created successfully!' }, 201);
  });

  router.get('/admin/users/:id', async (req, res) => {
    sendData(res, userView(await users.getUser(res.locals.ctx, req.params.id)));
  });

  router.put('/admin/users/:id', async (req, res) => {
    const user = await users.updateUser(res.locals.ctx, req.params.id, req.body ?? {});
    sendData(res, userView(user), { message: 'User updated successfully!' });
  });

  router.delete('/admin/users/:id', async (req, res) => {
    const user = await users.deleteUser(res.locals.ctx, req.params.id);
    sendData(res, null, { message: `User ${user.email} has been deleted successfully` });
  });

  return router;
}
