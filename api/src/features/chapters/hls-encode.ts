import { createDecipheriv, randomBytes } from 'node:crypto';
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runFfmpeg } from './ffmpeg-run.js';

/** Placeholders the stored playlist carries; each request fills them with its own URLs. */
export const KEY_URI_PLACEHOLDER = '__KEY_URI__';
export const SEGMENT_BASE_PLACEHOLDER = '__SEGMENT_BASE__';

const SEGMENT_SECONDS = 6;

export interface EncodedChapter {
  key: Buffer;
  iv: Buffer;
  /** The playlist with placeholders instead of the key URI and the segment folder. */
  playlist: string;
  segments: { file: string; duration: number; size: number }[];
  plainSize: number;
  encryptedSize: number;
}

export interface EncodeRequest {
  ffmpeg: string;
  source: string;
  startTime: number;
  duration: number;
  /** An empty folder of the caller's; it removes it afterwards. */
  workDir: string;
  timeoutMs: number;
  /** Stops the encoder when aborted. */
  signal?: AbortSignal;
  /** Given the share done, 0..1, as ffmpeg reports it (about twice a second). */
  onProgress?: (fraction: number) => void;
}

/**
 * Cuts [startTime, startTime + duration) from the source, encodes AAC-LC and writes MPEG-TS HLS
 * segments of about 6 s, encrypted with a new random AES-128 key. The key-info file is written
 * here (the bundled ffmpeg's -hls_enc is unreliable, and it cannot encrypt fMP4).
 */
export async function encodeChapter(req: EncodeRequest): Promise<EncodedChapter> {
  const key = randomBytes(16);
  const iv = randomBytes(16);
  const keyFile = path.join(req.workDir, 'chapter.key');
  const keyInfoFile = path.join(req.workDir, 'chapter.keyinfo');
  const playlistFile = path.join(req.workDir, 'index.m3u8');
  await writeFile(keyFile, key, { mode: 0o600 });
  await writeFile(keyInfoFile, `${KEY_URI_PLACEHOLDER}\n${keyFile}\n${iv.toString('hex')}\n`, { mode: 0o600 });
  const { onProgress } = req;
  // -progress is a global option: first, before the inputs.
  const progressArgs = onProgress ? ['-progress', 'pipe:1', '-nostats'] : [];
  await runFfmpeg(req.ffmpeg, [...progressArgs, ...hlsEncodeArgs(req, keyInfoFile, playlistFile)], req.timeoutMs, {
    signal: req.signal,
    onProgress: onProgress && ((seconds) => onProgress(Math.min(1, seconds / Math.max(req.duration, 0.001)))),
  });
  const { playlist, entries } = templatePlaylist(await readFile(playlistFile, 'utf8'));
  if (entries.length === 0) throw new Error('ffmpeg produced no segments');
  const segments = [];
  let plainSize = 0;
  for (const entry of entries) {
    const file = path.join(req.workDir, entry.name);
    const size = (await stat(file)).size;
    plainSize += await decryptedLength(file, size, key, iv);
    segments.push({ file, duration: entry.duration, size });
  }
  return { key, iv, playlist, segments, plainSize, encryptedSize: segments.reduce((sum, s) => sum + s.size, 0) };
}

/** The ffmpeg command line of one chapter (also run bare by the benchmark, as its baseline). */
export function hlsEncodeArgs(
  req: Pick<EncodeRequest, 'source' | 'startTime' | 'duration' | 'workDir'>,
  keyInfoFile: string,
  playlistFile: string,
): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-ss',
    req.startTime.toFixed(3),
    '-t',
    req.duration.toFixed(3),
    '-i',
    req.source,
    '-map',
    '0:a:0',
    '-vn',
    '-sn',
    '-dn',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-threads',
    '1',
    '-f',
    'hls',
    '-hls_time',
    String(SEGMENT_SECONDS),
    '-hls_playlist_type',
    'vod',
    '-hls_list_size',
    '0',
    '-hls_key_info_file',
    keyInfoFile,
    '-hls_segment_filename',
    path.join(req.workDir, '%d.ts'),
    playlistFile,
  ];
}

/** Rewrites ffmpeg's playlist so segment lines read __SEGMENT_BASE__/{index}.ts, in order. */
export function templatePlaylist(text: string): { playlist: string; entries: { name: string; duration: number }[] } {
  const entries: { name: string; duration: number }[] = [];
  let pendingDuration = 0;
  const lines = text.split('\n').map((raw) => {
    const line = raw.trim();
    if (line.startsWith('#EXTINF:')) pendingDuration = Number.parseFloat(line.slice(8));
    if (line === '' || line.startsWith('#')) return line;
    entries.push({ name: path.basename(line), duration: pendingDuration });
    return `${SEGMENT_BASE_PLACEHOLDER}/${entries.length - 1}.ts`;
  });
  return { playlist: lines.join('\n').trim() + '\n', entries };
}

/**
 * Bytes of a segment before encryption: its size less the PKCS#7 padding, read by decrypting the
 * last block alone (in CBC the block before it is its IV), so no segment is decrypted whole.
 */
async function decryptedLength(file: string, size: number, key: Buffer, iv: Buffer): Promise<number> {
  if (size === 0 || size % 16 !== 0) throw new Error('ffmpeg wrote a segment that is not AES-128 encrypted');
  const tail = Buffer.alloc(Math.min(32, size));
  const handle = await open(file, 'r');
  try {
    await handle.read(tail, 0, tail.length, size - tail.length);
  } finally {
    await handle.close();
  }
  const blockIv = tail.length === 32 ? tail.subarray(0, 16) : iv;
  const decipher = createDecipheriv('aes-128-cbc', key, blockIv).setAutoPadding(false);
  const last = Buffer.concat([decipher.update(tail.subarray(tail.length - 16)), decipher.final()]);
  const padding = last[15];
  if (padding < 1 || padding > 16) throw new Error('ffmpeg wrote a segment with invalid padding');
  return size - padding;
}
