import type { Caller, Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseId, parseInput, uuidPattern } from '../../validation.js';
import { requireAdmin } from '../../caller-policy.js';
import { authenticateRequest } from '../auth/authenticate-request.js';
import type { UploadProgress } from './chunked-upload.service.js';
import { readMultipart, type BodySource } from './multipart.js';
import { chunkWriteBegins, chunkWriteEnded } from './running-hash.js';
import { streamToFile } from './stream-to-file.js';
import { UploadSession } from './upload-session.entity.js';
import { checkedOwnUpload } from './upload-ownership.js';
import { beginChunkWrite, uploadedChunks, uploadPaths } from './upload-storage.js';
import { chunkHeadersSchema, type ChunkHeaders } from './uploads.schemas.js';

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
  const found = await authenticateRequest(
    ctx,
    { token, deviceId: ctx.meta.deviceId },
    { row: id === null ? null : { entity: UploadSession, id } },
  );
  const fileName = decodedFileName(headers.fileName);
  const caller = requireAdmin({ ...ctx, caller: found.caller });
  const h = parseInput(chunkHeadersSchema, { ...headers, fileName });
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
