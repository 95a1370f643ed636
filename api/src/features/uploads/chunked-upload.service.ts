import { rename, stat } from 'node:fs/promises';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { requireAdmin } from '../../caller-policy.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import { receiveCover } from '../files/cover-storage.js';
import { NOT_AUDIO } from '../media/probe.js';
import { User } from '../users/user.entity.js';
import { registerAudioFile } from './file-registration.js';
import { readMultipart, type BodySource } from './multipart.js';
import { digestUpload, dropRunningHash, startRunningHash } from './running-hash.js';
import { UploadSession, UploadStatus } from './upload-session.entity.js';
import {
  chunkWritesUnderWay,
  createUploadDir,
  removeUploadDir,
  uploadedChunks,
  uploadPaths,
} from './upload-storage.js';
import { uploadSweepJob } from './upload-sweep-job.js';
import { ownUpload } from './upload-ownership.js';
import { CHUNK_SIZE, initUploadSchema, type FileDetails, type InitUploadInput } from './uploads.schemas.js';

export interface UploadProgress {
  session: UploadSession;
  uploadedChunks: number[];
}

export async function initUpload(ctx: Ctx, input: InitUploadInput): Promise<UploadSession> {
  const caller = requireAdmin(ctx);
  const data = parseInput(initUploadSchema, input);
  const { config } = ctx.deps;
  // What earlier uploads left is swept by a job (at most one waits at a time): the init does not wait.
  await ctx.deps.jobs.send(uploadSweepJob, {});
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
