import { z } from 'zod';
import { component, dataBody, doneBody, idParam, routes, timestamp } from '../../http/contract.js';
import { createCheckpointSchema } from './checkpoints.schemas.js';

/** The REST shape of a checkpoint, with the ids of the file and the owner. */
export const checkpointViewSchema = component(
  'Checkpoint',
  z
    .object({
      id: z.guid(),
      fileId: z.guid(),
      userId: z.guid(),
      timestamp: z.int().min(0).meta({ description: 'Whole seconds from the start.' }),
      name: z.string(),
      description: z.string().nullable(),
      createdAt: timestamp,
    })
    .meta({ description: 'A bookmark of yours in a file.' }),
);
export type CheckpointView = z.output<typeof checkpointViewSchema>;

/** REST /api/v1/checkpoints (checkpoints.routes.ts). */
export const checkpointsContract = routes([
  {
    operationId: 'listCheckpoints',
    method: 'get',
    path: '/checkpoints/file/:fileId',
    tag: 'checkpoints',
    summary: 'Your checkpoints in a file you may see',
    caller: 'signedIn',
    params: z.object({ fileId: idParam('The file id.') }),
    answers: { 200: { description: 'In playing order.', json: dataBody(z.array(checkpointViewSchema)) } },
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
  },
]);
