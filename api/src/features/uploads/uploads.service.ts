import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { requireAdmin } from '../../caller-policy.js';
import type { AudioFile } from '../files/audio-file.entity.js';
import { COVER_MAX_BYTES, receiveCover } from '../files/cover-storage.js';
import { resolveStoredPath, storageDirs } from '../files/storage-paths.js';
import { registerAudioFile, type StagedAudio } from './file-registration.js';
import { readMultipart, type BodySource } from './multipart.js';
import { streamToFile } from './stream-to-file.js';
import { FILE_TOO_LARGE, MAX_FILE_SIZE, NO_FILE } from './uploads.schemas.js';

/** Room for the form's text fields and multipart framing on top of the two files. */
export const FORM_SLACK = 1024 * 1024;

/**
 * POST /files: the audio part is streamed to DATA_DIR/tmp as it arrives, then checked by content
 * and registered. Whatever is refused leaves no bytes and no rows behind.
 */
export async function uploadFile(ctx: Ctx, body: BodySource): Promise<AudioFile> {
  const caller = requireAdmin(ctx);
  if (Number(body.headers['content-length'] ?? 0) > MAX_FILE_SIZE + COVER_MAX_BYTES + FORM_SLACK) {
    throw new AppError('PAYLOAD_TOO_LARGE', FILE_TOO_LARGE);
  }
  const tmpDir = resolveStoredPath(ctx.deps.config.dataDir, `${storageDirs.tmp}/.`);
  await mkdir(tmpDir, { recursive: true });

  const form = await readMultipart(
    body,
    {
      audio: async (file): Promise<StagedAudio> => {
        const target = path.join(tmpDir, randomUUID());
        try {
          const size = await streamToFile(file.stream, target, {
            flags: 'w',
            maxBytes: MAX_FILE_SIZE,
            tooLargeMessage: FILE_TOO_LARGE,
          });
          return { path: target, size, originalName: file.filename };
        } catch (err) {
          await rm(target, { force: true });
          throw err;
        }
      },
      cover: (file) => receiveCover(file.stream),
    },
    {
      fileSize: MAX_FILE_SIZE + 1,
      discard: async (name, result) => {
        if (name === 'audio') await rm((result as StagedAudio).path, { force: true });
      },
    },
  );
  const staged = form.files.audio;
  try {
    if (!staged || staged.size === 0) throw new AppError('BAD_USER_INPUT', NO_FILE);
    return await registerAudioFile(ctx, caller, staged, { details: form.fields, cover: form.files.cover ?? null });
  } catch (err) {
    if (staged) await rm(staged.path, { force: true });
    throw err;
  }
}
