import { z } from 'zod';
import { openApiDocument } from './openapi-document.js';
import type { Route } from './route.js';

/**
 * GET /api/v1/openapi.json: public, it describes the API and holds no data. `all` gives every
 * declared route, this one among them; the document is made once, on the first request.
 */
export function openApiRoute(all: () => readonly Route[]): Route {
  let document: ReturnType<typeof openApiDocument> | undefined;
  return {
    operationId: 'openApiDocument',
    method: 'get',
    path: '/openapi.json',
    tag: 'meta',
    summary: 'This document',
    description: 'Public: it describes the API and holds no data.',
    caller: 'anyone',
    scopes: [],
    answers: {
      200: {
        description: 'The OpenAPI 3.1 document, generated from the same zod schemas the server validates with.',
        json: z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }) }),
      },
    },
    handle({ res }) {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.json((document ??= openApiDocument(all())));
    },
  };
}
