import type { IncomingMessage } from 'node:http';
import { parse } from 'node:querystring';
import { z } from 'zod';
import { ApiKeyScope } from '../../api-key-scopes.js';
import type { Ctx } from '../../context.js';
import { dataBody, idParam, timestamp, type Answer, type HeaderDoc, type RouteContract } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes, type ByteRoute } from '../../http/route.js';
import { bearerToken } from '../auth/authenticate.js';
import { sendByteRange } from './byte-range.js';
import { openKeyAudio } from './key-audio.service.js';
import type { Presenter } from './stream-access.js';
import { signedUrlSchema } from './stream.schemas.js';
import * as streams from './stream.service.js';
import { queryInteger, queryString } from '../../http/url-signing.js';

/** Audio bytes are per-user and per-session: never kept by shared caches or replayed from one. */
export const PRIVATE_BYTES = 'private, no-store';

/** The bearer token and device id a byte request came with besides the credential in its URL. */
export function presenterOf(ctx: Ctx, req: IncomingMessage): Presenter {
  return { token: bearerToken(req.headers.authorization), deviceId: ctx.meta.deviceId };
}

function queryNumber(value: unknown): number | null {
  const text = queryString(value);
  if (text === null || !/^-?\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}

const fileId = z.object({ fileId: idParam('The file id.') });

const rangeHeaders = z.object({
  Range: z.string().optional().meta({ description: 'One range, bytes=start-end; others are served whole (200).' }),
});
const byteHeaders: Record<string, HeaderDoc> = {
  'Accept-Ranges': { description: 'bytes', schema: z.string() },
  'Content-Length': { description: 'Bytes in this answer.', schema: z.int() },
  'Cache-Control': {
    description: 'private, no-store: per-user bytes, never kept by a shared cache.',
    schema: z.string(),
  },
};
const partialHeaders = { ...byteHeaders, 'Content-Range': { description: 'bytes start-end/size', schema: z.string() } };
const audioAnswers = (head: boolean): RouteContract['answers'] => {
  const bytes: Partial<Answer> = head ? {} : { bytes: 'audio/*' };
  return {
    200: {
      description: head ? 'Still valid; the headers of the whole file.' : 'The whole file.',
      headers: byteHeaders,
      ...bytes,
    },
    206: {
      description: head ? 'Still valid; the headers of the range.' : 'The range asked for.',
      headers: partialHeaders,
      ...bytes,
    },
  };
};

/** `?...` of a signed seek URL, as createSignedUrl writes it; clients use the URL as given. */
const signedQuery = z.object({
  sid: idParam('The device session the URL was issued to.'),
  st: z.int().meta({ description: 'When that session began (ms since the epoch).' }),
  start: z.number().min(0).meta({ description: 'Seconds.' }),
  end: z.number().meta({ description: 'Seconds; -1 for the end of the file.' }),
  exp: z.int().meta({ description: 'Expiry (ms since the epoch).' }),
  sig: z.string().meta({ description: 'The server signature of the above.' }),
});
const keyAudio = (method: 'get' | 'head'): ByteRoute => ({
  operationId: method === 'get' ? 'fileAudio' : 'checkFileAudio',
  method,
  path: '/files/:id/audio',
  tag: 'streaming',
  summary: method === 'get' ? "A file's audio, for an API key" : "Check that an API key may fetch a file's audio",
  description:
    "For scripts and services: send the key as `Authorization: Bearer pal_...` (never in the URL, so a copied URL carries no credential). A file the key's user may not see is answered 404, as an unknown id. An open answer ends within seconds once the key is revoked or expires, its user is locked, demoted or deleted, or the grant or file goes. Metered by rip detection like a listener: a key fetching much faster than real time is slowed down. Honours Range.",
  caller: 'apiKey',
  params: z.object({ id: idParam('The file id.') }),
  headers: rangeHeaders,
  answers: audioAnswers(method === 'head'),
  errors: ['RANGE_NOT_SATISFIABLE'],
  // An API key's own audio route: the key in the Authorization header is its only credential.
  scopes: [ApiKeyScope.STREAM],
  credential: 'header',
  async serve(ctx, exchange, id) {
    await sendByteRange(exchange, await openKeyAudio(ctx, id), PRIVATE_BYTES);
  },
});

const streamToken = z.object({ token: z.string().meta({ description: 'The sessionToken of a stream session.' }) });

const streamBytes = (method: 'get' | 'head'): ByteRoute => ({
  operationId: method === 'get' ? 'streamAudio' : 'checkStream',
  method,
  path: '/drm/stream/:token',
  tag: 'streaming',
  summary: method === 'get' ? 'The audio of a stream session' : 'Check that a stream session is still valid',
  description:
    'For the media element, which cannot send headers: the token in the path is the credential, re-checked at every request (grant, lock, session). Once the file is out of view (grant revoked or expired, file deleted) it answers as an unknown token (403): open a new session, which answers 404. Honours Range.',
  caller: 'url',
  params: streamToken,
  headers: rangeHeaders,
  answers: audioAnswers(method === 'head'),
  errors: ['RANGE_NOT_SATISFIABLE'],
  // Stream credentials are bound to a person's device session: a key streams only through /files/:id/audio.
  scopes: 'deviceOnly',
  credential: 'url',
  // The media element cannot send headers: the token in the path is the credential, re-checked each time.
  async serve(ctx, exchange, token) {
    const bytes = await streams.openStreamSession(ctx, presenterOf(ctx, exchange.req), token);
    await sendByteRange(exchange, bytes, PRIVATE_BYTES);
  },
});

const signedBytes = (method: 'get' | 'head'): ByteRoute => ({
  operationId: method === 'get' ? 'signedAudio' : 'checkSignedAudio',
  method,
  path: '/drm/signed/:fileId',
  tag: 'streaming',
  summary: method === 'get' ? 'The audio behind a signed seek URL' : 'Check a signed seek URL',
  description:
    'From the start time the URL was signed for; the signature and the session behind it are re-checked. A file no longer visible answers 404, as an unknown one.',
  caller: 'url',
  params: fileId,
  query: signedQuery,
  headers: rangeHeaders,
  answers: audioAnswers(method === 'head'),
  errors: ['RANGE_NOT_SATISFIABLE'],
  scopes: 'deviceOnly',
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
});

/**
 * REST /api/v1/drm: stream sessions and signed seek URLs, and the bytes behind them, served ahead of
 * Express (http/byte-server.ts); and an API key's audio: `Authorization: Bearer pal_...` is its
 * only credential, so a copied URL carries none.
 */
export const streamRoutes = routes([
  {
    operationId: 'drmStatus',
    method: 'get',
    path: '/drm/status/:fileId',
    tag: 'streaming',
    summary: 'Whether you may play a file and how it is delivered',
    caller: 'signedIn',
    params: fileId,
    answers: {
      200: {
        description: 'How the file plays.',
        json: dataBody(
          z.object({
            fileId: z.guid(),
            chunkedStreaming: z.boolean(),
            protected: z.boolean(),
            duration: z.number(),
            size: z.number(),
            mimeType: z.string(),
            readyChapters: z.int().min(0),
          }),
        ),
      },
    },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, params, res }) {
      sendData(res, await streams.drmStatus(ctx, params.fileId));
    },
  },
  {
    operationId: 'createStreamSession',
    method: 'post',
    path: '/drm/session/:fileId',
    tag: 'streaming',
    summary: 'Open a stream session',
    description:
      'Bound to your device session: it ends with it, and with your access to the file. A file you may not see answers 404, as an unknown id.',
    caller: 'signedIn',
    params: fileId,
    answers: {
      200: {
        description: 'The token and the URL to play.',
        json: dataBody(
          z.object({
            sessionToken: z.string(),
            duration: z.number().meta({ description: 'Seconds.' }),
            streamUrl: z.string().meta({ description: '/api/v1/drm/stream/{sessionToken}' }),
            expiresAt: timestamp,
          }),
        ),
      },
    },
    scopes: 'deviceOnly',
    async handle({ ctx, params, res }) {
      sendData(res, await streams.createStreamSession(ctx, params.fileId));
    },
  },
  streamBytes('get'),
  streamBytes('head'),
  {
    operationId: 'createSignedUrl',
    method: 'post',
    path: '/drm/signed-url/:fileId',
    tag: 'streaming',
    summary: 'A signed URL for the audio from a start time, for seeking',
    caller: 'signedIn',
    params: fileId,
    body: { required: true, json: signedUrlSchema },
    answers: {
      200: { description: 'The URL.', json: dataBody(z.object({ signedUrl: z.string(), expiresAt: timestamp })) },
    },
    scopes: 'deviceOnly',
    async handle({ ctx, params, body, res }) {
      sendData(res, await streams.createSignedUrl(ctx, params.fileId, body));
    },
  },
  signedBytes('get'),
  signedBytes('head'),
  keyAudio('get'),
  keyAudio('head'),
]);
