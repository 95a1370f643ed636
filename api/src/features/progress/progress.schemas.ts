import { z } from 'zod';

/** A listening position to store: REST PUT /progress/{fileId} and the saveProgress mutation. */
export const saveProgressSchema = z.object({
  position: z
    .number({ error: 'position must be a number of seconds' })
    .finite('position must be a number of seconds')
    .min(0, 'position must be 0 or more'),
  finished: z.boolean({ error: 'finished must be true or false' }).optional(),
});

/** Marking a file finished or not: REST PUT /progress/{fileId}/finished and the markFinished mutation. */
export const markFinishedSchema = z.object({
  finished: z.boolean({ error: 'finished must be true or false' }),
});

/** How many files "Continue listening" and "Finished" list (REST ?limit= and the GraphQL argument). */
export const progressListLimitSchema = z
  .number({ error: 'limit must be a whole number between 1 and 50' })
  .int('limit must be a whole number between 1 and 50')
  .min(1, 'limit must be a whole number between 1 and 50')
  .max(50, 'limit must be a whole number between 1 and 50')
  .default(10);

export type SaveProgressRequest = z.output<typeof saveProgressSchema>;
