import { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import { idSchema } from '../validation.js';

/**
 * The REST contract: what a route declaration (route.ts) says about its wire, from the zod schemas
 * its service validates with. The OpenAPI document is generated from it (openapi-document.ts).
 */

export type HttpMethod = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: anyone; a signed-in caller (device session or API key); an administrator;
 * whoever holds the credential the URL carries (stream token, signed URL, chapter grant); or an
 * API key only (a device session is refused).
 */
export type Caller = 'anyone' | 'signedIn' | 'admin' | 'url' | 'apiKey';

/** Groups of the document, with their descriptions. */
export const tags = {
  auth: 'Sign-in, registration and your own account.',
  devices: "Your device sessions (the single-device policy's view).",
  library: 'The files you may see and their covers.',
  chapters: 'Chapters: listing, editing, finalizing into AES-128 HLS, and their playback.',
  streaming: "Stream sessions, signed seek URLs and the audio bytes behind them; an API key's audio.",
  catalog: 'Authors, narrators, series and genres of the books you may see; book details (edited by administrators).',
  checkpoints: 'Your bookmarks in a file.',
  progress: 'Where you are in each file; continue listening.',
  stats: 'Your listening time and finished books; for administrators, the most played books and active listeners.',
  collections: 'Collections curated by administrators, and your own "Want to listen" list.',
  uploads: 'Direct and resumable chunked uploads (administrators).',
  'admin-files': 'Every file, its details, cover and deletion (administrators).',
  'admin-users': 'Accounts, their locks and device sessions (administrators).',
  access: 'Per-file access grants (administrators).',
  'api-keys': 'Service credentials for scripts (administrators, from a signed-in device).',
  backup: 'A backup of the whole library, and how the scheduled ones went (administrators).',
  meta: 'This document.',
} as const;
export type Tag = keyof typeof tags;

export interface HeaderDoc {
  description: string;
  schema: z.ZodType;
}

/** A success answer: a JSON body, bytes of a media type, or nothing (304, HEAD). */
export interface Answer {
  description: string;
  json?: z.ZodType;
  /** Media type of a bytes answer, e.g. `audio/*`. */
  bytes?: string;
  headers?: Record<string, HeaderDoc>;
}

export interface RouteContract {
  operationId: string;
  method: HttpMethod;
  /** The Express path under /api/v1, `:name` for a parameter. */
  path: string;
  tag: Tag;
  summary: string;
  description?: string;
  caller: Caller;
  /** One schema per `:name` of the path. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Request headers the route reads, by header name. */
  headers?: z.ZodObject;
  body?: {
    required: boolean;
    json?: z.ZodType;
    multipart?: z.ZodType;
    /** Set when the body is not JSON: a JSON body is then refused (415). */
    description?: string;
  };
  /** Success answers by status. */
  answers: Partial<Record<200 | 201 | 204 | 206 | 304, Answer>>;
  /** Failures particular to the route; those every route of its kind can answer are added (document). */
  errors?: ErrorCode[];
}

const components = new Map<string, z.ZodType>();

/**
 * Names a shape several answers share (User, AudioFile...): the document lists it once under
 * components and refers to it. Returns the schema itself.
 */
export function component<S extends z.ZodType>(id: string, schema: S): S {
  const known = components.get(id);
  if (known && known !== schema) throw new Error(`Two REST components are named ${id}`);
  components.set(id, schema);
  return schema;
}

export function namedComponents(): ReadonlyMap<string, z.ZodType> {
  return components;
}

/** An id in a path or body: a UUID (any version), as parseId accepts it. */
export const idParam = (description: string) => idSchema.meta({ description });

/**
 * A time as JSON carries it (ISO 8601, UTC): parsing a wire body gives a Date, and the document
 * shows the string (see the override in openapi-document.ts).
 */
export const timestamp = z.codec(z.iso.datetime(), z.date(), {
  decode: (text) => new Date(text),
  encode: (date) => date.toISOString(),
});

/** A file part of a multipart form. */
export const filePart = (mediaType: string, description: string) =>
  z.string().meta({ format: 'binary', contentMediaType: mediaType, description });

/**
 * The REST success body: `{ success: true, data, message? }`, plus the fields some clients read
 * beside `data` (spec section 7).
 */
export function dataBody<D extends z.ZodType, E extends z.ZodRawShape = Record<never, never>>(data: D, extra?: E) {
  return z.object({
    success: z.literal(true),
    message: z.string().optional().meta({ description: 'What happened, in words for a person.' }),
    data,
    ...(extra ?? ({} as E)),
  });
}

/** A success body with no payload (deletions, logout). */
export const doneBody = component('Done', dataBody(z.null(), { message: z.string() }));
