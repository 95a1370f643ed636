import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import type { AppConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { ffmpegPath } from '../media/ffmpeg.js';
import type { AudioProbe } from '../media/probe.js';

/** ffmpeg's muxer for each container the probe accepts (AudioProbe.format). */
const muxers: Record<string, string[]> = {
  mp3: ['-f', 'mp3'],
  wav: ['-f', 'wav'],
  aac: ['-f', 'adts'],
  ogg: ['-f', 'ogg'],
  flac: ['-f', 'flac'],
  // The index up front, so the joined book plays and seeks from its first bytes.
  mov: ['-f', 'mp4', '-movflags', '+faststart'],
};

/** A stream copy moves bytes at disk speed: even 2 GB takes minutes, not hours. */
const JOIN_TIMEOUT_MS = 30 * 60_000;

/** A path as the concat demuxer's list reads it: quoted, a quote written '\''. */
function listEntry(file: string): string {
  return `file '${file.replaceAll("'", "'\\''")}'`;
}

/**
 * Joins `parts` (absolute paths, in order) into `output` with ffmpeg's concat demuxer and a stream
 * copy: the audio frames are the parts' own, nothing is re-encoded. The parts' tags, covers and
 * chapters are left out; the book's come from the database rows. On failure `output` is removed.
 */
export async function joinParts(
  config: Pick<AppConfig, 'ffmpegPath'>,
  parts: readonly string[],
  format: AudioProbe['format'],
  output: string,
): Promise<void> {
  const muxer = muxers[format];
  if (!muxer) throw new AppError('BAD_USER_INPUT', `Parts in the ${format} format cannot be joined`);
  const list = `${output}.list`;
  await writeFile(list, `ffconcat version 1.0\n${parts.map(listEntry).join('\n')}\n`, { mode: 0o600 });
  try {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(
        ffmpegPath(config),
        [
          ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
          ...['-f', 'concat', '-safe', '0', '-i', list],
          ...['-map', '0:a:0', '-c', 'copy', '-map_metadata', '-1', '-map_chapters', '-1'],
          ...muxer,
          output,
        ],
        { stdio: ['ignore', 'ignore', 'pipe'], timeout: JOIN_TIMEOUT_MS },
      );
      let tail = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text: string) => (tail = (tail + text).slice(-2000)));
      child.once('error', reject);
      child.once('close', (exit) => resolve({ code: exit, stderr: tail }));
    });
    if (code !== 0) {
      // ffmpeg names the files it read: an administrator sees part numbers, not server paths.
      const reason = parts
        .reduce((line, part, i) => line.replaceAll(part, `part ${i + 1}`), stderr.trim().split('\n').at(-1) ?? '')
        .replaceAll(list, 'the part list')
        .replaceAll(output, 'the book');
      throw new AppError(
        'BAD_USER_INPUT',
        `The parts could not be joined (${reason.slice(0, 300) || 'ffmpeg failed'}); they are kept, so the join can be tried again`,
      );
    }
  } catch (err) {
    await rm(output, { force: true });
    throw err;
  } finally {
    await rm(list, { force: true });
  }
}
