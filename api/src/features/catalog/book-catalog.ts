import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AudioFile } from '../files/audio-file.entity.js';
import { inList } from '../../sql-condition.js';
import type { BookDetailsValues } from './catalog.schemas.js';
import { BookCredit, CreditRole, nameKeyOf, Person } from './person.entity.js';
import { BookDetails, Series } from './series.entity.js';

/** A book's details as stored: every field known, null or empty where there is nothing. */
export interface BookValues {
  subtitle: string | null;
  authors: string[];
  narrators: string[];
  series: string | null;
  seriesPosition: string | null;
  year: number | null;
  publisher: string | null;
  genres: string[];
  language: string | null;
}

export const noBookValues: BookValues = {
  subtitle: null,
  authors: [],
  narrators: [],
  series: null,
  seriesPosition: null,
  year: null,
  publisher: null,
  genres: [],
  language: null,
};

/** On upload: each value typed wins over the file's tag; a field typed blank takes the tag. */
export function typedOverTags(typed: BookDetailsValues, tags: BookValues): BookValues {
  const list = (mine: string[] | undefined, read: string[]) => (mine?.length ? mine : read);
  return {
    subtitle: typed.subtitle || tags.subtitle,
    authors: list(typed.authors, tags.authors),
    narrators: list(typed.narrators, tags.narrators),
    series: typed.series || tags.series,
    // A position belongs to its series: a typed series takes only a typed position.
    seriesPosition: typed.series ? (typed.seriesPosition ?? null) : typed.seriesPosition || tags.seriesPosition,
    year: typed.year ?? tags.year,
    publisher: typed.publisher || tags.publisher,
    genres: list(typed.genres, tags.genres),
    language: typed.language || tags.language,
  };
}

/** On edit: absent fields stay as they are, given ones replace (blank clears). */
export function editedOver(stored: BookValues, edit: BookDetailsValues): BookValues {
  const pick = <K extends keyof BookValues>(key: K): BookValues[K] =>
    (edit[key] === undefined ? stored[key] : edit[key]) as BookValues[K];
  const values = Object.fromEntries(Object.keys(noBookValues).map((k) => [k, pick(k as keyof BookValues)]));
  return values as unknown as BookValues;
}

/**
 * The ids of the records named `names` in `table` (people or series), created where missing.
 * `on conflict do nothing` lets two uploads naming the same new author at once both succeed.
 */
async function recordIds(em: EntityManager, table: 'people' | 'series', names: string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const values = names.map(() => '(?, ?, ?, now())').join(', ');
  await em.execute(
    `insert into ${table} (id, name, name_key, created_at) values ${values} on conflict (name_key) do nothing`,
    names.flatMap((name) => [randomUUID(), name, nameKeyOf(name)]),
  );
  const keys = inList('name_key', names.map(nameKeyOf));
  const rows = await em.execute<{ id: string; name_key: string }[]>(
    `select id, name_key from ${table} where ${keys.sql}`,
    keys.params,
  );
  return new Map(rows.map((r) => [r.name_key, r.id]));
}

/**
 * Adds a book's details and credits to the unit of work of `em`, written with its next flush (the
 * upload's commit, or the edit's transaction, which first deletes the file's credits). People and
 * series are created at once: one that no book names is listed nowhere. `stored` is the file's
 * details row when it has one (looked up by the caller: a query here could flush an upload early).
 */
export async function putBook(
  em: EntityManager,
  file: AudioFile,
  values: BookValues,
  stored: BookDetails | null = null,
): Promise<void> {
  const [people, series] = await Promise.all([
    recordIds(em, 'people', [...values.authors, ...values.narrators]),
    recordIds(em, 'series', values.series ? [values.series] : []),
  ]);
  const credit = (role: CreditRole) => (name: string, position: number) =>
    em.create(BookCredit, {
      file,
      role,
      position,
      person: em.getReference(Person, people.get(nameKeyOf(name))!),
    });
  values.authors.forEach(credit(CreditRole.author));
  values.narrators.forEach(credit(CreditRole.narrator));
  const details = {
    subtitle: values.subtitle,
    year: values.year,
    publisher: values.publisher,
    language: values.language,
    genres: values.genres,
    series: values.series ? em.getReference(Series, series.get(nameKeyOf(values.series))!) : null,
    seriesPosition: values.series ? values.seriesPosition : null,
  };
  if (stored) em.assign(stored, details);
  else em.create(BookDetails, { file, ...details });
}
