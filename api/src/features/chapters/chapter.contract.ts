import { z } from 'zod';
import { dataBody, doneBody, idParam, routes, timestamp, type HeaderDoc } from '../../http/contract.js';
import { chapterStreamUrlSchema } from '../playback/stream.schemas.js';
import { adminChapterViewSchema, chapterViewSchema } from './chapter-view.js';
import { createChaptersSchema, finalizeSchema, updateChapterSchema } from './chapter.schemas.js';

const fileId = z.object({ id: idParam('The file id.') });
const oneChapter = fileId.extend({ chapterId: idParam('The chapter id.') });
const chapterId = z.object({ chapterId: idParam('The chapter id.') });
const count = z.int().min(0);
const adminChapters = z.array(adminChapterViewSchema);

/** `?sid&st&exp&sig` of a chapter playlist or key URL, as chapterStreamUrl writes it; clients use it as given. */
const grantQuery = z.object({
  sid: idParam('The device session the URL was issued to.'),
  st: z.int().meta({ description: 'When that session began (ms since the epoch).' }),
  exp: z.int().meta({ description: 'Expiry (ms since the epoch).' }),
  sig: z.string().meta({ description: 'The server signature of the above.' }),
});
const noStore: Record<string, HeaderDoc> = {
  'Cache-Control': { description: 'no-store: signed per session, never cached.', schema: z.string() },
};
const finalizeResult = z.object({
  finalizedChapters: adminChapters,
  errors: z.array(z.object({ chapterId: z.guid(), label: z.string(), message: z.string() })),
  summary: z.object({ finalized: count, failed: count, total: count }),
});

/** REST /api/v1/files/{id}/chapters and the chapter HLS routes under /api/v1/chapters (chapter.routes.ts). */
export const chapterContract = routes([
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
        json: dataBody(z.object({ summary: z.object({ pending: count, ready: count, failed: count, total: count }) })),
      },
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
  },
  {
    operationId: 'finalizeChapters',
    method: 'post',
    path: '/files/:id/chapters/finalize',
    tag: 'chapters',
    summary: 'Cut, encode and encrypt every pending chapter',
    description: 'Irreversible. A chapter that fails is marked failed with the reason and the others go on.',
    caller: 'admin',
    params: fileId,
    body: { required: false, json: finalizeSchema },
    answers: {
      200: {
        description: 'What was finalized and what failed, in data and beside it.',
        json: dataBody(finalizeResult, { ...finalizeResult.shape, message: z.string() }),
      },
    },
    errors: ['CONFLICT'],
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
  },
  {
    operationId: 'chapterStreamUrl',
    method: 'post',
    path: '/files/:id/chapters/:chapterId/stream-url',
    tag: 'chapters',
    summary: 'A signed HLS playlist URL for a ready chapter',
    description: 'Bound to your device session; the key it leads to is served to that session only.',
    caller: 'signedIn',
    params: oneChapter,
    body: { required: false, json: chapterStreamUrlSchema },
    answers: {
      200: {
        description: 'The URL, in data and beside it.',
        json: dataBody(z.object({ streamUrl: z.string(), expiresAt: timestamp }), { streamUrl: z.string() }),
      },
    },
    errors: ['CONFLICT'],
  },
  {
    operationId: 'chapterPlaylist',
    method: 'get',
    path: '/chapters/:chapterId/playlist.m3u8',
    tag: 'chapters',
    summary: 'The AES-128 HLS playlist of a chapter',
    description:
      'Only to the signed-in device session the URL was issued to (Authorization and X-Device-ID), re-checked at every fetch; its key URL carries the same grant, and its segment URLs name the session.',
    caller: 'url',
    params: chapterId,
    query: grantQuery,
    answers: { 200: { description: 'The playlist.', bytes: 'application/vnd.apple.mpegurl', headers: noStore } },
    errors: ['CONFLICT'],
  },
  {
    operationId: 'chapterKey',
    method: 'get',
    path: '/chapters/:chapterId/key',
    tag: 'chapters',
    summary: "A chapter's AES-128 key",
    description:
      'Only to the signed-in device session the URL was issued to (Authorization and X-Device-ID), and only while it may still see the file.',
    caller: 'url',
    params: chapterId,
    query: grantQuery,
    answers: { 200: { description: 'The 16-byte key.', bytes: 'application/octet-stream', headers: noStore } },
    errors: ['CONFLICT'],
  },
  {
    operationId: 'chapterSegment',
    method: 'get',
    path: '/chapters/:chapterId/segments/:token/:segment',
    tag: 'chapters',
    summary: 'One encrypted segment',
    description:
      'Immutable and useless without the key: any cache may keep it. Its URL comes from the playlist and names the session it was listed for, whose account rip detection counts it for.',
    caller: 'url',
    params: chapterId.extend({
      token: z.string().meta({ description: 'The segment folder token of the playlist, signed for its session.' }),
      segment: z.string().meta({ description: 'The segment index and .ts, e.g. 0.ts.' }),
    }),
    answers: {
      200: {
        description: 'The encrypted MPEG-TS segment.',
        bytes: 'video/mp2t',
        headers: { 'Cache-Control': { description: 'public, max-age=31536000, immutable', schema: z.string() } },
      },
    },
  },
]);
