import type { Request, Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Ctx } from '../context.js';
import { printSchemaSdl } from './schema.js';

/** Where the schema's SDL is served, for tools that read a schema file rather than introspect. */
export const schemaSdlPath = '/graphql/schema.graphql';

/**
 * GET /graphql/schema.graphql: the SDL (the committed schema.graphql), to the callers `requireCaller`
 * lets through: signed-in callers and API keys, as introspection is; anonymous callers get 401 there too.
 */
export function schemaSdl(schema: GraphQLSchema, requireCaller: (ctx: Ctx) => unknown) {
  const sdl = printSchemaSdl(schema);
  return (_req: Request, res: Response): void => {
    requireCaller(res.locals.ctx);
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.send(sdl);
  };
}
