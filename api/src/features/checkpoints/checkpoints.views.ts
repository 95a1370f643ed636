import { z } from 'zod';
import { component, timestamp } from '../../http/contract.js';

/** The REST shape of a checkpoint, with the ids of the file and the owner. */
export const checkpointViewSchema = component(
  'Checkpoint',
  z
    .object({
      id: z.guid(),
      fileId: z.guid(),
      userId: z.guid(),
      timestamp: z.int().min(0).meta({ description: 'Whole seconds from the start.' }),
      name: z.string(),
      description: z.string().nullable(),
      createdAt: timestamp,
    })
    .meta({ description: 'A bookmark of yours in a file.' }),
);
export type CheckpointView = z.output<typeof checkpointViewSchema>;
