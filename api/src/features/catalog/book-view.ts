import { z } from 'zod';
import { component } from '../../http/contract.js';
import { fileViewSchema, presentFiles } from '../files/file-view.js';
import { createFileLoaders } from '../files/file-loaders.js';
import type { FileSummary } from '../files/files.service.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CatalogLoaders } from './catalog-loaders.js';

const namedSchema = (what: string) => z.object({ id: z.guid(), name: z.string() }).meta({ description: what });
export const personViewSchema = component('Person', namedSchema('An author or narrator.'));
export const seriesViewSchema = component('Series', namedSchema('A series of books.'));

/** A file's book details as REST clients read them: the same fields as on the GraphQL AudioFile. */
export const bookViewSchema = component(
  'BookDetails',
  z
    .object({
      fileId: z.guid(),
      subtitle: z.string().nullable(),
      authors: z.array(personViewSchema).meta({ description: 'In credit order.' }),
      narrators: z.array(personViewSchema).meta({ description: 'In credit order.' }),
      series: seriesViewSchema
        .extend({ position: z.string().nullable().meta({ description: 'As written ("1", "2.5").' }) })
        .nullable(),
      year: z.int().nullable(),
      publisher: z.string().nullable(),
      genres: z.array(z.string()),
      language: z.string().nullable(),
    })
    .meta({ description: "A book's details: read from its tags on upload, edited by administrators." }),
);
export type BookView = z.output<typeof bookViewSchema>;

export async function presentBook(fileId: string, loaders: CatalogLoaders): Promise<BookView> {
  const [book, credits] = await Promise.all([loaders.bookByFile.load(fileId), loaders.creditsByFile.load(fileId)]);
  return {
    fileId,
    subtitle: book.subtitle,
    authors: credits.authors,
    narrators: credits.narrators,
    series: book.series ? { ...book.series.series, position: book.series.position } : null,
    year: book.year,
    publisher: book.publisher,
    genres: book.genres,
    language: book.language,
  };
}

/** A file of a catalog list: the library's file view with its book details beside it. */
export const catalogFileViewSchema = fileViewSchema.extend({ book: bookViewSchema });

export async function presentCatalogFiles(em: EntityManager, files: FileSummary[], loaders: CatalogLoaders) {
  const [views, books] = await Promise.all([
    presentFiles(files, createFileLoaders(em)),
    Promise.all(files.map((f) => presentBook(f.id, loaders))),
  ]);
  return views.map((view, i) => ({ ...view, book: books[i] }));
}
