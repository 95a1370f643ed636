import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../compose/routes.js';
import { errorCodes } from '../errors.js';
import { ApiKeyScope } from '../api-key-scopes.js';
import { restOperations } from '../test/operation-inventory.js';
import { openApiDocument } from './openapi-document.js';

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: { type?: string; format?: string; minimum?: number; maximum?: number };
}
interface Operation {
  operationId: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; content: Record<string, unknown> };
  responses: Record<string, { $ref?: string; content?: Record<string, unknown> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

const doc = openApiDocument(apiRoutes) as unknown as Document;
const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
);

describe('OpenAPI document', () => {
  it('describes exactly the REST routes the router serves', () => {
    const documented = operations.map((o) => o.key);
    const served = restOperations().map((op) => op.replace(/:(\w+)/g, '{$1}'));
    expect(
      served.filter((op) => !documented.includes(op)),
      'served but not documented',
    ).toEqual([]);
    expect(
      documented.filter((op) => !served.includes(op)),
      'documented but not served',
    ).toEqual([]);
  });

  it('types every id in a path or body as a UUID and bounds every page size', () => {
    for (const { key, op } of operations) {
      for (const p of op.parameters.filter((p) => /(^|[a-z])(id|Id)$/.test(p.name) && p.name !== 'deviceId')) {
        expect(p.schema.format, `${key} ${p.name}`).toBe('uuid');
      }
      for (const p of op.parameters.filter((p) => p.name === 'limit' || p.name === 'offset')) {
        expect([p.schema.type, p.schema.minimum], `${key} ${p.name}`).toEqual(['integer', expect.any(Number)]);
        if (p.name === 'limit') expect(p.schema.maximum, `${key} limit`).toEqual(expect.any(Number));
      }
    }
    for (const name of ['CreateCheckpointRequest', 'GrantAccessRequest', 'CreateApiKeyRequest']) {
      const properties = doc.components.schemas[name].properties as Record<string, { format?: string }>;
      for (const [field, schema] of Object.entries(properties).filter(([field]) => field.endsWith('Id'))) {
        expect(schema.format, `${name}.${field}`).toBe('uuid');
      }
    }
  });

  it('declares the chunk headers and marks which bodies are required', () => {
    const chunk = doc.paths['/audio/upload/chunk'].post;
    expect(chunk.parameters.filter((p) => p.in === 'header').map((p) => [p.name, p.required])).toEqual([
      ['X-Upload-ID', true],
      ['X-Chunk-Index', true],
      ['X-Total-Chunks', true],
      ['X-File-Size', true],
      ['X-File-Name', false],
    ]);
    expect(doc.paths['/auth/login'].post.requestBody?.required).toBe(true);
    expect(doc.paths['/admin/files/{id}'].put.requestBody?.required).toBe(false);
    expect(Object.keys(doc.paths['/admin/files/{id}'].put.requestBody?.content ?? {})).toEqual([
      'application/json',
      'multipart/form-data',
    ]);
  });

  it('answers every failure with the error body, under the statuses of its codes', () => {
    const statuses = new Set(Object.values(errorCodes).map((c) => String(c.httpStatus)));
    for (const { key, op } of operations) {
      const failures = Object.entries(op.responses).filter(([status]) => Number(status) >= 400);
      expect(failures.length, key).toBeGreaterThan(0);
      for (const [status, response] of failures) {
        expect(statuses.has(status), `${key} ${status}`).toBe(true);
        expect(response.$ref, `${key} ${status}`).toMatch(/^#\/components\/responses\//);
      }
    }
  });

  it('takes enum values from the code, not from a copy', () => {
    const error = doc.components.schemas.Error.properties as { error: { properties: { code: { enum: string[] } } } };
    expect(error.error.properties.code.enum).toEqual(Object.keys(errorCodes));
    const apiKey = doc.components.schemas.ApiKey.properties as { scopes: { items: { enum: string[] } } };
    expect(apiKey.scopes.items.enum).toEqual(Object.values(ApiKeyScope));
  });
});
