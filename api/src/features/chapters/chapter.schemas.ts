import { z } from 'zod';
import { SegmentStorage } from './chapter.entity.js';

const label = z
  .string({ error: 'Chapter label is required' })
  .trim()
  .min(1, 'Chapter label is required')
  .max(200, 'Chapter label must be at most 200 characters');
const startTime = z
  .number({ error: 'Start time must be a number of seconds' })
  .finite('Start time must be a number of seconds')
  .min(0, 'Start time must be 0 or more');
const endTime = z
  .number({ error: 'End time must be a number of seconds, or empty' })
  .finite('End time must be a number of seconds, or empty')
  .nullable();

export const chapterInputSchema = z.object({
  label,
  startTime,
  endTime: endTime.default(null),
  order: z.number().int('order must be a whole number').min(0, 'order must be 0 or more').optional(),
});

export const createChaptersSchema = z.object({
  chapters: z
    .array(chapterInputSchema, { error: 'chapters must be a list' })
    .min(1, 'Give at least one chapter')
    .max(200, 'At most 200 chapters at a time'),
});

export const updateChapterSchema = z.object({
  label: label.optional(),
  startTime: startTime.optional(),
  endTime: endTime.optional(),
});

export const finalizeSchema = z.object({
  storageType: z
    .enum([SegmentStorage.database, SegmentStorage.filesystem], {
      error: "storageType must be 'database' or 'filesystem'",
    })
    .default(SegmentStorage.filesystem),
});

export type ChapterInput = z.output<typeof chapterInputSchema>;
