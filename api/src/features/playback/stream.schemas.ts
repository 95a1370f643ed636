import { z } from 'zod';
import { MAX_SIGNED_URL_MS } from '../../http/url-signing.js';

const expiresInSchema = z
  .number({ error: 'expiresIn must be a number of milliseconds' })
  .int('expiresIn must be a whole number of milliseconds')
  .min(1000, 'expiresIn must be at least 1000 ms')
  .max(MAX_SIGNED_URL_MS, `expiresIn must be at most ${MAX_SIGNED_URL_MS} ms (30 minutes)`)
  .default(MAX_SIGNED_URL_MS);

/** A signed playlist URL for a ready chapter: REST stream-url and the chapterStreamUrl mutation. */
export const chapterStreamUrlSchema = z.object({ expiresIn: expiresInSchema });

export const signedUrlSchema = z
  .object({
    startTime: z.number({ error: 'startTime must be a number of seconds' }).min(0, 'startTime must be 0 or more'),
    endTime: z
      .number({ error: 'endTime must be a number of seconds, or -1 for the end of the file' })
      .refine((v) => v === -1 || v > 0, 'endTime must be -1 (the end of the file) or a positive number of seconds')
      .default(-1),
    expiresIn: expiresInSchema,
  })
  .refine((v) => v.endTime === -1 || v.endTime > v.startTime, {
    message: 'endTime must be after startTime',
    path: ['endTime'],
  });

export type SignedUrlRequest = z.output<typeof signedUrlSchema>;
