import type { Request } from 'express';
import { z } from 'zod';
import { searchSchema } from '../search-term.js';
import { pageSchema } from '../paging.js';

/** REST clients read a whole list in one call unless they page. */
export const REST_DEFAULT_LIMIT = 100;

/** `?search=&offset=&limit=` of a REST list: the services' own schemas, with REST's larger default page. */
export function listQuerySchema(searchDescription: string) {
  return z.object({
    search: searchSchema.unwrap().unwrap().optional().meta({ description: searchDescription }),
    offset: pageSchema.shape.offset,
    limit: pageSchema.shape.limit.unwrap().default(REST_DEFAULT_LIMIT),
  });
}

export interface ListQuery {
  search?: string;
  offset?: number;
  limit: number;
  /** Enum values of a list's filters, upper-cased as the services name them. */
  status?: string;
  sort?: string;
}

/** A list's query strings as the services take them; the services validate them. */
export function readListQuery(req: Request): ListQuery {
  const text = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined);
  const int = (name: string) => (text(name) === undefined ? undefined : Number(text(name)));
  return {
    search: text('search'),
    offset: int('offset'),
    limit: int('limit') ?? REST_DEFAULT_LIMIT,
    status: text('status')?.toUpperCase(),
    sort: text('sort')?.toUpperCase(),
  };
}
