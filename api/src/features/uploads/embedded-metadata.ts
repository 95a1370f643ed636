/**
 * What an uploaded file says about itself: its tags, embedded cover and chapter list, read with
 * music-metadata from the bytes on disk (random access, never the whole file in memory).
 *
 * Every field is what a tag says or empty: nothing is guessed. A file whose tags cannot be read is
 * still a valid upload (the audio itself was checked by the probe), so a parse failure reads as a
 * file without tags.
 */
import { parseFile, type IAudioMetadata, type IChapter } from 'music-metadata';
import { noBookValues, type BookValues } from '../catalog/book-catalog.js';
import { timelineProblem } from '../chapters/chapter-timeline.js';
import { COVER_MAX_BYTES, sniffImageType, type ReceivedCover } from '../files/cover-storage.js';

export interface EmbeddedChapter {
  label: string;
  /** Seconds from the start of the file. */
  startTime: number;
  /** Seconds; null where the file gives none (the next chapter's start or the end applies). */
  endTime: number | null;
}

/** What the file's own tags say: a book's details (catalog's fields) plus title, description, cover, chapters. */
export interface EmbeddedMetadata extends BookValues {
  title: string | null;
  description: string | null;
  cover: ReceivedCover | null;
  chapters: EmbeddedChapter[];
}

export const noEmbeddedMetadata: EmbeddedMetadata = {
  ...noBookValues,
  title: null,
  description: null,
  cover: null,
  chapters: [],
};

/** Tag ids that name a narrator or a series outright, by container (ID3v2, MP4/iTunes, Vorbis/APE). */
const narratorTags = ['TXXX:NARRATOR', '©nrt', '----:com.apple.iTunes:NARRATOR', 'NARRATOR', 'Narrator'];
const seriesTags = ['TXXX:SERIES', '----:com.apple.iTunes:SERIES', 'SERIES', 'Series'];
/** ffmpeg writes a `comment` as a TXXX frame, not COMM; other taggers name it description. */
const descriptionTags = ['TXXX:comment', 'TXXX:COMMENT', 'TXXX:DESCRIPTION', 'TXXX:description'];
const seriesPartTags = ['TXXX:SERIES-PART', '----:com.apple.iTunes:SERIES-PART', 'SERIES-PART', 'SERIESPART'];
/** TIT3 reaches `common.subtitle`; ffmpeg and some taggers write a TXXX frame instead. */
const subtitleTags = ['TXXX:SUBTITLE', '----:com.apple.iTunes:SUBTITLE', 'SUBTITLE'];

function text(value: string | null | undefined, max: number): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, max) : null;
}

function texts(values: readonly (string | null | undefined)[] | undefined, max = 200): string[] {
  const kept = (values ?? []).map((v) => text(v, max)).filter((v): v is string => v !== null);
  return [...new Set(kept)];
}

/**
 * The values of any of `ids` among the native tags of every container the file carries, ids
 * compared ignoring case (ffmpeg writes `TXXX:series`, taggers `TXXX:SERIES`).
 */
function nativeValues(native: IAudioMetadata['native'], ids: readonly string[]): string[] {
  const wanted = new Set(ids.map((id) => id.toUpperCase()));
  const found: string[] = [];
  for (const tags of Object.values(native)) {
    for (const tag of tags) {
      if (!wanted.has(tag.id.toUpperCase())) continue;
      const value = tag.value as unknown;
      if (typeof value === 'string') found.push(value);
      else if (typeof value === 'number') found.push(String(value));
      else if (value && typeof value === 'object' && 'text' in value && typeof value.text === 'string') {
        found.push(value.text);
      }
    }
  }
  return texts(found, 5000);
}

function coverOf(metadata: IAudioMetadata): ReceivedCover | null {
  const pictures = metadata.common.picture ?? [];
  const front = pictures.find((p) => /front/i.test(p.type ?? '')) ?? pictures[0];
  if (!front || front.data.length === 0 || front.data.length > COVER_MAX_BYTES) return null;
  const bytes = Buffer.from(front.data);
  const mimeType = sniffImageType(bytes);
  return mimeType ? { bytes, mimeType } : null;
}

/** ID3v2 CHAP frames give seconds; MP4 chapter tracks and Nero lists give units of their timeScale. */
function seconds(chapter: IChapter, value: number): number {
  return chapter.timeScale ? value / chapter.timeScale : value;
}

function chaptersOf(metadata: IAudioMetadata): EmbeddedChapter[] {
  const chapters = metadata.format.chapters ?? [];
  return chapters.map((chapter, i) => {
    const end = chapter.end === undefined ? null : seconds(chapter, chapter.end);
    return {
      // A chapter row needs a label; an untitled chapter in the file is called by its place.
      label: text(chapter.title, 200) ?? `Chapter ${i + 1}`,
      startTime: seconds(chapter, chapter.start),
      endTime: end !== null && Number.isFinite(end) ? end : null,
    };
  });
}

/** Reads tags, cover and chapters from the file at `filePath`; empty where the file says nothing. */
export async function readEmbeddedMetadata(filePath: string): Promise<EmbeddedMetadata> {
  let metadata: IAudioMetadata;
  try {
    metadata = await parseFile(filePath, { includeChapters: true, duration: false });
  } catch {
    return noEmbeddedMetadata;
  }
  const { common, native } = metadata;
  const comment = common.comment?.map((c) => c.text);
  const narrators = nativeValues(native, narratorTags);
  return {
    // A book's title is its album where a file carries only part titles and the album.
    title: text(common.title ?? common.album, 200),
    subtitle: text(common.subtitle?.[0] ?? nativeValues(native, subtitleTags)[0], 200),
    authors: texts(common.albumartists?.length ? common.albumartists : (common.artists ?? [common.artist])),
    // Audiobook tools without a narrator tag put the narrator in the composer (as Audiobookshelf reads it).
    narrators: narrators.length ? narrators : texts(common.composer),
    series: text(nativeValues(native, seriesTags)[0] ?? common.movement, 200),
    seriesPosition: text(
      nativeValues(native, seriesPartTags)[0] ??
        (common.movementIndex.no === null ? undefined : String(common.movementIndex.no)),
      20,
    ),
    year: common.year ?? null,
    publisher: text(common.publisher?.[0] ?? common.label?.[0], 200),
    genres: texts(common.genre),
    language: text(common.language, 50),
    description: text(
      common.description?.[0] ?? common.longDescription ?? comment?.[0] ?? nativeValues(native, descriptionTags)[0],
      5000,
    ),
    cover: coverOf(metadata),
    chapters: chaptersOf(metadata),
  };
}

/**
 * The file's chapters as they fit the probed duration: the tag reader and the probe may disagree
 * by a frame at the end, so a last end past the duration becomes the end. A list that still cannot
 * stand (overlaps, a start past the end) is left out whole rather than half taken.
 */
export function chaptersFitting(chapters: readonly EmbeddedChapter[], duration: number): EmbeddedChapter[] {
  const fitted = chapters.map((c) => ({
    ...c,
    endTime: c.endTime !== null && c.endTime > duration ? duration : c.endTime,
  }));
  return timelineProblem(fitted, duration) ? [] : fitted;
}
