import { rename, stat } from 'node:fs/promises';
import type { Caller, Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseId, parseInput, uuidPattern } from '../../validation.js';
import { requireAdmin } from '../auth/auth.policy.js';
import { authenticateWith } from '../auth/authenticate.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import { receiveCover } from '../files/cover-storage.js';
import { NOT_AUDIO } from '../media/probe.js';
import { User } from '../users/user.entity.js';
import { registerAudioFile } from './file-registration.js';
import { readMultipart, type BodySource } from './multipart.js';
import {
  chunkWriteBegins,
  chunkWriteEnded,
  digestUpload,
  dropRunningHash,
  startRunningHash,
} from './running-hash.js';
import { streamToFile } from './stream-to-file.js';
import { UploadSession, UploadStatus } from './upload-session.entity.js';
import {
  beginChunkWrite,
  chunkWritesUnderWay,
  createUploadDir,
  removeUploadDir,
  uploadedChunks,
  uploadPaths,
} from './upload-storage.js';
import { sweepExpiredUploads } from './upload-expiry.js';
import {
  CHUNK_SIZE,
  chunkHeadersSchema,
  initUploadSchema,
  type ChunkHeaders,
  type FileDetails,
  type InitUploadInput,
} from './uploads.schemas.js';

export interface UploadProgress {
  session: UploadSession;
  uploadedChunks: number[];
}

/** Multipart overhead allowed on top of a chunk's bytes before the body is refused unread. */
const MULTIPART_SLACK = 64 * 1024;

export function expectedChunkSize(
  session: Pick<UploadSession, 'fileSize' | 'chunkSize' | 'totalChunks'>,
  index: number,
): number {
  return index < session.totalChunks - 1
    ? session.chunkSize
    : session.fileSize - session.chunkSize * (session.totalChunks - 1);
}

export async function initUpload(ctx: Ctx, input: InitUploadInput): Promise<UploadSession> {
  const caller = requireAdmin(ctx);
  const data = parseInput(initUploadSchema, input);
  const { config } = ctx.deps;
  await sweepExpiredUploads(ctx.em.fork(), config);
  const session = ctx.em.create(UploadSession, {
    owner: ctx.em.getReference(User, caller.user.id),
    fileName: data.fileName,
    fileSize: data.fileSize,
    totalChunks: data.totalChunks,
    chunkSize: CHUNK_SIZE,
    fileHash: data.fileHash,
    mimeType: data.mimeType,
    metadata: data.metadata ?? null,
    expiresAt: new Date(Date.now() + config.uploadExpiryHours * 3600_000),
  });
  const paths = uploadPaths(config.dataDir, session.id);
  await createUploadDir(paths);
  try {
    await ctx.em.persist(session).flush();
  } catch (err) {
    await removeUploadDir(paths);
    throw err;
  }
  startRunningHash(config, session.id);
  return session;
}

/** The caller's own upload; `active` also refuses finished, cancelled and expired ones. */
async function ownUpload(ctx: Ctx, caller: Caller, id: unknown, mustBeActive: boolean): Promise<UploadSession> {
  const session = await ctx.em.findOne(UploadSession, { id: parseId(id, 'uploadId') });
  return checkedOwnUpload(ctx, caller, session, mustBeActive);
}

/** ownUpload's checks on an upload row already read (null: no upload has the id asked for). */
async function checkedOwnUpload(
  ctx: Ctx,
  caller: Caller,
  session: UploadSession | null,
  mustBeActive: boolean,
): Promise<UploadSession> {
  if (!session) throw new AppError('NOT_FOUND', 'Upload not found');
  if (session.owner.id !== caller.user.id)
    throw new AppError('FORBIDDEN', 'This upload belongs to another administrator');
  if (session.status === UploadStatus.active && session.expiresAt.getTime() <= Date.now()) {
    await sweepExpiredUploads(ctx.em.fork(), ctx.deps.config);
    await ctx.em.refresh(session);
  }
  if (!mustBeActive) return session;
  switch (session.status) {
    case UploadStatus.completed:
      throw new AppError('CONFLICT', 'This upload is already completed');
    case UploadStatus.cancelled:
      throw new AppError('CONFLICT', 'This upload was cancelled');
    case UploadStatus.expired:
      throw new AppError('CONFLICT', 'This upload has expired; start it again');
  }
  return session;
}

export async function uploadStatus(ctx: Ctx, id: unknown): Promise<UploadProgress> {
  const caller = requireAdmin(ctx);
  const session = await ownUpload(ctx, caller, id, false);
  const chunks =
    session.status === UploadStatus.active
      ? await uploadedChunks(uploadPaths(ctx.deps.config.dataDir, session.id), session.totalChunks)
      : [];
  return { session, uploadedChunks: chunks };
}

export async function myUploads(ctx: Ctx): Promise<UploadProgress[]> {
  const caller = requireAdmin(ctx);
  const sessions = await ctx.em.find(
    UploadSession,
    { owner: caller.user.id, status: UploadStatus.active, expiresAt: { $gt: new Date() } },
    { orderBy: { createdAt: 'desc' }, limit: 50 },
  );
  const { dataDir } = ctx.deps.config;
  return Promise.all(
    sessions.map(async (session) => ({
      session,
      uploadedChunks: await uploadedChunks(uploadPaths(dataDir, session.id), session.totalChunks),
    })),
  );
}

/** X-File-Name arrives URI-encoded: a header cannot carry every character of a file name. */
function decodedFileName(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError('BAD_USER_INPUT', 'X-File-Name header must be URI-encoded');
  }
}

/**
 * A chunk's caller, an administrator, with its headers and the active upload they name, refused in
 * the order chunks always were: the token (401), an undecodable X-File-Name (400), the role (403),
 * the other headers (400), then the upload (404, 403, 409). Every chunk of a file asks this anew,
 * so the device session, its user and the upload are read in one statement.
 */
async function authorizeChunk(ctx: Ctx, token: string | null, headers: ChunkHeaders) {
  const id = uuidPattern.test(headers.uploadId ?? '') ? parseId(headers.uploadId) : null;
  const found = await authenticateWith(
    ctx.em,
    ctx.deps.config,
    token,
    ctx.meta.deviceId,
    id === null ? null : { entity: UploadSession, id },
  );
  const fileName = decodedFileName(headers.fileName);
  const caller = requireAdmin({ ...ctx, caller: found.caller });
  const h = parseInput(chunkHeadersSchema, { ...headers, fileName });
  // A malformed X-Upload-ID read no upload: refused here, as ownUpload refuses it.
  parseId(h.uploadId, 'uploadId');
  return { caller, h, session: await checkedOwnUpload(ctx, caller, found.companion, true) };
}

/**
 * One chunk, written straight to its offset in the upload's data file. The headers come as sent;
 * `openBody` is called once the caller is known to be the upload's administrator.
 */
export async function receiveChunk(
  ctx: Ctx,
  token: string | null,
  headers: ChunkHeaders,
  openBody: (caller: Caller) => BodySource,
): Promise<UploadProgress> {
  const { caller, h, session } = await authorizeChunk(ctx, token, headers);
  const body = openBody(caller);
  if (h.totalChunks !== session.totalChunks || h.fileSize !== session.fileSize) {
    throw new AppError('BAD_USER_INPUT', 'X-Total-Chunks and X-File-Size do not match this upload');
  }
  if (h.fileName !== undefined && h.fileName !== session.fileName) {
    throw new AppError('BAD_USER_INPUT', 'X-File-Name does not match this upload');
  }
  if (h.chunkIndex >= session.totalChunks) {
    throw new AppError('BAD_USER_INPUT', `X-Chunk-Index must be between 0 and ${session.totalChunks - 1}`);
  }
  const expected = expectedChunkSize(session, h.chunkIndex);
  const tooLarge = `Chunk ${h.chunkIndex} is larger than expected (${expected} bytes)`;
  if (Number(body.headers['content-length'] ?? 0) > expected + MULTIPART_SLACK)
    throw new AppError('PAYLOAD_TOO_LARGE', tooLarge);

  const { config } = ctx.deps;
  const paths = uploadPaths(config.dataDir, session.id);
  const gone = () => new AppError('CONFLICT', 'This upload is being finalized or was removed');
  const write = await beginChunkWrite(paths, h.chunkIndex).catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'ENOENT' ? gone() : err;
  });
  const hashing = chunkWriteBegins(config, session.id, h.chunkIndex);
  let complete = false;
  try {
    const form = await readMultipart(
      body,
      {
        chunk: (file) =>
          streamToFile(file.stream, paths.data, {
            flags: 'r+',
            start: h.chunkIndex * session.chunkSize,
            maxBytes: expected,
            tooLargeMessage: tooLarge,
            hash: hashing.feed,
          }).catch((err: unknown) => {
            throw (err as NodeJS.ErrnoException).code === 'ENOENT' ? gone() : err;
          }),
      },
      { fileSize: expected + 1 },
    );
    const written = form.files.chunk;
    if (written === undefined) throw new AppError('BAD_USER_INPUT', 'The chunk field is missing');
    if (written !== expected) {
      throw new AppError(
        'BAD_USER_INPUT',
        `Chunk ${h.chunkIndex} is incomplete: expected ${expected} bytes, received ${written}`,
      );
    }
    complete = true;
  } finally {
    try {
      await write.finish(complete);
    } finally {
      chunkWriteEnded(config, session.id, hashing, complete);
    }
  }
  return { session, uploadedChunks: await uploadedChunks(paths, session.totalChunks) };
}

/** Reads the finalize form (fields and an optional cover) from a multipart body. */
export async function readFinalizeForm(
  body: BodySource,
): Promise<{ details: FileDetails; cover: Awaited<ReturnType<typeof receiveCover>> }> {
  const form = await readMultipart(
    body,
    { cover: (file) => receiveCover(file.stream) },
    { fileSize: Number.MAX_SAFE_INTEGER },
  );
  return { details: form.fields, cover: form.files.cover ?? null };
}

/** Verifies the assembled file against the declared SHA-256, probes it and creates the file. */
export async function finalizeUpload(
  ctx: Ctx,
  id: unknown,
  readForm: () => Promise<Awaited<ReturnType<typeof readFinalizeForm>>>,
): Promise<AudioFile> {
  const caller = requireAdmin(ctx);
  const session = await ownUpload(ctx, caller, id, true);
  const { config } = ctx.deps;
  const paths = uploadPaths(config.dataDir, session.id);
  const form = await readForm();
  const held = await uploadedChunks(paths, session.totalChunks);
  if (held.length !== session.totalChunks) {
    throw new AppError(
      'BAD_USER_INPUT',
      `The upload is incomplete: ${held.length} of ${session.totalChunks} chunks received`,
    );
  }
  try {
    await rename(paths.data, paths.finalizing);
  } catch {
    throw new AppError('CONFLICT', 'This upload is already being finalized');
  }
  const restore = () => rename(paths.finalizing, paths.data);
  try {
    // A request that opened `data` before the rename may still be writing into it: its bytes
    // could land after the hash check. Such a request made its marker before opening the file.
    if (await chunkWritesUnderWay(paths)) {
      throw new AppError('CONFLICT', 'Chunks of this upload are still being written; finalize again once they finish');
    }
    const { size } = await stat(paths.finalizing);
    const digest =
      size === session.fileSize
        ? await digestUpload(config, session.id, paths.finalizing, session.chunkSize, session.fileSize)
        : null;
    if (digest !== session.fileHash) {
      // The bytes held are not the declared file: start hashing from scratch on the next try.
      dropRunningHash(config, session.id);
      throw new AppError(
        'BAD_USER_INPUT',
        'File hash mismatch: the uploaded data does not match fileHash. Upload the chunks again, then finalize.',
      );
    }
    const file = await registerAudioFile(
      ctx,
      caller,
      { path: paths.finalizing, size, originalName: session.fileName },
      { ...form, session },
    );
    dropRunningHash(config, session.id);
    await removeUploadDir(paths);
    return file;
  } catch (err) {
    if (err instanceof AppError && err.message === NOT_AUDIO) {
      // Not audio: no retry can fix that, so nothing of it is kept.
      await discardUpload(ctx, session, UploadStatus.cancelled);
    } else {
      await restore();
    }
    throw err;
  }
}

async function discardUpload(ctx: Ctx, session: UploadSession, status: UploadStatus): Promise<void> {
  dropRunningHash(ctx.deps.config, session.id);
  await removeUploadDir(uploadPaths(ctx.deps.config.dataDir, session.id));
  session.status = status;
  await ctx.em.flush();
}

export async function cancelUpload(ctx: Ctx, id: unknown): Promise<UploadSession> {
  const caller = requireAdmin(ctx);
  const session = await ownUpload(ctx, caller, id, true);
  await discardUpload(ctx, session, UploadStatus.cancelled);
  return session;
}
