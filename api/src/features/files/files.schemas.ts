import { z } from 'zod';
import { idSchema } from '../../validation.js';
import { coverSizes } from './cover-thumbnail.js';
import { CoverStorage } from './cover.entity.js';
import { FileStatusFilter } from './files.types.js';
import { LibrarySort } from './library-order.js';

/** Multipart forms send every value as text, so booleans arrive as 'true' or 'false'. */
const formBoolean = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
  error: 'must be true or false',
});

/** Where a new cover is kept: a file under DATA_DIR (also for blank or absent) or inline base64. */
export const coverStorageTypeSchema = z
  .enum([...Object.values(CoverStorage), ''], { error: "coverStorageType must be 'file' or 'base64'" })
  .nullish()
  .transform((v) => (v === CoverStorage.base64 ? CoverStorage.base64 : CoverStorage.file));

/** A file's details as an administrator changes them: REST PUT /admin/files/{id} and updateFile. */
export const updateFileSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Please enter a title for the audio file')
    .max(200, 'Title must be at most 200 characters')
    .nullish(),
  description: z
    .string()
    .max(5000, 'Description must be at most 5000 characters')
    .nullish()
    .transform((v) => (v === undefined ? undefined : v?.trim() || null))
    .meta({ description: 'Null or blank clears it.' }),
  isPublic: formBoolean.nullish(),
  removeCover: formBoolean.nullish(),
  coverStorageType: coverStorageTypeSchema,
});

/** Which files an administrator's list shows. */
export const fileStatusSchema = z.enum(FileStatusFilter, { error: 'status must be ALL, PUBLIC or PRIVATE' });

/** The orders of the library, as the REST query and the GraphQL argument name them. */
export const librarySortSchema = z.enum(LibrarySort);

/** `?size=` of a cover: the original, or the card-sized copy. */
export const coverSizeSchema = z
  .enum(coverSizes, { error: "size must be 'full' or 'thumbnail'" })
  .default('full')
  .meta({ description: 'thumbnail: a WebP copy at most 512 px on its long side.' });

const libraryFilters = {
  authorId: idSchema.meta({ description: 'Only books this person wrote.' }),
  narratorId: idSchema.meta({ description: 'Only books this person reads.' }),
  seriesId: idSchema.meta({ description: 'Only books of this series.' }),
  genre: z
    .string()
    .max(200, 'genre must be at most 200 characters')
    .meta({ description: 'Only books with this genre, as the genres list names it.' }),
};

/** The library's filters by book details (GraphQL arguments, null meaning none); each narrows the list. */
export const libraryFilterSchema = z.object({
  authorId: libraryFilters.authorId.nullish(),
  narratorId: libraryFilters.narratorId.nullish(),
  seriesId: libraryFilters.seriesId.nullish(),
  genre: libraryFilters.genre.nullish(),
});

/** The same filters as REST query strings. */
export const libraryFilterQuerySchema = z.object({
  authorId: libraryFilters.authorId.optional(),
  narratorId: libraryFilters.narratorId.optional(),
  seriesId: libraryFilters.seriesId.optional(),
  genre: libraryFilters.genre.optional(),
});
