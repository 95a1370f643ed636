import { z } from 'zod';
import { component, timestamp } from '../../http/contract.js';
import { chapterView, chapterViewSchema } from '../chapters/chapter-view.js';
import { coverImagePathOf, coverUrlOf, type FileLoaders } from './file-loaders.js';
import type { FileSummary } from './files.service.js';

/** A file as REST clients read it: the same fields as the GraphQL AudioFile type. */
export const fileViewSchema = component(
  'AudioFile',
  z
    .object({
      id: z.guid(),
      title: z.string(),
      description: z.string().nullable(),
      filename: z.string(),
      size: z.number().meta({ description: 'Bytes.' }),
      duration: z.number().meta({ description: 'Seconds.' }),
      mimeType: z.string(),
      isPublic: z.boolean(),
      createdAt: timestamp,
      coverImagePath: z
        .string()
        .nullable()
        .meta({ description: 'GET this URL (with your credentials) for a file-stored cover; null otherwise.' }),
      coverImageBase64: z.string().nullable().meta({
        description: 'The inline cover as a data: URL, on a single file only (null in lists, which carry coverUrl).',
      }),
      coverUrl: z
        .string()
        .nullable()
        .meta({ description: 'GET this URL for the cover, whichever the storage; null without one.' }),
      coverThumbnailUrl: z.string().nullable().meta({ description: 'As coverUrl, at most 512 px on its long side.' }),
      chapters: z.array(chapterViewSchema).optional().meta({ description: 'In order; on a single file only.' }),
    })
    .meta({ description: 'An audio file of the library.' }),
);
export type FileView = z.output<typeof fileViewSchema>;

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
