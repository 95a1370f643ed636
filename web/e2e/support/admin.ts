import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminApi, rest } from './api';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './constants';
import { signInThroughUi } from './ui';

// Set-up for the admin console's browser tests: real media made with the bundled ffmpeg.
const ffmpegPath = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const mediaDir = mkdtempSync(path.join(tmpdir(), 'pal-e2e-media-'));

function ffmpeg(args: string[], output: string): string {
  if (!existsSync(output)) execFileSync(ffmpegPath, ['-y', '-loglevel', 'error', ...args, output]);
  return output;
}

/** A sine tone as MP3 (small) or WAV (about 176 KB a second: big enough for several chunks). */
export function makeAudio(seconds: number, format: 'mp3' | 'wav' = 'mp3', name = `tone-${seconds}s`): string {
  const codec = format === 'mp3' ? ['-c:a', 'libmp3lame', '-b:a', '64k'] : ['-c:a', 'pcm_s16le', '-ac', '2'];
  return ffmpeg(
    ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`, ...codec],
    path.join(mediaDir, `${name}.${format}`),
  );
}

/** A solid-colour PNG, for cover images. */
export function makeCover(color = 'red', size = 600): string {
  return ffmpeg(
    ['-f', 'lavfi', '-i', `color=c=${color}:s=${size}x${size}`, '-frames:v', '1'],
    path.join(mediaDir, `cover-${color}-${size}.png`),
  );
}

/** Uploads an audio file as the admin through POST /api/v1/files; returns its id. */
export async function uploadAudio(
  title: string,
  options: { seconds?: number; isPublic?: boolean } = {},
): Promise<string> {
  const file = makeAudio(options.seconds ?? 20);
  const form = new FormData();
  form.append('audio', new Blob([readFileSync(file)], { type: 'audio/mpeg' }), path.basename(file));
  form.append('title', title);
  form.append('isPublic', String(options.isPublic ?? false));
  const res = await rest<{ data: { id: string } }>('POST', '/files', form, await adminApi());
  if (res.status >= 300) throw new Error(`upload failed: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

export function signInAsAdmin(page: Page): Promise<void> {
  return signInThroughUi(page, ADMIN_EMAIL, ADMIN_PASSWORD);
}
