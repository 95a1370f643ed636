import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { errorCodes, type ErrorCode } from '../errors.js';
import type { ScopeRequirement } from '../api-key-scopes.js';
import { component, type RouteContract } from './contract.js';

const codes = Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]];

/** The REST failure body (DESIGN section 1); `error` may carry more, e.g. `field` on bad input. */
export const errorBodySchema = component(
  'Error',
  z
    .object({
      success: z.literal(false),
      message: z.string().meta({ description: 'What went wrong, in words for a person.' }),
      error: z.looseObject({
        code: z.enum(codes),
        message: z.string(),
        field: z.string().optional().meta({ description: 'The input that is wrong, when known (BAD_USER_INPUT).' }),
      }),
    })
    .meta({ description: 'Every failure, with a 4xx or 5xx status.' }),
);

/**
 * The codes a route can answer: those of every route of its kind (a bad credential, an API key's
 * rate limit or missing scope, bad input, a body too large or of another type, a missing thing)
 * and its own.
 */
export function errorCodesOf(route: RouteContract, keyRequirement: ScopeRequirement | undefined): ErrorCode[] {
  const found = new Set<ErrorCode>(['UNAUTHENTICATED', 'RATE_LIMITED', 'INTERNAL', ...(route.errors ?? [])]);
  // A key is refused a route the policy leaves out, a device-only one, or one whose scopes it lacks.
  const keyMayBeRefused = keyRequirement === undefined || keyRequirement === 'deviceOnly' || keyRequirement.length > 0;
  if (route.caller === 'admin' || route.caller === 'url' || keyMayBeRefused) found.add('FORBIDDEN');
  if (route.params || route.query || route.headers || route.body) found.add('BAD_USER_INPUT');
  if (route.params) found.add('NOT_FOUND');
  if (route.body) {
    found.add('PAYLOAD_TOO_LARGE');
    found.add('UNSUPPORTED_MEDIA_TYPE');
  }
  return codes.filter((code) => found.has(code));
}

/** The response component of a status: its reason phrase without spaces (BadRequest, NotFound...). */
export function errorResponseName(status: number): string {
  return (STATUS_CODES[status] ?? `Status${status}`).replace(/[^A-Za-z]/g, '');
}

const retryAfter = { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } };
const rateLimitHeaders = {
  'RateLimit-Limit': { description: "An API key's requests per minute.", schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in this minute.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the minute starts again.', schema: { type: 'integer' } },
};

/** components.responses: one per status any route answers, naming the codes behind it. */
export function errorResponseComponents(statuses: number[]): Record<string, unknown> {
  return Object.fromEntries(
    statuses.map((status) => {
      const behind = codes.filter((code) => errorCodes[code].httpStatus === status);
      const description = behind.map((code) => `\`${code}\`: ${errorCodes[code].meaning}`).join(' ');
      return [
        errorResponseName(status),
        {
          description,
          ...(status === 429 ? { headers: { 'Retry-After': retryAfter, ...rateLimitHeaders } } : {}),
          ...(status === 416
            ? { headers: { 'Content-Range': { description: 'bytes */size', schema: { type: 'string' } } } }
            : {}),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      ];
    }),
  );
}
