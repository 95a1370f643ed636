import { Router, type Request, type Response } from 'express';
import { sendData } from '../../http/respond.js';
import { createFileLoaders } from '../files/file-loaders.js';
import { presentFile } from '../files/file-view.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import type { Caller, Ctx } from '../../context.js';
import { isAdmin } from '../auth/auth.policy.js';
import { bearerToken } from '../auth/authenticate.js';
import * as chunked from './chunked-upload.service.js';
import type { BodySource } from './multipart.js';
import { receiveChunk } from './upload-chunk.service.js';
import { chunkHeaderNames, type ChunkHeaders } from './uploads.schemas.js';
import { uploadFile } from './uploads.service.js';

/**
 * The chunk route authenticates its caller in the statement that reads the upload (every chunk of
 * a large file pays for it): app.ts gives it a request context that does not authenticate.
 */
export const uploadChunkPath = '/audio/upload/chunk';

const body = (req: Request): BodySource => ({ headers: req.headers, stream: req });

/** The audio bytes of an upload: an administrator's may arrive slowly for as long as they keep coming. */
function uploadBody(req: Request, res: Response, caller: Caller | null): BodySource {
  if (caller && isAdmin(caller.user)) res.locals.liftBodyDeadline?.();
  return body(req);
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

/** REST POST /api/v1/files and /api/v1/audio/upload/*: thin adapters over the upload services. */
export function uploadsRoutes(): Router {
  const router = Router();

  router.post('/files', async (req, res) => {
    const ctx = res.locals.ctx;
    const file = await uploadFile(ctx, uploadBody(req, res, ctx.caller));
    sendData(res, await present(ctx, file), { message: 'File uploaded successfully!' }, 201);
  });

  router.post('/audio/upload/init', async (req, res) => {
    const session = await chunked.initUpload(res.locals.ctx, req.body ?? {});
    sendData(
      res,
      { uploadId: session.id, chunkSize: session.chunkSize, expiresAt: session.expiresAt },
      { uploadId: session.id },
    );
  });

  router.post(uploadChunkPath, async (req, res) => {
    const progress = await receiveChunk(
      res.locals.ctx,
      bearerToken(req.headers.authorization),
      chunkHeaders(req),
      (caller) => uploadBody(req, res, caller),
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
  });

  router.get('/audio/upload/status/:uploadId', async (req, res) => {
    const progress = await chunked.uploadStatus(res.locals.ctx, req.params.uploadId);
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
  });

  router.post('/audio/upload/finalize/:uploadId', async (req, res) => {
    const ctx = res.locals.ctx;
    const readForm = () =>
      req.is('multipart/form-data')
        ? chunked.readFinalizeForm(body(req))
        : Promise.resolve({ details: req.body ?? {}, cover: null });
    const file = await chunked.finalizeUpload(ctx, req.params.uploadId, readForm);
    sendData(res, await present(ctx, file), { message: 'File uploaded successfully using chunked upload!' }, 201);
  });

  router.delete('/audio/upload/cancel/:uploadId', async (req, res) => {
    await chunked.cancelUpload(res.locals.ctx, req.params.uploadId);
    sendData(res, null, { message: 'Upload cancelled' });
  });

  return router;
}
