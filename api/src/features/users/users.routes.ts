import { Router, type Request } from 'express';
import { createLoaders } from '../../graphql/loaders.js';
import { sendData } from '../../http/respond.js';
import { isAdmin } from '../auth/auth.policy.js';
import { listUsers, type UserSummary } from './user-list.js';
import * as users from './users.service.js';

/** The REST shape of a user: explicit fields, so nothing hidden can slip out. */
function userView(u: UserSummary, sessionCount?: number) {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    isAdmin: isAdmin(u),
    isLocked: u.isLocked,
    lockUntil: u.lockUntil ?? null,
    avatarUrl: u.avatarUrl ?? null,
    createdAt: u.createdAt,
    ...(sessionCount === undefined ? {} : { sessionCount, hasMultipleSessions: sessionCount > 1 }),
  };
}

function listQuery(req: Request) {
  const text = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined);
  const int = (name: string) => (text(name) === undefined ? undefined : Number(text(name)));
  return { search: text('search'), offset: int('offset'), limit: int('limit') ?? 100 };
}

/** REST /api/v1/admin/users: thin adapters over the user service. */
export function usersRoutes(): Router {
  const router = Router();

  router.get('/admin/users/count', async (_req, res) => {
    const count = await users.userCount(res.locals.ctx);
    sendData(res, { count }, { count });
  });

  router.get('/admin/users/with-sessions', async (req, res) => {
    const ctx = res.locals.ctx;
    const page = await listUsers(ctx, listQuery(req));
    const loaders = createLoaders(ctx.em);
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
