import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminApi, rest } from './api';

// Real media made with the bundled ffmpeg, kept for the run so each file is made once.
const ffmpegPath = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const mediaDir = mkdtempSync(path.join(tmpdir(), 'pal-e2e-media-'));

function ffmpeg(args: string[], output: string): string {
  if (!existsSync(output)) execFileSync(ffmpegPath, ['-y', '-loglevel', 'error', ...args, output]);
  return output;
}

/**
 * A sine tone as MP3 (small; MP3 frames resync, so byte windows play) or WAV (about 176 KB a
 * second: big enough for several upload chunks). Returns its path.
 */
export function makeAudio(seconds: number, format: 'mp3' | 'wav' = 'mp3', name = `tone-${seconds}s`): string {
  const codec = format === 'mp3' ? ['-c:a', 'libmp3lame', '-b:a', '64k'] : ['-c:a', 'pcm_s16le', '-ac', '2'];
  return ffmpeg(
    ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`, ...codec],
    path.join(mediaDir, `${name}.${format}`),
  );
}

/**
 * A long MP3 tone (64 kbit/s, about 480 KB a minute) made in a second: one minute encoded, then
 * repeated by stream copy, as encoding an hour would take the machine most of a minute.
 */
export function makeLongAudio(minutes: number): string {
  return ffmpeg(
    ['-stream_loop', String(minutes - 1), '-i', makeAudio(60), '-c', 'copy'],
    path.join(mediaDir, `tone-${minutes}min.mp3`),
  );
}

/** One part of a book in several files: an MP3 tone tagged with its title, track number and the book's album. */
export function makeBookPart(
  name: string,
  seconds: number,
  tags: { title: string; track: number; album: string },
): string {
  return ffmpeg(
    [
      ...['-f', 'lavfi', '-i', `sine=frequency=${300 + tags.track * 60}:sample_rate=44100:duration=${seconds}`],
      ...['-c:a', 'libmp3lame', '-b:a', '64k', '-id3v2_version', '3'],
      ...['-metadata', `title=${tags.title}`, '-metadata', `track=${tags.track}`, '-metadata', `album=${tags.album}`],
    ],
    path.join(mediaDir, `${name}.mp3`),
  );
}

/** A solid-colour PNG, for cover images. */
export function makeCover(color = 'red', size = 600): string {
  return ffmpeg(
    ['-f', 'lavfi', '-i', `color=c=${color}:s=${size}x${size}`, '-frames:v', '1'],
    path.join(mediaDir, `cover-${color}-${size}.png`),
  );
}

/**
 * Uploads an MP3 as the administrator through POST /api/v1/files: a tone of `seconds`, or the MP3 at
 * `audio`; private unless `isPublic`.
 */
export async function uploadAudio(
  title: string,
  {
    seconds = 30,
    audio,
    description = '',
    isPublic = false,
  }: { seconds?: number; audio?: string; description?: string; isPublic?: boolean } = {},
): Promise<{ id: string; title: string }> {
  const file = audio ?? makeAudio(seconds);
  const form = new FormData();
  form.set(
    'audio',
    new Blob([new Uint8Array(readFileSync(file))], { type: 'audio/mpeg' }),
    `${title.replace(/\W+/g, '-')}.mp3`,
  );
  form.set('title', title);
  form.set('description', description);
  form.set('isPublic', String(isPublic));
  const admin = await adminApi();
  const send = () => rest<{ data: { id: string } }>('POST', '/files', form, admin);
  // A pooled keep-alive connection may have been closed by the server meanwhile (EPIPE on the
  // body); fetch does not retry a POST itself, so try once more on a fresh connection.
  const res = await send().catch(send);
  if (res.status >= 300) throw new Error(`upload failed: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, title };
}

/** Gives a file a cover (a PNG from makeCover), stored as a file, through the admin REST API. */
export async function setCover(fileId: string, pngPath: string): Promise<void> {
  const form = new FormData();
  form.set('coverStorageType', 'file');
  form.set('cover', new Blob([new Uint8Array(readFileSync(pngPath))], { type: 'image/png' }), 'cover.png');
  const res = await rest('PUT', `/admin/files/${fileId}`, form, await adminApi());
  if (res.status >= 300) throw new Error(`cover upload failed: ${JSON.stringify(res.body)}`);
}

/** Lets one user see one private file. */
export async function grantAccess(userId: string, fileId: string): Promise<void> {
  const res = await rest('POST', '/admin/file-access', { userId, fileId, expiresAt: null }, await adminApi());
  if (res.status >= 300) throw new Error(`grant failed: ${JSON.stringify(res.body)}`);
}
