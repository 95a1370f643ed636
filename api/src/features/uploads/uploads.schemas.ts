import { z } from 'zod';
import { idField } from '../../validation.js';
import { bookDetailsSchema } from '../catalog/catalog.schemas.js';
import { coverStorageTypeSchema } from '../files/files.schemas.js';

/** The client's chunk size (spec section 9); init's totalChunks must agree with it. */
export const CHUNK_SIZE = 5 * 1024 * 1024;
/** The largest audio file accepted, direct or chunked (the spec shows "2GB"). */
export const MAX_FILE_SIZE = 2 * 1024 * 1024 * 1024;
export const FILE_TOO_LARGE = 'File is too large: the maximum size is 2GB';
export const NO_FILE = 'Please select a file to upload';

const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', 'off', ''])])
  .nullish()
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'on');

/**
 * The form fields shared by POST /files, chunked finalize and the GraphQL finalize. A book detail
 * typed here wins over the file's tag; a blank one takes the tag.
 */
export const fileDetailsSchema = bookDetailsSchema.extend({
  title: z.string().trim().max(200, 'Title must be at most 200 characters').nullish(),
  description: z.string().trim().max(5000, 'Description must be at most 5000 characters').optional().nullable(),
  isPublic: formBoolean,
  coverStorageType: coverStorageTypeSchema,
});
export type FileDetails = z.input<typeof fileDetailsSchema>;

/** The most parts one book may have: a 2 GB book in 500 parts is 4 MB a part already. */
export const MAX_BOOK_PARTS = 500;

export const bookOrderSchema = z.enum(['tags', 'given']).optional().default('tags').meta({
  description:
    'tags: by track number tag, then by file name as a person reads it ("2" before "10"); given: the order of uploadIds.',
});

/** Joins the parts of one book, each a complete chunked upload, into one file. */
export const joinBookSchema = fileDetailsSchema.extend({
  uploadIds: z
    .array(idField('uploadId'), { error: 'uploadIds must be a list of upload ids' })
    .min(2, 'A book in parts needs at least 2 parts')
    .max(MAX_BOOK_PARTS, `A book may have at most ${MAX_BOOK_PARTS} parts`)
    .refine((ids) => new Set(ids).size === ids.length, 'Each part may be given only once'),
  order: bookOrderSchema,
});
export type JoinBookInput = z.input<typeof joinBookSchema>;

const sha256Hex = z
  .string()
  .trim()
  .regex(/^[0-9a-fA-F]{64}$/, 'fileHash must be a SHA-256 hex digest')
  .transform((h) => h.toLowerCase());

export const initUploadSchema = z
  .object({
    fileName: z.string().trim().min(1, 'fileName is required').max(255, 'fileName must be at most 255 characters'),
    fileSize: z
      .number({ error: 'fileSize must be a number of bytes' })
      .int('fileSize must be a whole number of bytes')
      .min(1, 'The file is empty')
      .max(MAX_FILE_SIZE, FILE_TOO_LARGE),
    totalChunks: z.number({ error: 'totalChunks must be a number' }).int('totalChunks must be a whole number').min(1),
    fileHash: sha256Hex,
    mimeType: z.string().trim().max(100).optional().default('application/octet-stream'),
    metadata: z.record(z.string(), z.unknown()).optional().nullable(),
  })
  .refine((v) => v.totalChunks === Math.ceil(v.fileSize / CHUNK_SIZE), {
    message: `totalChunks does not match fileSize in chunks of ${CHUNK_SIZE} bytes`,
    path: ['totalChunks'],
  });
export type InitUploadInput = z.input<typeof initUploadSchema>;

const headerInt = (name: string) =>
  z
    .string({ error: `${name} header is required` })
    .regex(/^\d{1,12}$/, `${name} header must be a whole number`)
    .transform(Number);

/** The chunk request's headers, as the spec's client sends them, by the key the service reads each under. */
export const chunkHeaderNames = {
  uploadId: 'X-Upload-ID',
  chunkIndex: 'X-Chunk-Index',
  totalChunks: 'X-Total-Chunks',
  fileSize: 'X-File-Size',
  fileName: 'X-File-Name',
} as const;

// The id comes last: a malformed one is reported after the other headers, as it always was.
export const chunkHeadersSchema = z.object({
  chunkIndex: headerInt('X-Chunk-Index').meta({ description: 'From 0 to totalChunks - 1.' }),
  totalChunks: headerInt('X-Total-Chunks').meta({ description: 'As given to init.' }),
  fileSize: headerInt('X-File-Size').meta({ description: 'Bytes, as given to init.' }),
  fileName: z.string().optional().meta({ description: 'URI-encoded; when sent, as given to init.' }),
  uploadId: idField('uploadId', 'X-Upload-ID header is required').meta({ description: 'The id init answered.' }),
});
/** Raw header values; missing ones are reported by the schema. */
export type ChunkHeaders = { [K in keyof typeof chunkHeaderNames]?: string };
