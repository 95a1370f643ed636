import { parse } from 'node:querystring';
import { z } from 'zod';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { AppError } from '../../errors.js';
import type { ByteExchange } from '../../http/byte-route.js';
import { dataBody, doneBody, idParam, timestamp, type HeaderDoc } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { isAdmin } from '../auth/auth.policy.js';
import { presenterOf } from '../streaming/stream.routes.js';
import { queryInteger, queryString } from '../playback/url-signing.js';
import { finalizeChapters } from './chapter-finalize.js';
import {
  chapterKey,
  chapterPlaylist,
  chapterSegment,
  createChapterStreamUrl,
  type PlaybackGrant,
} from '../playback/chapter-playback.js';
import { chapterStreamUrlSchema } from '../playback/stream.schemas.js';
import { adminChapterViewSchema, chapterViewSchema, adminChapterView, chapterView } from './chapter-view.js';
import { createChaptersSchema, finalizeSchema, updateChapterSchema } from './chapter.schemas.js';
import * as chapters from './chapter.service.js';

function grantFrom(query: Record<string, unknown>): PlaybackGrant {
  return {
    sid: queryString(query.sid),
    st: queryInteger(query.st),
    exp: queryInteger(query.exp),
    sig: queryString(query.sig),
  };
}

/** Segments never change: any cache may keep them. Keys and signed playlists: nobody may. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NEVER_STORE = 'no-store';

function neverStore(exchange: ByteExchange): void {
  exchange.setHeader('Cache-Control', NEVER_STORE);
  exchange.setHeader('Pragma', 'no-cache');
}

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

/**
 * REST /api/v1/files/{id}/chapters and the chapter HLS routes under /api/v1/chapters: the playlist
 * and key served ahead of Express (http/byte-server.ts) as the stream bytes are, the segments by
 * Express.
 */
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
        json: dataBody(z.object({ summary: z.object({ pending: count, ready: count, failed: count, total: count }) })),
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
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, body, res }) {
      const result = await finalizeChapters(ctx, params.id, body);
      const shaped = { ...result, finalizedChapters: result.finalizedChapters.map(adminChapterView) };
      const message =
        result.errors.length === 0
          ? `Successfully finalized ${result.summary.finalized} chapters!`
          : `Finalized ${result.summary.finalized} chapters with ${result.errors.length} errors.`;
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
    scopes: 'deviceOnly',
    async handle({ ctx, params, body, res }) {
      const result = await createChapterStreamUrl(ctx, params.id, params.chapterId, body);
      sendData(res, result, { streamUrl: result.streamUrl });
    },
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
    // Served ahead of Express (http/byte-server.ts) as the stream bytes are.
    scopes: 'deviceOnly',
    credential: 'url',
    async serve(ctx, exchange, chapterId, query) {
      const playlist = await chapterPlaylist(ctx, presenterOf(ctx, exchange.req), chapterId, grantFrom(parse(query)));
      neverStore(exchange);
      exchange.send(200, 'application/vnd.apple.mpegurl; charset=utf-8', playlist);
    },
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
    scopes: 'deviceOnly',
    credential: 'url',
    async serve(ctx, exchange, chapterId, query) {
      neverStore(exchange);
      const key = await chapterKey(ctx, presenterOf(ctx, exchange.req), chapterId, grantFrom(parse(query))).catch(
        (err: unknown) => {
          const wait = err instanceof AppError ? err.details?.retryAfterSeconds : undefined;
          if (typeof wait === 'number') exchange.setHeader('Retry-After', String(wait));
          throw err;
        },
      );
      exchange.send(200, 'application/octet-stream', key);
    },
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
    scopes: 'deviceOnly',
    async handle({ ctx, params, res }) {
      const match = /^(\d{1,6})\.ts$/.exec(params.segment);
      const index = match ? Number(match[1]) : -1;
      const bytes = await chapterSegment(ctx, params.chapterId, params.token, index);
      res.setHeader('Cache-Control', IMMUTABLE);
      res.type('video/mp2t');
      if (bytes.kind === 'data') {
        res.send(bytes.data);
      } else {
        res.sendFile(bytes.path, { cacheControl: false, lastModified: false, etag: false });
      }
    },
  },
]);
