import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Caller, Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { requireAdmin } from '../../caller-policy.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import { resolveStoredPath, storageDirs } from '../files/storage-paths.js';
import { NOT_AUDIO, probeAudio, type AudioProbe } from '../media/probe.js';
import { checkJoinable, joinOrder, partChapters, readPartTags, type PartTags } from './book-parts.js';
import { joinParts } from './book-join.js';
import { readEmbeddedMetadata } from './embedded-metadata.js';
import { registerAudioFile } from './file-registration.js';
import { digestUpload, dropRunningHash } from './running-hash.js';
import { UploadSession } from './upload-session.entity.js';
import { checkedOwnUpload } from './upload-ownership.js';
import {
  chunkWritesUnderWay,
  removeUploadDir,
  uploadedChunks,
  uploadPaths,
  type UploadPaths,
} from './upload-storage.js';
import { FILE_TOO_LARGE, MAX_FILE_SIZE, joinBookSchema, type JoinBookInput } from './uploads.schemas.js';

interface HeldPart {
  session: UploadSession;
  fileName: string;
  paths: UploadPaths;
}

interface CheckedPart extends HeldPart {
  probe: AudioProbe;
  tags: PartTags;
  duration: number;
}

/** The caller's own active uploads, in the order asked, each complete. */
async function completeParts(ctx: Ctx, caller: Caller, ids: readonly string[]): Promise<HeldPart[]> {
  const rows = await ctx.em.find(UploadSession, { id: { $in: ids.map((id) => id.toLowerCase()) } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const parts: HeldPart[] = [];
  for (const id of ids) {
    const session = await checkedOwnUpload(ctx, caller, byId.get(id.toLowerCase()) ?? null, true);
    const paths = uploadPaths(ctx.deps.config.dataDir, session.id);
    const held = await uploadedChunks(paths, session.totalChunks);
    if (held.length !== session.totalChunks) {
      throw new AppError(
        'BAD_USER_INPUT',
        `The part "${session.fileName}" is incomplete: ${held.length} of ${session.totalChunks} chunks received`,
      );
    }
    parts.push({ session, fileName: session.fileName, paths });
  }
  if (parts.reduce((sum, p) => sum + p.session.fileSize, 0) > MAX_FILE_SIZE) {
    throw new AppError('PAYLOAD_TOO_LARGE', FILE_TOO_LARGE);
  }
  return parts;
}

/**
 * Takes every part's bytes for this join (renamed as finalize does, which shuts out late chunks,
 * a finalize of the part alone and a second join), or none: on a conflict the ones taken go back.
 */
async function takeParts(parts: readonly HeldPart[]): Promise<() => Promise<void>> {
  const taken: HeldPart[] = [];
  const restore = async () => {
    for (const part of taken) await rename(part.paths.finalizing, part.paths.data).catch(() => undefined);
  };
  for (const part of parts) {
    try {
      await rename(part.paths.data, part.paths.finalizing);
    } catch {
      await restore();
      throw new AppError('CONFLICT', `The part "${part.fileName}" is already being finalized or joined`);
    }
    taken.push(part);
  }
  return restore;
}

/** The bytes held are the declared file (SHA-256), and audio: else the message names the part. */
async function checkPart(ctx: Ctx, part: HeldPart): Promise<CheckedPart> {
  const { config } = ctx.deps;
  const { session, paths } = part;
  if (await chunkWritesUnderWay(paths)) {
    throw new AppError('CONFLICT', `Chunks of "${part.fileName}" are still being written; join again once they finish`);
  }
  const { size } = await stat(paths.finalizing);
  const digest =
    size === session.fileSize
      ? await digestUpload(config, session.id, paths.finalizing, session.chunkSize, session.fileSize)
      : null;
  if (digest !== session.fileHash) {
    dropRunningHash(config, session.id);
    throw new AppError(
      'BAD_USER_INPUT',
      `File hash mismatch in "${part.fileName}": upload its chunks again, then join the book again.`,
    );
  }
  let probe: AudioProbe;
  try {
    probe = await probeAudio(config, paths.finalizing);
  } catch (err) {
    if (err instanceof AppError && err.message === NOT_AUDIO) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        `The part "${part.fileName}" is not audio: cancel it and upload the right file, then join the book again. ${NOT_AUDIO}`,
      );
    }
    throw err;
  }
  return { ...part, probe, duration: probe.duration, tags: await readPartTags(paths.finalizing) };
}

/**
 * Joins the parts of one book, each a complete chunked upload of the caller's, into one file:
 * in track-number order (or as given), by a stream copy, one pending chapter per part titled by
 * its title tag. The book's title, authors, cover and the rest are the first part's tags (its
 * album tag as the title), as the embedded-metadata reader reads them; what the caller typed wins.
 * If anything fails, no file is registered and every part is kept as it was, for another try.
 */
export async function joinBookUpload(ctx: Ctx, input: JoinBookInput): Promise<AudioFile> {
  const caller = requireAdmin(ctx);
  const { uploadIds, order, ...details } = parseInput(joinBookSchema, input);
  const held = await completeParts(ctx, caller, uploadIds);
  const { config } = ctx.deps;
  const restore = await takeParts(held);
  const tmpDir = resolveStoredPath(config.dataDir, `${storageDirs.tmp}/.`);
  let joined: string | null = null;
  try {
    const checked: CheckedPart[] = [];
    for (const part of held) checked.push(await checkPart(ctx, part));
    const parts = order === 'tags' ? joinOrder(checked) : checked;
    checkJoinable(parts);

    await mkdir(tmpDir, { recursive: true });
    joined = path.join(tmpDir, `book-${randomUUID()}`);
    await joinParts(
      config,
      parts.map((p) => p.paths.finalizing),
      parts[0].probe.format,
      joined,
    );
    const first = await readEmbeddedMetadata(parts[0].paths.finalizing);
    const cover = first.cover ?? (await firstCover(parts.slice(1)));
    const title = parts[0].tags.album ?? first.title;
    const { size } = await stat(joined);
    const file = await registerAudioFile(
      ctx,
      caller,
      { path: joined, size, originalName: `${title ?? parts[0].fileName}.${parts[0].probe.extension}` },
      {
        details,
        cover: null,
        parts: parts.map((p) => p.session),
        embedded: { ...first, title, cover, chapters: partChapters(parts) },
      },
    );
    joined = null;
    for (const part of parts) {
      dropRunningHash(config, part.session.id);
      await removeUploadDir(part.paths);
    }
    return file;
  } catch (err) {
    if (joined) await rm(joined, { force: true });
    await restore();
    throw err;
  }
}

/** The first embedded cover among the later parts, where the first part has none. */
async function firstCover(parts: readonly CheckedPart[]) {
  for (const part of parts) {
    const { cover } = await readEmbeddedMetadata(part.paths.finalizing);
    if (cover) return cover;
  }
  return null;
}
