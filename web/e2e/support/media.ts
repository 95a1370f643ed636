import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminApi, rest } from './api';

const require = createRequire(import.meta.url);

/** A real MP3 (a sine tone) made with the bundled ffmpeg: MP3 frames resync, so byte windows play. */
export function makeMp3(seconds: number): Buffer {
  const ffmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  const dir = mkdtempSync(path.join(tmpdir(), 'pal-audio-'));
  const file = path.join(dir, 'tone.mp3');
  try {
    execFileSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
      '-c:a', 'libmp3lame', '-b:a', '64k', '-y', file]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Uploads an audio file as the administrator; private unless `isPublic`. */
export async function uploadAudio(
  title: string,
  { seconds = 30, description = '', isPublic = false }: { seconds?: number; description?: string; isPublic?: boolean } = {},
): Promise<{ id: string; title: string }> {
  const form = new FormData();
  form.set('audio', new Blob([new Uint8Array(makeMp3(seconds))], { type: 'audio/mpeg' }), `${title.replace(/\W+/g, '-')}.mp3`);
  form.set('title', title);
  form.set('description', description);
  form.set('isPublic', String(isPublic));
  const admin = await adminApi();
  const send = () => rest<{ data: { id: string } }>('POST', '/files', form, admin);
  // A pooled keep-alive connection may have been closed by the server while ffmpeg ran (EPIPE on
  // the body); a POST is not retried by fetch itself, so try once more on a fresh connection.
  const res = await send().catch(send);
  if (res.status >= 300) throw new Error(`upload failed: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, title };
}

/** Lets one user see one private file. */
export async function grantAccess(userId: string, fileId: string): Promise<void> {
  const res = await rest('POST', '/admin/file-access', { userId, fileId, expiresAt: null }, await adminApi());
  if (res.status >= 300) throw new Error(`grant failed: ${JSON.stringify(res.body)}`);
}
