import { spawn } from 'node:child_process';
import type { AppConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { ffmpegPath } from './ffmpeg.js';

export const NOT_AUDIO = 'Please select an audio file (MP3, WAV, etc.)';

export interface AudioProbe {
  /** ffmpeg's demuxer name, e.g. mp3, wav, ogg. */
  format: string;
  codec: string;
  /** Hz, as ffmpeg reports the first audio stream; null where it prints none. */
  sampleRate: number | null;
  /** ffmpeg's channel layout name (mono, stereo, 5.1, ...); null where it prints none. */
  channels: string | null;
  mimeType: string;
  /** Seconds. */
  duration: number;
  /** The extension stored files get. */
  extension: string;
}

/** The accepted containers; the name is what ffmpeg prints after `Input #0,`. */
const formats: Record<string, { mimeType: string; extension: string }> = {
  mp3: { mimeType: 'audio/mpeg', extension: 'mp3' },
  wav: { mimeType: 'audio/wav', extension: 'wav' },
  aac: { mimeType: 'audio/aac', extension: 'aac' },
  ogg: { mimeType: 'audio/ogg', extension: 'ogg' },
  flac: { mimeType: 'audio/flac', extension: 'flac' },
  'mov,mp4,m4a,3gp,3g2,mj2': { mimeType: 'audio/mp4', extension: 'm4a' },
};

const PROBE_TIMEOUT_MS = 120_000;
/** Seconds decoded to prove the stream really is audio and not just a plausible header. */
const DECODE_SECONDS = 3;

function runFfmpeg(
  config: Pick<AppConfig, 'ffmpegPath'>,
  args: string[],
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(config), args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: PROBE_TIMEOUT_MS });
    // The stream report comes first and the final progress line last: keep both, bounded.
    let head = '';
    let tail = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      if (head.length < 64 * 1024) head += text;
      else tail = (tail + text).slice(-4096);
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr: head + tail }));
  });
}

/**
 * Cover art, as ffmpeg reports it: marked "attached pic", or (by builds that do not print the
 * mark) a still image codec with no frame rate, which no real video stream has.
 */
function isCoverArt(streamLine: string): boolean {
  return (
    streamLine.includes('attached pic') ||
    (/Video: (mjpeg|png|bmp|gif|webp|tiff)\b/.test(streamLine) && !/ fps\b/.test(streamLine))
  );
}

function clockToSeconds(h: string, m: string, s: string): number {
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

/** Reads the container and first audio stream from ffmpeg's report, decoding a few seconds. */
export async function probeAudio(config: Pick<AppConfig, 'ffmpegPath'>, filePath: string): Promise<AudioProbe> {
  const { code, stderr } = await runFfmpeg(config, [
    '-hide_banner',
    '-nostdin',
    '-i',
    filePath,
    '-map',
    '0:a:0',
    '-t',
    String(DECODE_SECONDS),
    '-f',
    'null',
    '-',
  ]);
  const formatName = /^Input #0, (.+?), from /m.exec(stderr)?.[1];
  const format = formatName ? formats[formatName] : undefined;
  const audio = /Stream #0:\d+(?:\(\w+\))?: Audio: (\w+)(?:[^,\n]*, (\d+) Hz, ([^,\n]+))?/.exec(stderr);
  // A real video stream (not cover art) means this is a video, not an audio file.
  const hasVideo = [...stderr.matchAll(/Stream #0:\d+(?:\(\w+\))?: Video: .*$/gm)].some(([line]) => !isCoverArt(line));
  const decoded = [...stderr.matchAll(/time=(\d+):(\d+):([\d.]+)/g)].at(-1);
  const decodedSeconds = decoded ? clockToSeconds(decoded[1], decoded[2], decoded[3]) : 0;
  if (code !== 0 || !formatName || !format || !audio || hasVideo || decodedSeconds <= 0) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', NOT_AUDIO);
  }
  const header = /Duration: (\d+):(\d+):([\d.]+)/.exec(stderr);
  const duration = header ? clockToSeconds(header[1], header[2], header[3]) : await decodedDuration(config, filePath);
  return {
    format: formatName.split(',')[0],
    codec: audio[1],
    sampleRate: audio[2] ? Number(audio[2]) : null,
    channels: audio[3]?.trim() ?? null,
    mimeType: format.mimeType,
    extension: format.extension,
    duration,
  };
}

/** Streams with no duration in their header (e.g. some raw AAC) are decoded to the end. */
async function decodedDuration(config: Pick<AppConfig, 'ffmpegPath'>, filePath: string): Promise<number> {
  const { code, stderr } = await runFfmpeg(config, [
    '-hide_banner',
    '-nostdin',
    '-i',
    filePath,
    '-map',
    '0:a:0',
    '-f',
    'null',
    '-',
  ]);
  const times = [...stderr.matchAll(/time=(\d+):(\d+):([\d.]+)/g)];
  const last = times.at(-1);
  if (code !== 0 || !last) throw new AppError('UNSUPPORTED_MEDIA_TYPE', NOT_AUDIO);
  return clockToSeconds(last[1], last[2], last[3]);
}
