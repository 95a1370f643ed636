import { Router } from 'express';
import { sendData } from '../../http/respond.js';
import * as apiKeys from './api-keys.service.js';

/** REST /api/v1/admin/api-keys: thin adapters over the API key service. */
export function apiKeysRoutes(): Router {
  const router = Router();

  router.get('/admin/api-keys', async (_req, res) => {
    sendData(res, await apiKeys.listApiKeys(res.locals.ctx));
  });

  router.post('/admin/api-keys', async (req, res) => {
    const created = await apiKeys.createApiKey(res.locals.ctx, req.body ?? {});
    sendData(
      res,
      created.apiKey,
      { secret: created.secret, message: 'API key created: copy its secret now, it is not shown again' },
      201,
    );
  });

  router.delete('/admin/api-keys/:id', async (req, res) => {
    sendData(res, await apiKeys.revokeApiKey(res.locals.ctx, req.params.id), { message: 'API key revoked' });
  });

  return router;
}
