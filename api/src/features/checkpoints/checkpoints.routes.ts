import { z } from 'zod';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { dataBody, doneBody, idParam } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { createCheckpointSchema } from './checkpoints.schemas.js';
import * as checkpoints from './checkpoints.service.js';
import { checkpointViewSchema } from './checkpoints.views.js';

/** REST /api/v1/checkpoints. */
export const checkpointsRoutes = routes([
  {
    operationId: 'listCheckpoints',
    method: 'get',
    path: '/checkpoints/file/:fileId',
    tag: 'checkpoints',
    summary: 'Your checkpoints in a file you may see',
    caller: 'signedIn',
    params: z.object({ fileId: idParam('The file id.') }),
    answers: { 200: { description: 'In playing order.', json: dataBody(z.array(checkpointViewSchema)) } },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, params, res }) {
      const list = await checkpoints.listCheckpoints(ctx, params.fileId);
      sendData(res, list.map(checkpoints.checkpointView));
    },
  },
  {
    operationId: 'createCheckpoint',
    method: 'post',
    path: '/checkpoints',
    tag: 'checkpoints',
    summary: 'Bookmark a whole second of a file you may see',
    caller: 'signedIn',
    body: { required: true, json: createCheckpointSchema },
    answers: { 201: { description: 'The checkpoint.', json: dataBody(checkpointViewSchema) } },
    scopes: 'deviceOnly',
    async handle({ ctx, body, res }) {
      const checkpoint = await checkpoints.createCheckpoint(ctx, body ?? {});
      sendData(res, checkpoints.checkpointView(checkpoint), {}, 201);
    },
  },
  {
    operationId: 'deleteCheckpoint',
    method: 'delete',
    path: '/checkpoints/:id',
    tag: 'checkpoints',
    summary: 'Delete one of your own checkpoints',
    caller: 'signedIn',
    params: z.object({ id: idParam('The checkpoint id.') }),
    answers: { 200: { description: 'Deleted.', json: doneBody } },
    scopes: 'deviceOnly',
    async handle({ ctx, params, res }) {
      await checkpoints.deleteCheckpoint(ctx, params.id);
      sendData(res, null, { message: 'Checkpoint deleted' });
    },
  },
]);
