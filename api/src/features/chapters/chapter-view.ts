import { z } from 'zod';
import { component, timestamp } from '../../http/contract.js';
import { ChapterStatus, SegmentStorage, type Chapter } from './chapter.entity.js';

/** The REST shape of a chapter: the spec's fields and its file's id, never the playlist or key. */
export const chapterViewSchema = component(
  'Chapter',
  z
    .object({
      id: z.guid(),
      fileId: z.guid(),
      label: z.string(),
      startTime: z.number().meta({ description: 'Seconds from the start of the file.' }),
      endTime: z.number().nullable().meta({ description: 'Seconds; null means up to the next chapter or the end.' }),
      order: z.int(),
      status: z.enum(ChapterStatus),
      plainSize: z.number().nullable().meta({ description: 'Bytes of the encoded audio before encryption.' }),
      encryptedSize: z.number().nullable().meta({ description: 'Bytes of the encrypted segments.' }),
      finalizedAt: timestamp.nullable(),
      createdAt: timestamp,
    })
    .meta({ description: 'A range of a file, cut, encrypted and streamed as AES-128 HLS once finalized.' }),
);

/** What administrators see besides: where the segments are kept and why finalizing failed. */
export const adminChapterViewSchema = component(
  'AdminChapter',
  chapterViewSchema
    .extend({
      storageType: z.enum(SegmentStorage).nullable(),
      error: z.string().nullable().meta({ description: 'Why finalizing failed.' }),
    })
    .meta({ description: 'A chapter as administrators see it.' }),
);

export type ChapterView = z.output<typeof chapterViewSchema>;
export type AdminChapterView = z.output<typeof adminChapterViewSchema>;

export function chapterView(c: Chapter): ChapterView {
  return {
    id: c.id,
    fileId: c.file.id,
    label: c.label,
    startTime: c.startTime,
    endTime: c.endTime ?? null,
    order: c.order,
    status: c.status,
    plainSize: c.plainSize ?? null,
    encryptedSize: c.encryptedSize ?? null,
    finalizedAt: c.finalizedAt ?? null,
    createdAt: c.createdAt,
  };
}

export function adminChapterView(c: Chapter): AdminChapterView {
  return { ...chapterView(c), storageType: c.storageType ?? null, error: c.error ?? null };
}
