/** A file chosen as one part of a book, with what its tags say. */
export interface BookPart {
  file: File;
  /** The title tag: the chapter this part starts. */
  title: string | null;
  /** The album tag: the book's title. */
  album: string | null;
  track: number | null;
}

/** Title, album and track number tags, read in the browser (music-metadata loads only here). */
export async function readBookPart(file: File): Promise<BookPart> {
  try {
    const { parseBlob } = await import('music-metadata');
    const { common } = await parseBlob(file, { duration: false, skipCovers: true });
    return {
      file,
      title: common.title?.trim() || null,
      album: common.album?.trim() || null,
      track: common.track.no ?? null,
    };
  } catch {
    return { file, title: null, album: null, track: null };
  }
}

const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' }).compare;

/**
 * The order the server joins parts in by default (api uploads/book-parts.ts joinOrder): by track
 * number, then by file name as a person reads it ("Part 2" before "Part 10").
 */
export function joinOrder(parts: readonly BookPart[]): BookPart[] {
  return [...parts].sort(
    (a, b) =>
      (a.track ?? Number.POSITIVE_INFINITY) - (b.track ?? Number.POSITIVE_INFINITY) || byName(a.file.name, b.file.name),
  );
}

/** What a part's chapter will be called: its title tag, else its file name without the extension. */
export const partLabel = (part: BookPart) => part.title ?? part.file.name.replace(/\.[^.]+$/, '');
