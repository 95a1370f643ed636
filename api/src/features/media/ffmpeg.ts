import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type { AppConfig } from '../../config.js';

let cached: string | null = null;

/** FFMPEG_PATH, else `ffmpeg` on PATH, else the binary shipped in @ffmpeg-installer/ffmpeg. */
export function ffmpegPath(config: Pick<AppConfig, 'ffmpegPath'>): string {
  if (config.ffmpegPath) return config.ffmpegPath;
  if (cached) return cached;
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore', timeout: 5000 });
    cached = 'ffmpeg';
  } catch {
    const require = createRequire(import.meta.url);
    cached = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  }
  return cached;
}
