import { z } from 'zod';
import { idField } from '../../validation.js';

const name = z
  .string({ error: 'Collection name is required' })
  .trim()
  .min(1, 'Collection name is required')
  .max(200, 'Collection name must be at most 200 characters');

/** Blank is none (null). */
const description = z
  .string({ error: 'Description must be text' })
  .trim()
  .max(2000, 'Description must be at most 2000 characters')
  .nullable()
  .transform((text) => (text ? text : null));

/** A new collection: REST POST /admin/collections and the createCollection mutation. */
export const createCollectionSchema = z.object({ name, description: description.optional().default(null) });

/** A rename or a new description; what is left out stays as it is. */
export const updateCollectionSchema = z.object({ name: name.optional(), description: description.optional() });

/** A file to add to a collection (at its end). */
export const collectionFileSchema = z.object({ fileId: idField('fileId') });

/** Every file of the collection, once each, in the new order. */
export const reorderCollectionSchema = z.object({
  fileIds: z
    .array(idField('fileIds'), { error: 'fileIds must be a list of file ids' })
    .max(1000, 'A collection holds at most 1000 files')
    .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, 'fileIds must not repeat a file'),
});

/** How many files a "Want to listen" list returns (REST ?limit= and the GraphQL argument). */
export const wantToListenLimitSchema = z
  .number({ error: 'limit must be a whole number between 1 and 100' })
  .int('limit must be a whole number between 1 and 100')
  .min(1, 'limit must be a whole number between 1 and 100')
  .max(100, 'limit must be a whole number between 1 and 100')
  .default(50);

export type CreateCollectionRequest = z.output<typeof createCollectionSchema>;
export type UpdateCollectionRequest = z.input<typeof updateCollectionSchema>;
