import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { TINY_PNG } from '../../test/audio-fixtures.js';
import { ffmpegPath } from './ffmpeg.js';
import { NOT_AUDIO, probeAudio } from './probe.js';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'pal-probe-'));
const config = { ffmpegPath: process.env.FFMPEG_PATH };
const ffmpeg = (args: string[]) =>
  run(ffmpegPath(config), ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args]);
const tone = ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=2'];

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('probeAudio', () => {
  it('takes audio with cover art, whether or not ffmpeg marks it "attached pic"', async () => {
    const cover = path.join(dir, 'cover.png');
    writeFileSync(cover, TINY_PNG);
    const out = path.join(dir, 'covered.m4a');
    await ffmpeg([
      ...tone,
      '-i',
      cover,
      '-map',
      '0',
      '-map',
      '1',
      '-c:v',
      'copy',
      '-disposition:v',
      'attached_pic',
      out,
    ]);
    expect(await probeAudio(config, out)).toMatchObject({ mimeType: 'audio/mp4' });
  });

  it('refuses a video with a sound track', async () => {
    const out = path.join(dir, 'video.mp4');
    await ffmpeg([...tone, '-f', 'lavfi', '-i', 'testsrc=size=64x64:rate=10:duration=2', '-c:v', 'mjpeg', out]);
    await expect(probeAudio(config, out)).rejects.toThrow(NOT_AUDIO);
  });
});
