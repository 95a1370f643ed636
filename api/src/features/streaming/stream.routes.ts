import type { IncomingMessage } from 'node:http';
import { parse } from 'node:querystring';
import { Router } from 'express';
import type { Ctx } from '../../context.js';
import type { ByteRoute } from '../../http/byte-route.js';
import { sendData } from '../../http/respond.js';
import { bearerToken } from '../auth/authenticate.js';
import { sendByteRange } from '../playback/byte-range.js';
import type { Presenter } from '../playback/stream-access.js';
import * as streams from '../playback/stream.service.js';
import { queryInteger, queryString } from '../playback/url-signing.js';

/** Audio bytes are per-user and per-session: never kept by shared caches or replayed from one. */
export const PRIVATE_BYTES = 'private, no-store';

/** The bearer token and device id a byte request came with besides the credential in its URL. */
export function presenterOf(ctx: Ctx, req: IncomingMessage): Presenter {
  return { token: bearerToken(req.headers.authorization), deviceId: ctx.meta.deviceId };
}

/** REST /api/v1/drm: stream sessions and signed seek URLs (their bytes: streamByteRoutes). */
export function streamRoutes(): Router {
  const router = Router();

  router.get('/drm/status/:fileId', async (req, res) => {
    sendData(res, await streams.drmStatus(res.locals.ctx, req.params.fileId));
  });

  router.post('/drm/session/:fileId', async (req, res) => {
    sendData(res, await streams.createStreamSession(res.locals.ctx, req.params.fileId));
  });

  router.post('/drm/signed-url/:fileId', async (req, res) => {
    sendData(res, await streams.createSignedUrl(res.locals.ctx, req.params.fileId, req.body));
  });

  return router;
}

/**
 * The bytes behind stream tokens and signed URLs, served ahead of Express (http/byte-server.ts).
 * Their URL carries its own credential: the route checks any bearer token together with it.
 */
export const streamByteRoutes: ByteRoute[] = [
  {
    path: '/drm/stream/:token',
    methods: ['GET', 'HEAD'],
    credential: 'url',
    // The media element cannot send headers: the token in the path is the credential, re-checked each time.
    async serve(ctx, exchange, token) {
      const bytes = await streams.openStreamSession(ctx, presenterOf(ctx, exchange.req), token);
      await sendByteRange(exchange, bytes, PRIVATE_BYTES);
    },
  },
  {
    path: '/drm/signed/:fileId',
    methods: ['GET', 'HEAD'],
    credential: 'url',
    async serve(ctx, exchange, fileId, query) {
      // Read as Express's default ("simple") query parser reads a query: node's querystring.
      const q = parse(query);
      const bytes = await streams.openSignedUrl(ctx, presenterOf(ctx, exchange.req), fileId, {
        sid: queryString(q.sid),
        st: queryInteger(q.st),
        start: queryNumber(q.start),
        end: queryNumber(q.end),
        exp: queryInteger(q.exp),
        sig: queryString(q.sig),
      });
      await sendByteRange(exchange, bytes, PRIVATE_BYTES);
    },
  },
];

function queryNumber(value: unknown): number | null {
  const text = queryString(value);
  if (text === null || !/^-?\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}
