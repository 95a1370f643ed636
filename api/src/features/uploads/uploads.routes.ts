import type { Request, Response } from 'express';
import { z } from 'zod';
import { ApiKeyScope } from '../../api-key-scopes.js';
import type { Caller, Ctx } from '../../context.js';
import { component, dataBody, doneBody, filePart, idParam, timestamp } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { isAdmin } from '../../caller-policy.js';
import { bearerToken } from '../auth/authenticate.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import { COVER_MAX_BYTES } from '../files/cover-storage.js';
import { createFileLoaders } from '../files/file-loaders.js';
import { fileViewSchema, presentFile } from '../files/file-view.js';
import { joinBookUpload } from './book-upload.service.js';
import * as chunked from './chunked-upload.service.js';
import type { BodySource } from './multipart.js';
import { receiveChunk } from './upload-chunk.service.js';
import { UploadStatus } from './upload-session.entity.js';
import {
  CHUNK_SIZE,
  MAX_FILE_SIZE,
  chunkHeaderNames,
  chunkHeadersSchema,
  fileDetailsSchema,
  initUploadSchema,
  joinBookSchema,
  MAX_BOOK_PARTS,
  type ChunkHeaders,
} from './uploads.schemas.js';
import { uploadFile } from './uploads.service.js';

/**
 * The chunk route authenticates its caller in the statement that reads the upload (every chunk of
 * a large file pays for it): app.ts gives it a request context that does not authenticate.
 */
export const uploadChunkPath = '/audio/upload/chunk';

const bodySource = (req: Request): BodySource => ({ headers: req.headers, stream: req });

/** The audio bytes of an upload: an administrator's may arrive slowly for as long as they keep coming. */
function uploadBody(req: Request, res: Response, caller: Caller | null): BodySource {
  if (caller && isAdmin(caller.user)) res.locals.liftBodyDeadline?.();
  return bodySource(req);
}

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function chunkHeaders(req: Request): ChunkHeaders {
  const entries = Object.entries(chunkHeaderNames).map(([key, name]) => [key, header(req, name)]);
  return Object.fromEntries(entries) as ChunkHeaders;
}

async function present(ctx: Ctx, file: AudioFile) {
  return presentFile(file, createFileLoaders(ctx.em));
}

const uploadId = z.object({ uploadId: idParam('The upload id init answered.') });
const chunkList = z.array(z.int().min(0)).meta({ description: 'Indexes of the chunks the server holds, ascending.' });
const cover = filePart('image/*', `At most ${COVER_MAX_BYTES} bytes; JPEG, PNG, GIF or WebP, checked by content.`);
const detailsForm = fileDetailsSchema.extend({ cover: cover.optional() });
const created = {
  description: 'The new file of the library.',
  json: component('UploadedFile', dataBody(fileViewSchema, { message: z.string() })),
};

/** REST POST /api/v1/files and /api/v1/audio/upload/*. */
export const uploadsRoutes = routes([
  {
    operationId: 'uploadFile',
    method: 'post',
    path: '/files',
    tag: 'uploads',
    summary: 'Upload an audio file in one request',
    description: `Checked by content (ffmpeg probe), not by the declared type; at most ${MAX_FILE_SIZE} bytes. An empty title becomes the title tag of the file, else the file name without its extension; an empty description or cover, the file's own; its embedded chapters are added (pending).`,
    caller: 'admin',
    body: {
      required: true,
      description: 'multipart/form-data only; the audio part streams to disk as it arrives.',
      multipart: detailsForm.extend({ audio: filePart('audio/*', 'The audio file.') }),
    },
    answers: { 201: created },
    errors: ['INSUFFICIENT_STORAGE'],
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, req, res }) {
      const file = await uploadFile(ctx, uploadBody(req, res, ctx.caller));
      sendData(res, await present(ctx, file), { message: 'File uploaded successfully!' }, 201);
    },
  },
  {
    operationId: 'initUpload',
    method: 'post',
    path: '/audio/upload/init',
    tag: 'uploads',
    summary: 'Start a resumable chunked upload',
    description: `Chunks are ${CHUNK_SIZE} bytes (the last one shorter); the upload expires if left unfinished.`,
    caller: 'admin',
    body: { required: true, json: initUploadSchema },
    answers: {
      200: {
        description: 'The upload, its id in data and beside it.',
        json: dataBody(z.object({ uploadId: z.guid(), chunkSize: z.int(), expiresAt: timestamp }), {
          uploadId: z.guid(),
        }),
      },
    },
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, body, res }) {
      const session = await chunked.initUpload(ctx, body ?? {});
      sendData(
        res,
        { uploadId: session.id, chunkSize: session.chunkSize, expiresAt: session.expiresAt },
        { uploadId: session.id },
      );
    },
  },
  {
    operationId: 'uploadChunk',
    method: 'post',
    path: '/audio/upload/chunk',
    tag: 'uploads',
    summary: 'Send one chunk',
    description:
      'The headers name the upload and the chunk; the body is a form with one `chunk` part, written at its offset. Chunks may come in any order and again after a failure.',
    caller: 'admin',
    headers: z.object({
      [chunkHeaderNames.uploadId]: chunkHeadersSchema.shape.uploadId,
      [chunkHeaderNames.chunkIndex]: chunkHeadersSchema.shape.chunkIndex,
      [chunkHeaderNames.totalChunks]: chunkHeadersSchema.shape.totalChunks,
      [chunkHeaderNames.fileSize]: chunkHeadersSchema.shape.fileSize,
      [chunkHeaderNames.fileName]: chunkHeadersSchema.shape.fileName,
    }),
    body: {
      required: true,
      description: 'multipart/form-data only.',
      multipart: z.object({ chunk: filePart('application/octet-stream', `The chunk's bytes, at most ${CHUNK_SIZE}.`) }),
    },
    answers: {
      200: {
        description: 'The chunks held so far, in data and beside it.',
        json: dataBody(z.object({ uploadId: z.guid(), chunkIndex: z.int(), uploadedChunks: chunkList }), {
          uploadedChunks: chunkList,
        }),
      },
    },
    errors: ['CONFLICT', 'INSUFFICIENT_STORAGE'],
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, req, res }) {
      const progress = await receiveChunk(ctx, bearerToken(req.headers.authorization), chunkHeaders(req), (caller) =>
        uploadBody(req, res, caller),
      );
      const uploaded = progress.uploadedChunks;
      sendData(
        res,
        {
          uploadId: progress.session.id,
          chunkIndex: Number(header(req, chunkHeaderNames.chunkIndex)),
          uploadedChunks: uploaded,
        },
        { uploadedChunks: uploaded },
      );
    },
  },
  {
    operationId: 'uploadStatus',
    method: 'get',
    path: '/audio/upload/status/:uploadId',
    tag: 'uploads',
    summary: 'Which chunks have arrived',
    description: 'What a client resuming an upload reads first.',
    caller: 'admin',
    params: uploadId,
    answers: {
      200: {
        description: 'The upload and the chunks held, in data and beside it.',
        json: dataBody(
          z.object({
            uploadId: z.guid(),
            status: z.enum(UploadStatus),
            totalChunks: z.int(),
            chunkSize: z.int(),
            fileSize: z.number(),
            uploadedChunks: chunkList,
          }),
          { uploadedChunks: chunkList },
        ),
      },
    },
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, res }) {
      const progress = await chunked.uploadStatus(ctx, params.uploadId);
      const { session, uploadedChunks } = progress;
      sendData(
        res,
        {
          uploadId: session.id,
          status: session.status,
          totalChunks: session.totalChunks,
          chunkSize: session.chunkSize,
          fileSize: session.fileSize,
          uploadedChunks,
        },
        { uploadedChunks },
      );
    },
  },
  {
    operationId: 'finalizeUpload',
    method: 'post',
    path: '/audio/upload/finalize/:uploadId',
    tag: 'uploads',
    summary: 'Assemble the chunks and create the file',
    description:
      "Verifies the SHA-256 given to init and probes the content. JSON, or multipart/form-data to send a cover too. Empty fields and a missing cover are taken from the file's tags, as on POST /files.",
    caller: 'admin',
    params: uploadId,
    body: { required: false, json: fileDetailsSchema, multipart: detailsForm },
    answers: { 201: created },
    errors: ['CONFLICT', 'INSUFFICIENT_STORAGE'],
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, body, req, res }) {
      const readForm = () =>
        req.is('multipart/form-data')
          ? chunked.readFinalizeForm(bodySource(req))
          : Promise.resolve({ details: body ?? {}, cover: null });
      const file = await chunked.finalizeUpload(ctx, params.uploadId, readForm);
      sendData(res, await present(ctx, file), { message: 'File uploaded successfully using chunked upload!' }, 201);
    },
  },
  {
    operationId: 'joinBookUpload',
    method: 'post',
    path: '/audio/upload/book',
    tag: 'uploads',
    summary: 'Join the parts of one book into one file',
    description: `Each part (2 to ${MAX_BOOK_PARTS}, at most ${MAX_FILE_SIZE} bytes together) is a complete chunked upload of the caller's, started with POST /audio/upload/init. The parts are checked against their SHA-256 and probed, then joined by a stream copy (no re-encoding): they must share one container, codec, sample rate and channels, else the join is refused naming the part that differs. Each part starts a chapter (pending) titled by its title tag, else its file name. Empty fields and the cover come from the first part's tags, its album tag as the title. If the join fails nothing is created and the parts are kept, so it can be tried again.`,
    caller: 'admin',
    body: { required: true, json: joinBookSchema },
    answers: { 201: created },
    errors: ['NOT_FOUND', 'CONFLICT', 'INSUFFICIENT_STORAGE'],
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, body, res }) {
      const file = await joinBookUpload(ctx, body ?? {});
      sendData(res, await present(ctx, file), { message: 'Book uploaded successfully!' }, 201);
    },
  },
  {
    operationId: 'cancelUpload',
    method: 'delete',
    path: '/audio/upload/cancel/:uploadId',
    tag: 'uploads',
    summary: 'Cancel an upload and remove its chunks',
    caller: 'admin',
    params: uploadId,
    answers: { 200: { description: 'Cancelled.', json: doneBody } },
    errors: ['CONFLICT'],
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, res }) {
      await chunked.cancelUpload(ctx, params.uploadId);
      sendData(res, null, { message: 'Upload cancelled' });
    },
  },
]);
