/**
 * The parts of a book uploaded as several files: what each part says about itself, the order they
 * are joined in, the chapters they start, and whether they can be joined without re-encoding.
 */
import path from 'node:path';
import { parseFile } from 'music-metadata';
import { AppError } from '../../errors.js';
import type { AudioProbe } from '../media/probe.js';
import type { EmbeddedChapter } from './embedded-metadata.js';

export interface PartTags {
  /** The part's own title tag (a chapter's name), null without one. */
  title: string | null;
  /** The album tag: the book's title, where the parts carry it. */
  album: string | null;
  /** The track number tag, null without one. */
  track: number | null;
}

export interface BookPart {
  fileName: string;
  tags: PartTags;
}

const noTags: PartTags = { title: null, album: null, track: null };

function text(value: string | null | undefined, max: number): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, max) : null;
}

/** Title, album and track number of one part; a part whose tags cannot be read has none. */
export async function readPartTags(filePath: string): Promise<PartTags> {
  try {
    const { common } = await parseFile(filePath, { duration: false, skipCovers: true });
    return { title: text(common.title, 200), album: text(common.album, 200), track: common.track.no ?? null };
  } catch {
    return noTags;
  }
}

const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' }).compare;

/**
 * The order the parts are joined in: by track number, then by file name as a person reads it
 * ("Part 2" before "Part 10"); parts without a track number follow those with one.
 */
export function joinOrder<T extends BookPart>(parts: readonly T[]): T[] {
  return [...parts].sort(
    (a, b) =>
      (a.tags.track ?? Number.POSITIVE_INFINITY) - (b.tags.track ?? Number.POSITIVE_INFINITY) ||
      byName(a.fileName, b.fileName),
  );
}

function nameWithoutExtension(fileName: string): string {
  const base = path.basename(fileName);
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).slice(0, 200) || base.slice(0, 200);
}

/** One chapter per part, in join order, starting where the parts before it end. */
export function partChapters(parts: readonly (BookPart & { duration: number })[]): EmbeddedChapter[] {
  let start = 0;
  return parts.map((part, i) => {
    const chapter = {
      label: part.tags.title ?? (nameWithoutExtension(part.fileName) || `Part ${i + 1}`),
      startTime: start,
      endTime: null,
    };
    start += part.duration;
    return chapter;
  });
}

function describeStream(probe: AudioProbe): string {
  return [probe.codec, probe.sampleRate ? `${probe.sampleRate} Hz` : null, probe.channels].filter(Boolean).join(', ');
}

/**
 * Refuses parts that a stream copy cannot join: every part must share the first one's container,
 * codec, sample rate and channels. Re-encoding instead would cost quality and, for a 2 GB book,
 * far longer than a request should last; the message says which part differs.
 */
export function checkJoinable(parts: readonly { fileName: string; probe: AudioProbe }[]): void {
  const [first, ...rest] = parts;
  const expected = describeStream(first.probe);
  for (const part of rest) {
    if (part.probe.format !== first.probe.format || describeStream(part.probe) !== expected) {
      throw new AppError(
        'BAD_USER_INPUT',
        `The parts cannot be joined without re-encoding: "${part.fileName}" is ${part.probe.format} (${describeStream(part.probe)}) but "${first.fileName}" is ${first.probe.format} (${expected}). Convert the parts to one format first.`,
      );
    }
  }
}
