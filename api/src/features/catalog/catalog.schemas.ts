import { z } from 'zod';
import { nameKeyOf } from './person.entity.js';

/** Absent: undefined (left as it is, or read from the tags); blank or null: null (cleared). */
const optionalText = (what: string, max: number) =>
  z
    .string({ error: `${what} must be text` })
    .max(max, `${what} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v === undefined ? undefined : v?.trim() || null));

/**
 * Names as a list (JSON, GraphQL) or as one form field separated by semicolons or new lines;
 * blanks dropped, each name once however it is cased.
 */
const nameList = (what: string) =>
  z
    .union([z.array(z.string({ error: `${what} must be names` })), z.string()], { error: `${what} must be names` })
    .nullish()
    .transform((v) => {
      if (v === undefined) return undefined;
      const names = (typeof v === 'string' ? v.split(/[;\n]/) : (v ?? [])).map((n) => n.trim().replace(/\s+/g, ' '));
      const seen = new Set<string>();
      return names.filter((n) => n && !seen.has(nameKeyOf(n)) && seen.add(nameKeyOf(n)));
    })
    .pipe(
      z
        .array(z.string().max(200, `Each of ${what} must be at most 200 characters`))
        .max(20, `At most 20 ${what}`)
        .optional(),
    )
    .meta({ description: 'A list, or one text separated by semicolons or new lines.' });

/** A year as a number or as form text; blank clears it. */
const yearSchema = z
  .union([z.number(), z.string().trim()], { error: 'year must be a whole number' })
  .nullish()
  .transform((v) => (v === undefined ? undefined : v === null || v === '' ? null : Number(v)))
  .pipe(
    z
      .number({ error: 'year must be a whole number' })
      .int('year must be a whole number')
      .min(1, 'year must be between 1 and 9999')
      .max(9999, 'year must be between 1 and 9999')
      .nullish(),
  );

/**
 * A book's details as an administrator types them: on upload (a value typed wins over the file's
 * tag) and when editing a file (an absent field stays as it is; blank or an empty list clears it).
 */
export const bookDetailsSchema = z.object({
  subtitle: optionalText('subtitle', 200),
  authors: nameList('authors'),
  narrators: nameList('narrators'),
  series: optionalText('series', 200),
  seriesPosition: optionalText('seriesPosition', 20).meta({ description: 'As written: "1", "2.5".' }),
  year: yearSchema,
  publisher: optionalText('publisher', 200),
  genres: nameList('genres'),
  language: optionalText('language', 50),
});
export type BookDetailsInput = z.input<typeof bookDetailsSchema>;
export type BookDetailsValues = z.output<typeof bookDetailsSchema>;
