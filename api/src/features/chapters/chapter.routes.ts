import { z } from 'zod';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { dataBody, doneBody, idParam } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { isAdmin } from '../../caller-policy.js';
import { finalizeChapters } from './chapter-finalize.js';
import { adminChapterViewSchema, chapterViewSchema, adminChapterView, chapterView } from './chapter-view.js';
import { createChaptersSchema, finalizeSchema, updateChapterSchema } from './chapter.schemas.js';
import * as chapters from './chapter.service.js';

const fileId = z.object({ id: idParam('The file id.') });
const oneChapter = fileId.extend({ chapterId: idParam('The chapter id.') });
const count = z.int().min(0);
const adminChapters = z.array(adminChapterViewSchema);

const finalizeResult = z.object({
  finalizedChapters: adminChapters,
  errors: z.array(z.object({ chapterId: z.guid(), label: z.string(), message: z.string() })),
  summary: z.object({ finalized: count, failed: count, total: count }),
  queuedChapters: count,
});

/** REST /api/v1/files/{id}/chapters: listing, editing and finalizing (a listener's HLS: playback/). */
export const chapterRoutes = routes([
  {
    operationId: 'chapterStatus',
    method: 'get',
    path: '/files/:id/chapters/status',
    tag: 'chapters',
    summary: "Counts of a file's chapters by status",
    caller: 'signedIn',
    params: fileId,
    answers: {
      200: {
        description: 'The counts.',
        json: dataBody(
          z.object({
            summary: z.object({ pending: count, finalizing: count, ready: count, failed: count, total: count }),
          }),
        ),
      },
    },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, params, res }) {
      sendData(res, { summary: await chapters.chapterSummary(ctx, params.id) });
    },
  },
  {
    operationId: 'listChapters',
    method: 'get',
    path: '/files/:id/chapters',
    tag: 'chapters',
    summary: "A file's chapters in order",
    description: 'Administrators also see where segments are kept and why finalizing failed.',
    caller: 'signedIn',
    params: fileId,
    answers: {
      200: { description: 'In order.', json: dataBody(z.array(z.union([chapterViewSchema, adminChapterViewSchema]))) },
    },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, params, res }) {
      const view = ctx.caller && isAdmin(ctx.caller.user) ? adminChapterView : chapterView;
      sendData(res, (await chapters.listChapters(ctx, params.id)).map(view));
    },
  },
  {
    operationId: 'createChapters',
    method: 'post',
    path: '/files/:id/chapters',
    tag: 'chapters',
    summary: 'Add pending chapters',
    description: "Chapters must lie within the file's duration and not overlap.",
    caller: 'admin',
    params: fileId,
    body: { required: true, json: createChaptersSchema },
    answers: { 201: { description: 'The new chapters.', json: dataBody(adminChapters, { message: z.string() }) } },
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, body, res }) {
      const created = (await chapters.createChapters(ctx, params.id, body)).map(adminChapterView);
      const message =
        created.length === 1 ? 'Chapter added successfully' : `${created.length} chapters added successfully`;
      sendData(res, created, { message }, 201);
    },
  },
  {
    operationId: 'loadSampleChapters',
    method: 'post',
    path: '/files/:id/chapters/sample',
    tag: 'chapters',
    summary: 'Add a sample set of chapters to a file that has none',
    caller: 'admin',
    params: fileId,
    answers: {
      201: {
        description: 'The new chapters, in data and as chapters.',
        json: dataBody(adminChapters, { chapters: adminChapters, message: z.string() }),
      },
    },
    errors: ['CONFLICT'],
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, res }) {
      const created = (await chapters.createSampleChapters(ctx, params.id)).map(adminChapterView);
      sendData(res, created, { chapters: created, message: `${created.length} sample chapters added` }, 201);
    },
  },
  {
    operationId: 'finalizeChapters',
    method: 'post',
    path: '/files/:id/chapters/finalize',
    tag: 'chapters',
    summary: 'Queue every pending chapter to be cut, encoded and encrypted',
    description:
      'Irreversible. Answers at once: the pending chapters turn finalizing and are encoded in the background, one job each, then turn ready, or failed with the reason (the others go on). Follow them with the chapterEvents subscription or the status route.',
    caller: 'admin',
    params: fileId,
    body: { required: false, json: finalizeSchema },
    answers: {
      200: {
        description: 'How many chapters were queued, in data and beside it.',
        json: dataBody(finalizeResult, { ...finalizeResult.shape, message: z.string() }),
      },
    },
    errors: ['CONFLICT'],
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, body, res }) {
      const result = await finalizeChapters(ctx, params.id, body);
      const shaped = { ...result, finalizedChapters: result.finalizedChapters.map(adminChapterView) };
      const message =
        result.queuedChapters === 1
          ? 'Finalizing 1 chapter in the background.'
          : `Finalizing ${result.queuedChapters} chapters in the background.`;
      sendData(res, shaped, { ...shaped, message });
    },
  },
  {
    operationId: 'updateChapter',
    method: 'put',
    path: '/files/:id/chapters/:chapterId',
    tag: 'chapters',
    summary: 'Change a chapter',
    description: "A finalized chapter's label may change, not its times (409).",
    caller: 'admin',
    params: oneChapter,
    body: { required: true, json: updateChapterSchema },
    answers: { 200: { description: 'The chapter.', json: dataBody(adminChapterViewSchema, { message: z.string() }) } },
    errors: ['CONFLICT'],
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, body, res }) {
      const chapter = await chapters.updateChapter(ctx, params.id, params.chapterId, body);
      sendData(res, adminChapterView(chapter), { message: 'Chapter updated successfully' });
    },
  },
  {
    operationId: 'deleteChapter',
    method: 'delete',
    path: '/files/:id/chapters/:chapterId',
    tag: 'chapters',
    summary: 'Delete a chapter with its key and segments',
    caller: 'admin',
    params: oneChapter,
    answers: { 200: { description: 'Deleted.', json: doneBody } },
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, res }) {
      await chapters.deleteChapter(ctx, params.id, params.chapterId);
      sendData(res, null, { message: 'Chapter deleted successfully' });
    },
  },
]);
