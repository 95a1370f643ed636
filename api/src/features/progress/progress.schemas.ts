import { z } from 'zod';

/** A listening position to store: REST PUT /progress/{fileId} and the saveProgress mutation. */
export const saveProgressSchema = z.object({
  position: z
    .number({ error: 'position must be a number of seconds' })
    .finite('position must be a number of seconds')
    .min(0, 'position must be 0 or more'),
  finished: z.boolean({ error: 'finished must be true or false' }).optional(),
});

export type SaveProgressRequest = z.output<typeof saveProgressSchema>;
