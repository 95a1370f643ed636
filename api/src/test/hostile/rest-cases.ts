import { randomUUID } from 'node:crypto';
import { apiRoutes } from '../../compose/routes.js';
import { openApiDocument } from '../../http/openapi-document.js';
import { restOperations } from '../operation-inventory.js';
import { idPayloads, malformedJsonBodies, NUL_PAYLOAD, OVERLONG, textPayloads, wrongTypesFor } from './payloads.js';

type Schema = {
  type?: string;
  format?: string;
  enum?: string[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
};

export interface RestCase {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** A request the app must refuse whatever the route (broken body, NUL, oversized). */
  mustBeRefused: boolean;
  /** One of the few cases also sent by callers the route refuses before reading the input. */
  core: boolean;
}

export interface RestRouteCases {
  operation: string;
  cases: RestCase[];
}

const json = { 'content-type': 'application/json' };
let unique = 0;

function baseValue(schema: Schema, name: string): unknown {
  if (schema.anyOf) return baseValue(schema.anyOf.find((s) => s.type !== 'null') ?? {}, name);
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, baseValue(s, k)]));
    case 'array':
      return [baseValue(schema.items ?? {}, name)];
    case 'integer':
    case 'number':
      return /time|timestamp/i.test(name) ? 0 : 1;
    case 'boolean':
      return false;
    default:
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      if (/email/i.test(name)) return `hostile-rest-${++unique}-${Date.now()}@example.com`;
      if (/password/i.test(name)) return 'long-enough-password-1';
      if (/hash/i.test(name)) return 'a'.repeat(64);
      return `text ${++unique}`;
  }
}

interface Slot {
  path: (string | number)[];
  schema: Schema;
}

function slots(schema: Schema, path: (string | number)[]): Slot[] {
  const here = path.length > 0 ? [{ path, schema }] : [];
  if (schema.type === 'object') {
    return [...here, ...Object.entries(schema.properties ?? {}).flatMap(([k, s]) => slots(s, [...path, k]))];
  }
  if (schema.type === 'array') return [...here, ...slots(schema.items ?? {}, [...path, 0])];
  return here;
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]] = value;
  return copy;
}

function wrongValues(schema: Schema): unknown[] {
  if (schema.enum) return ['not-a-value', 1];
  switch (schema.type) {
    case 'object':
      return wrongTypesFor('object');
    case 'array':
      return wrongTypesFor('list');
    case 'integer':
    case 'number':
      return wrongTypesFor('number');
    case 'boolean':
      return wrongTypesFor('boolean');
    default:
      return wrongTypesFor('string');
  }
}

/** Every route of the router, with hostile ids in its path, hostile bodies and query strings. */
export function restCases(): RestRouteCases[] {
  const paths = openApiDocument(apiRoutes).paths as Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>
  >;
  return restOperations().map((operation) => {
    const [method, route] = operation.split(' ');
    const params = [...route.matchAll(/:(\w+)/g)].map(([, name]) => name);
    const doc = paths[route.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
    const bodySchema = doc?.requestBody?.content['application/json']?.schema;
    const base = bodySchema ? baseValue(bodySchema, '') : undefined;
    const fill = (values: Record<string, string>) =>
      `/api/v1${route.replace(/:(\w+)/g, (_m, name: string) => values[name] ?? randomUUID())}`;
    const cases: RestCase[] = [];
    const add = (c: Omit<RestCase, 'method' | 'headers'> & { headers?: Record<string, string> }) =>
      cases.push({ method, headers: base === undefined && c.body === undefined ? {} : json, ...c });
    const baseBody = base === undefined ? undefined : JSON.stringify(base);

    for (const param of params) {
      idPayloads.forEach((id, i) => {
        add({
          label: `${param} = ${id.slice(0, 40)}`,
          path: fill({ [param]: encodeURIComponent(id) }),
          body: baseBody,
          mustBeRefused: false,
          core: i % 4 === 0,
        });
      });
      // Unencoded, as a hand-written client would send it: the segments must not climb out of the route.
      add({
        label: `${param} raw traversal`,
        path: fill({ [param]: '../../../../etc/passwd' }),
        body: baseBody,
        mustBeRefused: false,
        core: true,
      });
      add({
        label: `${param} with NUL`,
        path: fill({ [param]: 'abc%00def' }),
        body: baseBody,
        mustBeRefused: true,
        core: true,
      });
    }
    if (method === 'GET') {
      for (const query of [
        `search=${encodeURIComponent(textPayloads[0])}&offset=-1&limit=abc`,
        `search=${encodeURIComponent(OVERLONG.slice(0, 8000))}`,
        'search=a%00b',
        'limit=1&limit=2&offset[$gt]=0',
        'search[$ne]=x&__proto__[isAdmin]=true&constructor[prototype][isAdmin]=true',
        'status=<script>&storageType=../../x',
      ]) {
        // Routes that read no query string may ignore it; the ones that do must not fail on it.
        add({ label: `query ${query.slice(0, 50)}`, path: `${fill({})}?${query}`, mustBeRefused: false, core: true });
      }
    } else if (method !== 'HEAD') {
      malformedJsonBodies.forEach((body, i) => {
        const broken = i < 3;
        // Well-formed but odd JSON only goes where a JSON body is read; elsewhere (logout) it would just be ignored.
        if (!broken && !bodySchema) return;
        add({
          label: `body ${body.slice(0, 30)}`,
          path: fill({}),
          headers: json,
          body,
          mustBeRefused: broken,
          core: i === 0,
        });
      });
      add({
        label: 'body over 100 kB',
        path: fill({}),
        headers: json,
        body: JSON.stringify({ pad: 'x'.repeat(150_000) }),
        mustBeRefused: true,
        core: true,
      });
      add({
        label: 'XML body',
        path: fill({}),
        headers: { 'content-type': 'application/xml' },
        body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
        mustBeRefused: !doc?.requestBody?.content['multipart/form-data'],
        core: true,
      });
      if (doc?.requestBody?.content['multipart/form-data']) {
        add({
          label: 'broken multipart',
          path: fill({}),
          headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
          body: '--zzz\r\nContent-Disposition: form-data; name="audio"; filename="../../../x.mp3"\r\n\r\nnot closed',
          mustBeRefused: true,
          core: false,
        });
      }
    }
    for (const slot of bodySchema ? slots(bodySchema, []) : []) {
      const where = slot.path.join('.');
      const put = (value: unknown) => JSON.stringify(setAt(base, slot.path, value));
      for (const wrong of wrongValues(slot.schema)) {
        add({
          label: `${where} = ${JSON.stringify(wrong).slice(0, 30)}`,
          path: fill({}),
          body: put(wrong),
          mustBeRefused: false,
          core: false,
        });
      }
      if (slot.schema.type !== undefined && slot.schema.type !== 'string') continue;
      [...textPayloads, OVERLONG].forEach((text, i) => {
        add({
          label: `${where} = ${JSON.stringify(text.slice(0, 30))}`,
          path: fill({}),
          body: put(text),
          mustBeRefused: false,
          core: i % 5 === 0,
        });
      });
      add({ label: `${where} with NUL`, path: fill({}), body: put(NUL_PAYLOAD), mustBeRefused: true, core: true });
    }
    return { operation, cases };
  });
}
