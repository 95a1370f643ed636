import { describe, expect, it } from 'vitest';
import { restOperations } from '../test/operation-inventory.js';
import { openApiDocument } from './openapi.js';

describe('OpenAPI document', () => {
  it('describes exactly the REST routes the router serves', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, unknown>>;
    const documented = Object.entries(paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
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
});
