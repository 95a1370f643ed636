import { z } from 'zod';
import { routes } from './contract.js';

/** GET /api/v1/openapi.json (openapi.ts). */
export const openApiContract = routes([
  {
    operationId: 'openApiDocument',
    method: 'get',
    path: '/openapi.json',
    tag: 'meta',
    summary: 'This document',
    description: 'Public: it describes the API and holds no data.',
    caller: 'anyone',
    answers: {
      200: {
        description: 'The OpenAPI 3.1 document, generated from the same zod schemas the server validates with.',
        json: z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }) }),
      },
    },
  },
]);
