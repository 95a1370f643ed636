import { Router } from 'express';
import { sendData } from '../../http/respond.js';
import { presentFiles } from '../files/file-view.js';
import { createFileLoaders } from '../files/file-loaders.js';
import * as progress from './progress.service.js';

/** REST /api/v1/progress: thin adapters over the listening-progress service. */
export function progressRoutes(): Router {
  const router = Router();

  router.get('/progress', async (req, res) => {
    const ctx = res.locals.ctx;
    const limit = typeof req.query.limit === 'string' ? Number(req.query.limit) : undefined;
    const rows = await progress.listInProgress(ctx, limit);
    const files = await presentFiles(
      rows.map((row) => row.file),
      createFileLoaders(ctx.em),
    );
    sendData(
      res,
      files.map((file, i) => ({ ...file, progress: rows[i].progress })),
    );
  });

  router.get('/progress/:fileId', async (req, res) => {
    sendData(res, await progress.getProgress(res.locals.ctx, req.params.fileId));
  });

  router.put('/progress/:fileId', async (req, res) => {
    sendData(res, await progress.saveProgress(res.locals.ctx, req.params.fileId, req.body ?? {}));
  });

  return router;
}
