import type { Chapter } from '../chapters/chapter.entity.js';
import { coverImagePathOf, coverUrlOf, type FileLoaders } from './file-loaders.js';
import type { FileSummary } from './files.service.js';

/** A file as REST clients read it: the same fields as the GraphQL AudioFile type. */
export interface FileView {
  id: string;
  title: string;
  description: string | null;
  filename: string;
  size: number;
  duration: number;
  mimeType: string;
  isPublic: boolean;
  createdAt: Date;
  coverImagePath: string | null;
  /** The inline cover as a data: URL on a single file's answer; null in lists, which carry coverUrl. */
  coverImageBase64: string | null;
  coverUrl: string | null;
  coverThumbnailUrl: string | null;
  chapters?: ChapterView[];
}

export type ChapterView = Pick<
  Chapter,
  'id' | 'label' | 'startTime' | 'endTime' | 'order' | 'status' | 'plainSize' | 'encryptedSize' | 'finalizedAt'
>;

function chapterView(c: Chapter): ChapterView {
  return {
    id: c.id,
    label: c.label,
    startTime: c.startTime,
    endTime: c.endTime ?? null,
    order: c.order,
    status: c.status,
    plainSize: c.plainSize ?? null,
    encryptedSize: c.encryptedSize ?? null,
    finalizedAt: c.finalizedAt ?? null,
  };
}

interface ViewOptions {
  chapters?: boolean;
  /** The inline cover's bytes: a single file's answer only, where the spec's clients read them. */
  inlineCover?: boolean;
}

/**
 * Builds REST views through the batch loaders, so a list costs a fixed number of queries. Lists
 * name each cover by URL: inline base64 made a library page 30 times heavier and uncacheable.
 */
export async function presentFiles(
  files: FileSummary[],
  loaders: FileLoaders,
  options: ViewOptions = {},
): Promise<FileView[]> {
  return Promise.all(
    files.map(async (file) => {
      const [coverStorage, inline, chapters] = await Promise.all([
        loaders.coverStorageByFile.load(file.id),
        options.inlineCover ? loaders.coverDataUrlByFile.load(file.id) : null,
        options.chapters ? loaders.chaptersByFile.load(file.id) : null,
      ]);
      return {
        id: file.id,
        title: file.title,
        description: file.description ?? null,
        filename: file.filename,
        size: file.size,
        duration: file.duration,
        mimeType: file.mimeType,
        isPublic: file.isPublic,
        createdAt: file.createdAt,
        coverImagePath: coverImagePathOf(file.id, coverStorage),
        coverImageBase64: inline,
        coverUrl: coverUrlOf(file.id, coverStorage),
        coverThumbnailUrl: coverUrlOf(file.id, coverStorage, 'thumbnail'),
        ...(chapters ? { chapters: chapters.map(chapterView) } : {}),
      };
    }),
  );
}

export async function presentFile(
  file: FileSummary,
  loaders: FileLoaders,
  options: { chapters?: boolean } = {},
): Promise<FileView> {
  const [view] = await presentFiles([file], loaders, { ...options, inlineCover: true });
  return view;
}
