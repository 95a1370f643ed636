import { Router } from 'express';
import { sendData } from '../../http/respond.js';
import { createFileLoaders } from '../files/file-loaders.js';
import { presentFile } from '../files/file-view.js';
import type { UserSummary } from '../users/user-list.js';
import type { GrantBody } from './access.contract.js';
import * as access from './access.service.js';
import { everyUserByName, fileAccessList } from './grant-list.js';

const userSummary = (u: Pick<UserSummary, 'id' | 'name' | 'email'>) => ({ id: u.id, name: u.name, email: u.email });

function grantBody(grant: access.GrantView): GrantBody {
  return { ...grant, user: userSummary(grant.user) };
}

/** REST /api/v1/admin/file-access: thin adapters over the access service. */
export function accessRoutes(): Router {
  const router = Router();

  router.get('/admin/file-access/file/:fileId', async (req, res) => {
    const ctx = res.locals.ctx;
    const list = await fileAccessList(ctx, req.params.fileId);
    const [file, allUsers] = await Promise.all([
      presentFile(list.file, createFileLoaders(ctx.em)),
      everyUserByName(ctx),
    ]);
    sendData(res, {
      file: { ...file, fileAccesses: list.grants.map(grantBody) },
      allUsers: allUsers.map((u) => ({ ...userSummary(u), role: u.role })),
    });
  });

  router.post('/admin/file-access', async (req, res) => {
    const grant = await access.grantAccess(res.locals.ctx, req.body ?? {});
    sendData(res, grantBody(grant), { message: 'Access granted successfully' }, 201);
  });

  router.delete('/admin/file-access/:id', async (req, res) => {
    const grant = await access.revokeAccess(res.locals.ctx, req.params.id);
    sendData(res, grantBody(grant), { message: 'Access revoked successfully' });
  });

  return router;
}
