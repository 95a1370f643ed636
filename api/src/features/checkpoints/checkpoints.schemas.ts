import { z } from 'zod';
import { idField } from '../../validation.js';

/** A bookmark: REST POST /checkpoints and the createCheckpoint mutation. */
export const createCheckpointSchema = z.object({
  fileId: idField('fileId'),
  timestamp: z
    .number({ error: 'timestamp must be a number of seconds' })
    .finite('timestamp must be a number of seconds')
    .meta({ description: "Seconds; rounded to a whole second and clamped to the file's duration." }),
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(200, 'Name must be at most 200 characters'),
  description: z
    .string()
    .max(2000, 'Description must be at most 2000 characters')
    .nullish()
    .transform((v) => v?.trim() || null),
});
