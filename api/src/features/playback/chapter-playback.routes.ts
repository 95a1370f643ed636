import { parse } from 'node:querystring';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { ByteExchange } from '../../http/byte-route.js';
import { dataBody, idParam, timestamp, type HeaderDoc } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import {
  chapterKey,
  chapterPlaylist,
  chapterSegment,
  createChapterStreamUrl,
  type PlaybackGrant,
} from './chapter-playback.js';
import { presenterOf } from './stream.routes.js';
import { chapterStreamUrlSchema } from './stream.schemas.js';
import { queryInteger, queryString, sessionSignedQuery } from '../../http/url-signing.js';

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

const chapterId = z.object({ chapterId: idParam('The chapter id.') });
const oneChapter = z.object({ id: idParam('The file id.'), chapterId: idParam('The chapter id.') });

const grantQuery = sessionSignedQuery();
const noStore: Record<string, HeaderDoc> = {
  'Cache-Control': { description: 'no-store: signed per session, never cached.', schema: z.string() },
};
/**
 * A listener's chapter HLS: the signed playlist URL, then the playlist and key (served ahead of
 * Express by http/byte-server.ts, as the stream bytes are) and the segments.
 */
export const chapterPlaybackRoutes = routes([
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
