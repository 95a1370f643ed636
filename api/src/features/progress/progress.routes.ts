import { z } from 'zod';
import type { Ctx } from '../../context.js';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { component, dataBody, idParam, timestamp } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { createFileLoaders } from '../files/file-loaders.js';
import { fileViewSchema, presentFiles } from '../files/file-view.js';
import { markFinishedSchema, progressListLimitSchema, saveProgressSchema } from './progress.schemas.js';
import * as progress from './progress.service.js';

export const progressViewSchema = component(
  'ListeningProgress',
  z
    .object({
      fileId: z.guid(),
      position: z.number().min(0).meta({ description: "Seconds from the start, within the file's duration." }),
      finished: z.boolean().meta({ description: 'True once played to the end (or to within a few seconds of it).' }),
      finishedAt: timestamp.nullable().meta({ description: 'When it became finished; null while it is not finished.' }),
      updatedAt: timestamp,
    })
    .meta({ description: 'Where you are in a file.' }),
);

const fileWithProgressSchema = fileViewSchema.extend({ progress: progressViewSchema });

const fileId = z.object({ fileId: idParam('The file id.') });

const limitOf = (value: unknown) => (typeof value === 'string' ? Number(value) : undefined);

/** A progress shelf as REST shows it: each file as the library shows it, with the caller's progress. */
async function presentWithProgress(ctx: Ctx, rows: progress.InProgressFile[]) {
  const files = await presentFiles(
    rows.map((row) => row.file),
    createFileLoaders(ctx.em),
  );
  return files.map((file, i) => ({ ...file, progress: rows[i].progress }));
}

/** REST /api/v1/progress. */
export const progressRoutes = routes([
  {
    operationId: 'continueListening',
    method: 'get',
    path: '/progress',
    tag: 'progress',
    summary: 'Continue listening',
    description:
      'Files you started and have not finished, most recently played first; files you may no longer see drop out.',
    caller: 'signedIn',
    query: z.object({ limit: progressListLimitSchema }),
    answers: {
      200: {
        description: 'Each file with your progress in it.',
        json: dataBody(z.array(fileWithProgressSchema)),
      },
    },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, req, res }) {
      sendData(res, await presentWithProgress(ctx, await progress.listInProgress(ctx, limitOf(req.query.limit))));
    },
  },
  {
    operationId: 'finishedBooks',
    method: 'get',
    path: '/progress/finished',
    tag: 'progress',
    summary: 'Finished',
    description: 'Files you have finished, most recently finished first; files you may no longer see drop out.',
    caller: 'signedIn',
    query: z.object({ limit: progressListLimitSchema }),
    answers: {
      200: { description: 'Each file with your progress in it.', json: dataBody(z.array(fileWithProgressSchema)) },
    },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, req, res }) {
      sendData(res, await presentWithProgress(ctx, await progress.listFinished(ctx, limitOf(req.query.limit))));
    },
  },
  {
    operationId: 'getProgress',
    method: 'get',
    path: '/progress/:fileId',
    tag: 'progress',
    summary: 'Your position in a file you may see',
    caller: 'signedIn',
    params: fileId,
    answers: {
      200: { description: 'Null when you have not played it.', json: dataBody(progressViewSchema.nullable()) },
    },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, params, res }) {
      sendData(res, await progress.getProgress(ctx, params.fileId));
    },
  },
  {
    operationId: 'saveProgress',
    method: 'put',
    path: '/progress/:fileId',
    tag: 'progress',
    summary: 'Store your position in a file you may see',
    description:
      "At most 4 saves a second per device session (429 beyond); the position is clamped to the file's duration.",
    caller: 'signedIn',
    params: fileId,
    body: { required: true, json: saveProgressSchema },
    answers: { 200: { description: 'The stored position.', json: dataBody(progressViewSchema) } },
    scopes: 'deviceOnly',
    async handle({ ctx, params, body, res }) {
      sendData(res, await progress.saveProgress(ctx, params.fileId, body ?? {}));
    },
  },
  {
    operationId: 'markFinished',
    method: 'put',
    path: '/progress/:fileId/finished',
    tag: 'progress',
    summary: 'Mark a file you may see finished or not finished',
    description:
      'Finished moves your position to the end; not finished moves it back to the start. Shares the save limit of PUT /progress/{fileId}.',
    caller: 'signedIn',
    params: fileId,
    body: { required: true, json: markFinishedSchema },
    answers: { 200: { description: 'The stored progress.', json: dataBody(progressViewSchema) } },
    scopes: 'deviceOnly',
    async handle({ ctx, params, body, res }) {
      sendData(res, await progress.markFinished(ctx, params.fileId, body ?? {}));
    },
  },
]);
