import { z } from 'zod';
import { parseInput } from './validation.js';

/** A search term of a list (REST ?search= and the GraphQL argument). */
export const searchSchema = z.string().max(200, 'search must be at most 200 characters').nullish();

/** A trimmed search term, or null when there is nothing to search for. */
export function parseSearch(input: unknown): string | null {
  const term = parseInput(searchSchema, input ?? null)?.trim();
  return term ? term : null;
}

/** An ILIKE pattern matching `term` anywhere, with %, _ and \ taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, '\\$&')}%`;
}
