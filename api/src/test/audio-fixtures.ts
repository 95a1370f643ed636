import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPath } from '../features/media/ffmpeg.js';

const run = promisify(execFile);

export type TestAudioFormat = 'mp3' | 'wav' | 'ogg' | 'flac' | 'm4a';

/** Real audio made by the project's ffmpeg from its sine source: a file path in a temp folder. */
export async function generateTestAudio(
  format: TestAudioFormat,
  seconds = 2,
  name = `tone.${format}`,
): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pal-audio-'));
  const out = path.join(dir, name);
  await run(ffmpegPath({ ffmpegPath: process.env.FFMPEG_PATH }), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
    ...(format === 'ogg' ? ['-c:a', 'libvorbis'] : []),
    out,
  ]);
  return out;
}

/** The smallest valid PNG (1x1), for cover tests. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
