import type { Chapter } from '../chapters/chapter.entity.js';
import { coverImagePathOf, type FileLoaders } from './file-loaders.js';
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
  coverImageBase64: string | null;
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

/** Builds REST views through the batch loaders, so a list costs a fixed number of queries. */
export async function presentFiles(
  files: FileSummary[],
  loaders: FileLoaders,
  options: { chapters?: boolean } = {},
): Promise<FileView[]> {
  return Promise.all(
    files.map(async (file) => {
      const [coverStorage, inline, chapters] = await Promise.all([
        loaders.coverStorageByFile.load(file.id),
        loaders.coverDataUrlByFile.load(file.id),
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
  const [view] = await presentFiles([file], loaders, options);
  return view;
}
