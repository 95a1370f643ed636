import { parse } from 'node:querystring';
import { Router } from 'express';
import { AppError } from '../../errors.js';
import type { ByteExchange, ByteRoute } from '../../http/byte-route.js';
import { sendData } from '../../http/respond.js';
import { isAdmin } from '../auth/auth.policy.js';
import { presenterOf } from '../streaming/stream.routes.js';
import { queryInteger, queryString } from '../playback/url-signing.js';
import { finalizeChapters } from './chapter-finalize.js';
import { adminChapterView, chapterView } from './chapter-view.js';
import {
  chapterKey,
  chapterPlaylist,
  chapterSegment,
  createChapterStreamUrl,
  type PlaybackGrant,
} from '../playback/chapter-playback.js';
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

function noStore(exchange: ByteExchange): void {
  exchange.setHeader('Cache-Control', NEVER_STORE);
  exchange.setHeader('Pragma', 'no-cache');
}

/** REST /api/v1/files/:id/chapters and the chapters' segments (playlist and key: chapterByteRoutes). */
export function chapterRoutes(): Router {
  const router = Router();

  router.get('/files/:id/chapters/status', async (req, res) => {
    sendData(res, { summary: await chapters.chapterSummary(res.locals.ctx, req.params.id) });
  });

  router.get('/files/:id/chapters', async (req, res) => {
    const ctx = res.locals.ctx;
    const view = ctx.caller && isAdmin(ctx.caller.user) ? adminChapterView : chapterView;
    sendData(res, (await chapters.listChapters(ctx, req.params.id)).map(view));
  });

  router.post('/files/:id/chapters', async (req, res) => {
    const created = (await chapters.createChapters(res.locals.ctx, req.params.id, req.body)).map(adminChapterView);
    const message =
      created.length === 1 ? 'Chapter added successfully' : `${created.length} chapters added successfully`;
    sendData(res, created, { message }, 201);
  });

  router.post('/files/:id/chapters/sample', async (req, res) => {
    const created = (await chapters.createSampleChapters(res.locals.ctx, req.params.id)).map(adminChapterView);
    sendData(res, created, { chapters: created, message: `${created.length} sample chapters added` }, 201);
  });

  router.post('/files/:id/chapters/finalize', async (req, res) => {
    const result = await finalizeChapters(res.locals.ctx, req.params.id, req.body);
    const shaped = { ...result, finalizedChapters: result.finalizedChapters.map(adminChapterView) };
    const message =
      result.errors.length === 0
        ? `Successfully finalized ${result.summary.finalized} chapters!`
        : `Finalized ${result.summary.finalized} chapters with ${result.errors.length} errors.`;
    sendData(res, shaped, { ...shaped, message });
  });

  router.put('/files/:id/chapters/:chapterId', async (req, res) => {
    const chapter = await chapters.updateChapter(res.locals.ctx, req.params.id, req.params.chapterId, req.body);
    sendData(res, adminChapterView(chapter), { message: 'Chapter updated successfully' });
  });

  router.delete('/files/:id/chapters/:chapterId', async (req, res) => {
    await chapters.deleteChapter(res.locals.ctx, req.params.id, req.params.chapterId);
    sendData(res, null, { message: 'Chapter deleted successfully' });
  });

  router.post('/files/:id/chapters/:chapterId/stream-url', async (req, res) => {
    const result = await createChapterStreamUrl(res.locals.ctx, req.params.id, req.params.chapterId, req.body);
    sendData(res, result, { streamUrl: result.streamUrl });
  });

  router.get('/chapters/:chapterId/segments/:token/:segment', async (req, res) => {
    const match = /^(\d{1,6})\.ts$/.exec(req.params.segment);
    const index = match ? Number(match[1]) : -1;
    const bytes = await chapterSegment(res.locals.ctx, req.params.chapterId, req.params.token, index);
    res.setHeader('Cache-Control', IMMUTABLE);
    res.type('video/mp2t');
    if (bytes.kind === 'data') {
      res.send(bytes.data);
    } else {
      res.sendFile(bytes.path, { cacheControl: false, lastModified: false, etag: false });
    }
  });

  return router;
}

/**
 * A chapter's playlist and key, served ahead of Express (http/byte-server.ts) as the stream bytes
 * are. Their URL carries its own credential (the chapter grant).
 */
export const chapterByteRoutes: ByteRoute[] = [
  {
    path: '/chapters/:chapterId/playlist.m3u8',
    methods: ['GET'],
    credential: 'url',
    async serve(ctx, exchange, chapterId, query) {
      const playlist = await chapterPlaylist(ctx, presenterOf(ctx, exchange.req), chapterId, grantFrom(parse(query)));
      noStore(exchange);
      exchange.send(200, 'application/vnd.apple.mpegurl; charset=utf-8', playlist);
    },
  },
  {
    path: '/chapters/:chapterId/key',
    methods: ['GET'],
    credential: 'url',
    async serve(ctx, exchange, chapterId, query) {
      noStore(exchange);
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
];
