import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { inList } from '../../sql-condition.js';
import { CreditRole } from './person.entity.js';

export interface NamedRecord {
  id: string;
  name: string;
}

/** A book's details as its file's fields show them; empty for a file that has none stored. */
export interface BookRecord {
  subtitle: string | null;
  year: number | null;
  publisher: string | null;
  language: string | null;
  genres: string[];
  series: { series: NamedRecord; position: string | null } | null;
}

export interface BookCredits {
  authors: NamedRecord[];
  narrators: NamedRecord[];
}

const emptyBook: BookRecord = { subtitle: null, year: null, publisher: null, language: null, genres: [], series: null };

interface BookRow {
  file_id: string;
  subtitle: string | null;
  year: number | null;
  publisher: string | null;
  language: string | null;
  genres: string[];
  series_id: string | null;
  series_name: string | null;
  series_position: string | null;
}

/** Batch loaders for the book fields of a list of files: one statement per kind, whatever the rows. */
export function createCatalogLoaders(em: EntityManager) {
  return {
    bookByFile: new DataLoader<string, BookRecord>(async (fileIds) => {
      const files = inList('bd.file_id', fileIds);
      const rows = await em.execute<BookRow[]>(
        `select bd.file_id, bd.subtitle, bd.year, bd.publisher, bd.language, bd.genres, bd.series_position,
                s.id as series_id, s.name as series_name
         from book_details bd left join series s on s.id = bd.series_id where ${files.sql}`,
        files.params,
      );
      const byFile = new Map(
        rows.map((r): [string, BookRecord] => [
          r.file_id,
          {
            subtitle: r.subtitle,
            year: r.year,
            publisher: r.publisher,
            language: r.language,
            genres: r.genres,
            series:
              r.series_id && r.series_name
                ? { series: { id: r.series_id, name: r.series_name }, position: r.series_position }
                : null,
          },
        ]),
      );
      return fileIds.map((id) => byFile.get(id) ?? emptyBook);
    }),
    creditsByFile: new DataLoader<string, BookCredits>(async (fileIds) => {
      const files = inList('bc.file_id', fileIds);
      const rows = await em.execute<{ file_id: string; role: CreditRole; id: string; name: string }[]>(
        `select bc.file_id, bc.role, p.id, p.name from book_credits bc join people p on p.id = bc.person_id
         where ${files.sql} order by bc.position, p.name`,
        files.params,
      );
      const byFile = new Map<string, BookCredits>(fileIds.map((id) => [id, { authors: [], narrators: [] }]));
      for (const row of rows) {
        const credits = byFile.get(row.file_id)!;
        (row.role === CreditRole.author ? credits.authors : credits.narrators).push({ id: row.id, name: row.name });
      }
      return fileIds.map((id) => byFile.get(id)!);
    }),
  };
}
export type CatalogLoaders = ReturnType<typeof createCatalogLoaders>;

declare module '../../graphql/loaders.js' {
  interface Loaders extends ReturnType<typeof createCatalogLoaders> {}
}
