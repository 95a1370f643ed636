/**
 * What an audio file's own tags say, read in the browser before upload so the form shows it,
 * prefilled and editable. music-metadata reads only the tag blocks of the Blob (never the whole
 * file) and loads on demand with the upload page. The server reads the same tags again once the
 * upload has answered (api uploads/file-import-job.ts), for fields the form left blank.
 */
export interface ReadTags {
  title: string | null;
  description: string | null;
  subtitle: string | null;
  authors: string[];
  narrators: string[];
  series: string | null;
  seriesPosition: string | null;
  year: number | null;
  publisher: string | null;
  genres: string[];
  language: string | null;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
const texts = (values: readonly unknown[] | undefined) => [
  ...new Set((values ?? []).map(text).filter((v): v is string => v !== null)),
];

type Native = Record<string, { id: string; value: unknown }[]>;

function nativeValue(native: Native, ids: string[]): string | null {
  const wanted = new Set(ids.map((id) => id.toUpperCase()));
  for (const tags of Object.values(native)) {
    for (const tag of tags) {
      if (!wanted.has(tag.id.toUpperCase())) continue;
      const value = tag.value as unknown;
      if (typeof value === 'string' || typeof value === 'number') return text(String(value));
      if (value && typeof value === 'object' && 'text' in value) return text(value.text);
    }
  }
  return null;
}

/** The file's tags; null when they cannot be read (the server still reads what it can). */
export async function readTags(file: File): Promise<ReadTags | null> {
  try {
    const { parseBlob } = await import('music-metadata');
    const { common, native } = await parseBlob(file, { duration: false, skipCovers: true });
    const narrator = nativeValue(native, ['TXXX:NARRATOR', '©nrt', '----:com.apple.iTunes:NARRATOR', 'NARRATOR']);
    const position =
      nativeValue(native, ['TXXX:SERIES-PART', '----:com.apple.iTunes:SERIES-PART', 'SERIES-PART']) ??
      (common.movementIndex?.no ? String(common.movementIndex.no) : null);
    return {
      title: text(common.title ?? common.album),
      description: text(common.description?.[0] ?? common.longDescription ?? common.comment?.[0]?.text),
      subtitle: text(common.subtitle?.[0]) ?? nativeValue(native, ['TXXX:SUBTITLE', '----:com.apple.iTunes:SUBTITLE']),
      authors: texts(common.albumartists?.length ? common.albumartists : (common.artists ?? [common.artist])),
      narrators: narrator ? [narrator] : texts(common.composer),
      series: nativeValue(native, ['TXXX:SERIES', '----:com.apple.iTunes:SERIES', 'SERIES']) ?? text(common.movement),
      seriesPosition: position,
      year: common.year ?? null,
      publisher: text(common.publisher?.[0] ?? common.label?.[0]),
      genres: texts(common.genre),
      language: text(common.language),
    };
  } catch {
    return null;
  }
}
