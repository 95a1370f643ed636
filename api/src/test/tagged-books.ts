import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPath } from '../features/media/ffmpeg.js';
import { TINY_PNG } from './audio-fixtures.js';

const run = promisify(execFile);

/** What a test book carries in its tags. */
export interface BookTags {
  title: string;
  author: string;
  narrator: string;
  series: string;
  seriesPart: string;
  genre: string;
  year: number;
}

/** Two chapters over six seconds: "Opening" 0-2.5 s, "The Road" 2.5-6 s. */
const FFMETADATA = `;FFMETADATA1
[CHAPTER]
TIMEBASE=1/1000
START=0
END=2500
title=Opening
[CHAPTER]
TIMEBASE=1/1000
START=2500
END=6000
title=The Road
`;

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(body.length + 8);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/** An iTunes freeform atom, `----:com.apple.iTunes:<name>`, as audiobook taggers write SERIES. */
function freeform(name: string, value: string): Buffer {
  const zero = Buffer.alloc(4);
  const utf8 = Buffer.from([0, 0, 0, 1]);
  return box(
    '----',
    box('mean', zero, Buffer.from('com.apple.iTunes')),
    box('name', zero, Buffer.from(name)),
    box('data', utf8, zero, Buffer.from(value)),
  );
}

/**
 * Appends freeform atoms to the ilst of an MP4 whose moov follows mdat (ffmpeg's default, so no
 * sample offset moves), growing each enclosing box: ffmpeg 4 cannot write these atoms itself.
 */
function addFreeformTags(file: string, tags: Record<string, string>): void {
  const bytes = readFileSync(file);
  const extra = Buffer.concat(Object.entries(tags).map(([k, v]) => freeform(k, v)));
  const path: number[] = [];
  // Walk moov > udta > meta (a full box: 4 bytes of version and flags) > ilst.
  const find = (start: number, end: number, type: string): number => {
    for (let at = start; at < end;) {
      const size = bytes.readUInt32BE(at);
      if (bytes.toString('latin1', at + 4, at + 8) === type) return at;
      at += size;
    }
    throw new Error(`no ${type} box`);
  };
  const moov = find(0, bytes.length, 'moov');
  const udta = find(moov + 8, moov + bytes.readUInt32BE(moov), 'udta');
  const meta = find(udta + 8, udta + bytes.readUInt32BE(udta), 'meta');
  const ilst = find(meta + 12, meta + bytes.readUInt32BE(meta), 'ilst');
  path.push(moov, udta, meta, ilst);
  if (moov + bytes.readUInt32BE(moov) !== bytes.length) throw new Error('moov is not last');
  for (const at of path) bytes.writeUInt32BE(bytes.readUInt32BE(at) + extra.length, at);
  const end = ilst + bytes.readUInt32BE(ilst) - extra.length;
  writeFileSync(file, Buffer.concat([bytes.subarray(0, end), extra, bytes.subarray(end)]));
}

/**
 * A six-second audiobook made by the project's ffmpeg carrying title, author, narrator, series and
 * position, genre and year tags, a PNG cover and two chapters. An .mp3 has ID3v2.3 frames (TPE1,
 * TXXX:NARRATOR, TXXX:SERIES, TXXX:SERIES-PART); an .m4b the iTunes atoms (©ART, ©gen, ©day) and
 * the freeform NARRATOR, SERIES and SERIES-PART atoms audiobook taggers write.
 */
export async function makeTaggedBook(extension: 'mp3' | 'm4b', tags: BookTags): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pal-book-'));
  const chapters = path.join(dir, 'chapters.txt');
  const cover = path.join(dir, 'cover.png');
  writeFileSync(chapters, FFMETADATA);
  writeFileSync(cover, TINY_PNG);
  const out = path.join(dir, `book.${extension}`);
  const mp3 = extension === 'mp3';
  const codec = mp3 ? ['-c:a', 'libmp3lame', '-id3v2_version', '3'] : ['-c:a', 'aac', '-f', 'ipod'];
  const custom = mp3 ? ['-metadata', `NARRATOR=${tags.narrator}`, '-metadata', `SERIES=${tags.series}`] : [];
  await run(ffmpegPath({ ffmpegPath: process.env.FFMPEG_PATH }), [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=6'],
    ...['-i', chapters, '-i', cover],
    ...['-map', '0:a', '-map', '2:v', '-map_metadata', '1', '-map_chapters', '1'],
    ...['-c:v', 'copy', '-disposition:v', 'attached_pic'],
    ...codec,
    ...['-metadata', `title=${tags.title}`, '-metadata', `artist=${tags.author}`],
    ...['-metadata', `genre=${tags.genre}`, '-metadata', `date=${tags.year}`],
    ...custom,
    ...(mp3 ? ['-metadata', `SERIES-PART=${tags.seriesPart}`] : []),
    out,
  ]);
  if (!mp3) {
    addFreeformTags(out, { NARRATOR: tags.narrator, SERIES: tags.series, 'SERIES-PART': tags.seriesPart });
  }
  return out;
}
