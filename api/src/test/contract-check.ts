import { expect } from 'vitest';
import type { z } from 'zod';
import { errorCodes, type ErrorCode } from '../errors.js';
import type { RouteContract } from '../http/contract.js';
import { openApiDocument } from '../http/openapi-document.js';
import { errorBodySchema } from '../http/openapi-errors.js';
import { apiRoutes } from '../compose/routes.js';
import type { Session } from './factories.js';
import type { TestApp } from './harness.js';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
}
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/**
 * Fields of an answer its schema does not name where the schema allows no others (the document
 * says `additionalProperties: false`); zod's parse would drop them silently.
 */
export function undeclaredFields(schema: z.ZodType, value: unknown, at = 'body'): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      if (typeof value !== 'object' || value === null) return [];
      const shape = def.shape ?? {};
      const open = def.catchall !== undefined && defOf(def.catchall).type !== 'never';
      const extra = open ? [] : Object.keys(value).filter((key) => !(key in shape));
      const inner = Object.entries(shape).flatMap(([key, s]) =>
        key in value ? undeclaredFields(s, (value as Record<string, unknown>)[key], `${at}.${key}`) : [],
      );
      return [...extra.map((key) => `${at}.${key}`), ...inner];
    }
    case 'array':
      return Array.isArray(value)
        ? value.flatMap((v, i) => undeclaredFields(def.element as z.ZodType, v, `${at}[${i}]`))
        : [];
    case 'optional':
    case 'nullable':
    case 'default':
      return value === null || value === undefined ? [] : undeclaredFields(def.innerType as z.ZodType, value, at);
    case 'union': {
      const fitting = (def.options ?? []).filter((option) => option.safeParse(value).success);
      if (fitting.length === 0 || fitting.some((option) => undeclaredFields(option, value, at).length === 0)) return [];
      return undeclaredFields(fitting[0], value, at);
    }
    default:
      return [];
  }
}

export function contractOf(operationId: string): RouteContract {
  const route = apiRoutes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`No REST contract ${operationId}`);
  return route;
}

const documentPaths = (openApiDocument(apiRoutes) as { paths: Record<string, Record<string, { responses: object }>> })
  .paths;

const patternOf = (path: string) => new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}$`);

/** Operations that answered with one of their success statuses in this test file. */
export const answeredOperations = new Set<string>();

/**
 * Checks an answer against the contract of the operation that was called: a success status the
 * contract lists, with a body its schema parses and no field it leaves out; or a failure status
 * the document lists for the operation, with the error body and a code of that status.
 */
export function expectConforms(
  operationId: string,
  request: { method: string; path: string },
  answer: { status: number; body: unknown },
): void {
  const route = contractOf(operationId);
  const where = `${operationId} ${request.method} ${request.path} answered ${answer.status}`;
  expect(request.method.toLowerCase(), where).toBe(route.method);
  expect(request.path.split('?')[0], where).toMatch(patternOf(route.path));
  const success = route.answers[answer.status as keyof RouteContract['answers']];
  if (success) {
    answeredOperations.add(operationId);
    if (!success.json) return;
    const parsed = success.json.safeParse(answer.body);
    expect(parsed.success ? [] : parsed.error.issues, `${where}: ${JSON.stringify(answer.body).slice(0, 300)}`).toEqual(
      [],
    );
    expect(undeclaredFields(success.json, answer.body), where).toEqual([]);
    return;
  }
  const responses = documentPaths[route.path.replace(/:(\w+)/g, '{$1}')][route.method].responses;
  expect(Object.keys(responses), `${where}: ${JSON.stringify(answer.body).slice(0, 300)}`).toContain(
    String(answer.status),
  );
  if (route.method === 'head') return;
  const parsed = errorBodySchema.safeParse(answer.body);
  expect(parsed.success ? [] : parsed.error.issues, where).toEqual([]);
  const code = (answer.body as { error: { code: ErrorCode } }).error.code;
  expect(errorCodes[code].httpStatus, `${where}: ${code}`).toBe(answer.status);
}

export interface ContractCallOptions {
  body?: unknown;
  as?: Pick<Session, 'token' | 'deviceId'> | null;
  headers?: Record<string, string>;
}

/** Calls an operation at `path` (under /api/v1) on the app and checks its answer against the contract. */
export function contractCaller(app: () => TestApp) {
  return async <T = Record<string, unknown>>(operationId: string, path: string, options: ContractCallOptions = {}) => {
    const method = contractOf(operationId).method.toUpperCase();
    const res = await app().rest<T>(method, path, options.body, { ...(options.as ?? {}), headers: options.headers });
    expectConforms(operationId, { method, path }, res);
    return res;
  };
}
