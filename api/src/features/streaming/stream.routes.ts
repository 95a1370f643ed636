import { Router, type Request, type Response } from 'express';
import { sendData } from '../../http/respond.js';
import { bearerToken } from '../auth/authenticate.js';
import { sendByteRange } from './byte-range.js';
import type { Presenter } from '../access/stream-access.js';
import * as streams from './stream.service.js';
import { queryInteger, queryString } from './url-signing.js';

/** Audio bytes are per-user and per-session: never kept by shared caches or replayed from one. */
export const PRIVATE_BYTES = 'private, no-store';

const STREAM_BYTES = '/drm/stream/:token';
const SIGNED_BYTES = '/drm/signed/:fileId';

/** The paths of streamByteRoutes. */
export const streamBytePaths = [STREAM_BYTES, SIGNED_BYTES];

/** The bearer token and device id a byte request came with besides the credential in its URL. */
export function presenterOf(req: Request, res: Response): Presenter {
  return { token: bearerToken(req.headers.authorization), deviceId: res.locals.ctx.meta.deviceId };
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
 * The bytes behind stream tokens and signed URLs. Their URL carries its own credential, so they
 * run with byteRequestContext (see http/byte-routes.ts): the route checks any bearer token
 * together with that credential.
 */
export function streamByteRoutes(): Router {
  const router = Router();

  // The media element cannot send headers: the token in the path is the credential, re-checked each time.
  const streamBytes = async (req: Request<{ token: string }>, res: Response) => {
    const bytes = await streams.openStreamSession(res.locals.ctx, presenterOf(req, res), req.params.token);
    await sendByteRange(req, res, { ...bytes, cacheControl: PRIVATE_BYTES });
  };
  router.get(STREAM_BYTES, streamBytes);
  router.head(STREAM_BYTES, streamBytes);

  const signedBytes = async (req: Request<{ fileId: string }>, res: Response) => {
    const bytes = await streams.openSignedUrl(res.locals.ctx, presenterOf(req, res), req.params.fileId, {
      sid: queryString(req.query.sid),
      st: queryInteger(req.query.st),
      start: queryNumber(req.query.start),
      end: queryNumber(req.query.end),
      exp: queryInteger(req.query.exp),
      sig: queryString(req.query.sig),
    });
    await sendByteRange(req, res, { ...bytes, cacheControl: PRIVATE_BYTES });
  };
  router.get(SIGNED_BYTES, signedBytes);
  router.head(SIGNED_BYTES, signedBytes);

  return router;
}

function queryNumber(value: unknown): number | null {
  const text = queryString(value);
  if (text === null || !/^-?\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}
