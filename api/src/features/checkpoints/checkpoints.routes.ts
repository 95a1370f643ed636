import { Router } from 'express';
import { sendData } from '../../http/respond.js';
import * as checkpoints from './checkpoints.service.js';

/** REST /api/v1/checkpoints: thin adapters over the checkpoint service. */
export function checkpointsRoutes(): Router {
  const router = Router();

  router.get('/checkpoints/file/:fileId', async (req, res) => {
    const list = await checkpoints.listCheckpoints(res.locals.ctx, req.params.fileId);
    sendData(res, list.map(checkpoints.checkpointView));
  });

  router.post('/checkpoints', async (req, res) => {
    const checkpoint = await checkpoints.createCheckpoint(res.locals.ctx, req.body ?? {});
    sendData(res, checkpoints.checkpointView(checkpoint), {}, 201);
  });

  router.delete('/checkpoints/:id', async (req, res) => {
    await checkpoints.deleteCheckpoint(res.locals.ctx, req.params.id);
    sendData(res, null, { message: 'Checkpoint deleted' });
  });

  return router;
}
