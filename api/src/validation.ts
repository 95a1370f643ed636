import { z } from 'zod';
import { AppError } from './errors.js';

/** Validates input at the service boundary, shared by GraphQL and REST, with one clear message. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue.path.length ? issue.path.join('.') : 'input';
  const message = issue.code === 'invalid_type' && !issue.message.includes(' ') ? `${where} is invalid` : issue.message;
  throw new AppError(
    'BAD_USER_INPUT',
    issue.code === 'invalid_type' && /expected/.test(message) ? `${where}: ${message}` : message,
    {
      field: where,
    },
  );
}

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id: a UUID of any version, in either case (the REST contract types every id with it). */
export const idSchema = z.guid();

/** Ids of the wrong shape are bad input, not a database error. */
export function parseId(id: unknown, what = 'id'): string {
  const parsed = idSchema.safeParse(id);
  if (!parsed.success) throw new AppError('BAD_USER_INPUT', `${what} is not a valid id`);
  return parsed.data.toLowerCase();
}

/** An id inside an input: `missing` when absent or blank, "<what> is not a valid id" when not a UUID. */
export function idField(what: string, missing = `${what} is required`) {
  return z.guid({
    error: (issue) => (issue.input === undefined || issue.input === '' ? missing : `${what} is not a valid id`),
  });
}
