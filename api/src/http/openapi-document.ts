import { z } from 'zod';
import { errorCodes } from '../errors.js';
import type { ScopeRequirement } from '../api-key-scopes.js';
import { namedComponents, tags, type Answer, type RouteContract } from './contract.js';
import { errorCodesOf, errorResponseComponents, errorResponseName } from './openapi-errors.js';
import type { Route } from './route.js';

type Json = Record<string, unknown>;

const schemaRef = (id: string) => ({ $ref: `#/components/schemas/${id}` });

const jsonSchemaOptions: z.core.ToJSONSchemaParams = {
  // JSON carries a time as an ISO 8601 string; every other type must have a JSON Schema.
  unrepresentable: ({ zodSchema }) =>
    zodSchema._zod.def.type === 'date' ? { type: 'string', format: 'date-time' } : 'throw',
  override: ({ jsonSchema }) => {
    // A format says it: zod's long regular expressions for uuid, date-time and email would only add noise.
    if (typeof jsonSchema.format === 'string') delete jsonSchema.pattern;
    // z.int() is bounded by the safe integers; that is no limit of this API.
    if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    // A union whose members read the same once in JSON (a Date or an ISO string) is one schema.
    if (jsonSchema.anyOf) {
      const distinct = [...new Map(jsonSchema.anyOf.map((s) => [JSON.stringify(s), s])).values()];
      if (distinct.length === 1) {
        delete jsonSchema.anyOf;
        Object.assign(jsonSchema, distinct[0]);
      } else jsonSchema.anyOf = distinct;
    }
  },
};

/** A standalone JSON Schema without the keywords meant for a document of its own. */
function bare(schema: Json): Json {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

function toJson(schema: z.ZodType, io: 'input' | 'output'): Json {
  return bare(z.toJSONSchema(schema, { ...jsonSchemaOptions, io }) as Json);
}

const pascal = (id: string) => id[0].toUpperCase() + id.slice(1);

/**
 * Gives each body a name under components.schemas: requests as clients send them (zod's input,
 * before defaults and transforms), answers as the server writes them (its output). Shapes several
 * answers share (component()) are named once and referred to.
 */
class BodyNames {
  private readonly requests = z.registry<{ id: string }>();
  private readonly answers = z.registry<{ id: string }>();

  constructor() {
    for (const [id, schema] of namedComponents()) this.answers.add(schema, { id });
  }

  request(schema: z.ZodType, id: string) {
    const known = this.requests.get(schema)?.id;
    if (!known) this.requests.add(schema, { id });
    return schemaRef(known ?? id);
  }

  answer(schema: z.ZodType, id: string) {
    const known = this.answers.get(schema)?.id;
    if (!known) this.answers.add(schema, { id });
    return schemaRef(known ?? id);
  }

  schemas(): Record<string, Json> {
    const uri = (id: string) => `#/components/schemas/${id}`;
    const requests = z.toJSONSchema(this.requests, { ...jsonSchemaOptions, io: 'input', uri }).schemas;
    const answers = z.toJSONSchema(this.answers, { ...jsonSchemaOptions, io: 'output', uri }).schemas;
    const clash = Object.keys(requests).find((id) => id in answers);
    if (clash) throw new Error(`${clash} names both a request and an answer`);
    const all = { ...requests, ...answers } as Record<string, Json>;
    return Object.fromEntries(
      Object.keys(all)
        .sort()
        .map((id) => [id, bare(all[id])]),
    );
  }
}

function parameters(route: RouteContract): Json[] {
  const names = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => name);
  const declared = Object.keys(route.params?.shape ?? {});
  if (names.join() !== declared.join()) {
    throw new Error(`${route.operationId}: path parameters ${names.join()} but params ${declared.join()}`);
  }
  const group = (where: 'path' | 'query' | 'header', object: z.ZodObject | undefined) => {
    if (!object) return [];
    const schema = toJson(object, 'input') as { properties: Record<string, Json>; required?: string[] };
    return Object.entries(schema.properties).map(([name, property]) => {
      const { description, ...rest } = property;
      return {
        name,
        in: where,
        required: where === 'path' || (schema.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      };
    });
  };
  return [...group('path', route.params), ...group('query', route.query), ...group('header', route.headers)];
}

function answerObject(answer: Answer, ref: Json | null): Json {
  const headers = Object.entries(answer.headers ?? {}).map(([name, h]) => [
    name,
    { description: h.description, schema: toJson(h.schema, 'output') },
  ]);
  const content = ref
    ? { 'application/json': { schema: ref } }
    : answer.bytes
      ? { [answer.bytes]: { schema: { type: 'string', format: 'binary' } } }
      : undefined;
  return {
    description: answer.description,
    ...(headers.length ? { headers: Object.fromEntries(headers) } : {}),
    ...(content ? { content } : {}),
  };
}

function security(route: RouteContract, keys: ScopeRequirement): Json[] {
  const apiKey = keys === 'deviceOnly' ? [] : [{ apiKey: [...keys] }];
  if (route.caller === 'apiKey') {
    if (apiKey.length === 0) throw new Error(`${route.operationId} is for API keys, but the scope policy refuses them`);
    return apiKey;
  }
  if (route.caller === 'anyone' || route.caller === 'url') return [{}, ...apiKey];
  return [{ session: [], deviceId: [] }, ...apiKey];
}

const callerNotes: Record<RouteContract['caller'], string> = {
  anyone: '',
  signedIn: '',
  admin: 'Administrators only.',
  url: 'The URL carries its own credential, re-checked at every request.',
  apiKey: 'API keys only: a signed-in device is refused (403).',
};

function operation(route: Route, names: BodyNames): { op: Json; statuses: number[] } {
  const keys = route.scopes;
  const name = pascal(route.operationId);
  const { body } = route;
  const requestBody = body && {
    required: body.required,
    ...(body.description ? { description: body.description } : {}),
    content: {
      ...(body.json ? { 'application/json': { schema: names.request(body.json, `${name}Request`) } } : {}),
      ...(body.multipart ? { 'multipart/form-data': { schema: names.request(body.multipart, `${name}Form`) } } : {}),
    },
  };
  const answers = Object.entries(route.answers).map(([status, answer], i) => {
    const ref = answer.json
      ? names.answer(answer.json, i === 0 ? `${name}Response` : `${name}Response${status}`)
      : null;
    return [status, answerObject(answer, ref)] as const;
  });
  const statuses = [...new Set(errorCodesOf(route, keys).map((code) => errorCodes[code].httpStatus))].sort(
    (a, b) => a - b,
  );
  const failures = statuses.map((s) => [String(s), { $ref: `#/components/responses/${errorResponseName(s)}` }]);
  const keyNote =
    keys === 'deviceOnly'
      ? 'A signed-in device only: API keys are refused.'
      : keys.length
        ? `API key scopes: ${keys.join(', ')}.`
        : '';
  const description = [route.description, callerNotes[route.caller], keyNote].filter(Boolean).join(' ');
  return {
    op: {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      ...(description ? { description } : {}),
      security: security(route, keys),
      parameters: parameters(route),
      ...(requestBody ? { requestBody } : {}),
      responses: Object.fromEntries([...answers, ...failures]),
    },
    statuses,
  };
}

/** The OpenAPI 3.1 document of REST /api/v1, generated from the routes' declarations, in their order. */
export function openApiDocument(routes: readonly Route[]): Json {
  const names = new BodyNames();
  const paths: Record<string, Record<string, Json>> = {};
  const statuses = new Set<number>();
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const { op, statuses: used } = operation(route, names);
    if (paths[path]?.[route.method]) throw new Error(`${route.method.toUpperCase()} ${path} is described twice`);
    paths[path] = { ...paths[path], [route.method]: op };
    used.forEach((s) => statuses.add(s));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Protected audio library REST API',
      version: '1.0.0',
      description:
        'Success bodies are `{ success: true, data, message? }`, with a few fields some clients read beside `data`; failures are `{ success: false, message, error: { code, message } }` with a 4xx or 5xx status. Sign in with POST /auth/login and send `Authorization: Bearer <token>` and `X-Device-ID` on every call, or use an API key (`Authorization: Bearer pal_...`, no device id). GraphQL at /graphql offers the same operations.',
    },
    servers: [{ url: '/api/v1' }],
    tags: Object.entries(tags).map(([tag, description]) => ({ name: tag, description })),
    security: [{ session: [], deviceId: [] }],
    components: {
      securitySchemes: {
        session: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The token of a device session (login).',
        },
        deviceId: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Device-ID',
          description: 'The device the session token was issued to; sent with it.',
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'pal_...',
          description: 'An API key; the requirement lists the scopes the operation needs.',
        },
      },
      schemas: names.schemas(),
      responses: errorResponseComponents([...statuses].sort((a, b) => a - b)),
    },
    paths,
  };
}
