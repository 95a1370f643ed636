import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { findRows, parsePage, type Ordering, type Page } from '../../paging.js';
import { parseId, parseInput } from '../../validation.js';
import { requireAdmin, requireCaller } from '../../caller-policy.js';
import { parseSearch, containsPattern } from '../../search-term.js';
import { allOf, type SqlCondition } from '../../sql-condition.js';
import { libraryFilesCondition } from '../access/visibility.js';
import { recordAudit } from '../audit/audit.service.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { FILE_COLUMNS, fileList, toFileSummary, type FileRow, type FileSummary } from '../files/files.service.js';
import { libraryOrder, LibrarySort } from '../files/library-order.js';
import { editedOver, putBook, type BookValues } from './book-catalog.js';
import { createCatalogLoaders, type NamedRecord } from './catalog-loaders.js';
import { bookDetailsSchema } from './catalog.schemas.js';
import { BookCredit, CreditRole, Person } from './person.entity.js';
import { BookDetails, Series } from './series.entity.js';

export interface CatalogListArgs extends Partial<Page> {
  search?: string | null;
}

export interface CountedRecord extends NamedRecord {
  bookCount: number;
}

export interface CountedPage {
  total: number;
  items: CountedRecord[];
}

/**
 * One page of records (people in a role, or series) that name at least one book the caller may
 * see, with how many: joined through the library's own visibility rule, so a record whose books
 * are all hidden is neither listed nor counted. Two statements, whatever the rows.
 */
async function countedPage(ctx: Ctx, from: string, fromParams: unknown[], args: CatalogListArgs): Promise<CountedPage> {
  const caller = requireCaller(ctx);
  const page = parsePage(args);
  const search = parseSearch(args.search);
  const where = allOf([
    libraryFilesCondition(caller),
    ...(search ? [{ sql: 'r.name ilike ?', params: [containsPattern(search)] }] : []),
  ]);
  const params = [...fromParams, ...where.params];
  const [rows, [{ total }]] = await Promise.all([
    ctx.em.execute<{ id: string; name: string; book_count: number }[]>(
      `select r.id, r.name, count(*)::int as book_count from ${from} where ${where.sql}
       group by r.id, r.name order by lower(r.name), r.id limit ? offset ?`,
      [...params, page.limit, page.offset],
    ),
    ctx.em.execute<{ total: number }[]>(
      `select count(distinct r.id)::int as total from ${from} where ${where.sql}`,
      params,
    ),
  ]);
  return { total, items: rows.map((r) => ({ id: r.id, name: r.name, bookCount: r.book_count })) };
}

const creditedFrom = `people r join book_credits bc on bc.person_id = r.id and bc.role = ?
  join audio_files on audio_files.id = bc.file_id`;

/** Authors (or narrators) of the books the caller may see, A to Z, with how many of those books each. */
export function listPeople(ctx: Ctx, role: CreditRole, args: CatalogListArgs = {}): Promise<CountedPage> {
  return countedPage(ctx, creditedFrom, [role], args);
}

/** Series holding books the caller may see, A to Z, with how many of those books each. */
export function listSeries(ctx: Ctx, args: CatalogListArgs = {}): Promise<CountedPage> {
  return countedPage(
    ctx,
    'series r join book_details bd on bd.series_id = r.id join audio_files on audio_files.id = bd.file_id',
    [],
    args,
  );
}

/** Genres of the books the caller may see, A to Z, with how many of those books each. */
export async function listGenres(ctx: Ctx): Promise<{ name: string; bookCount: number }[]> {
  const visible = libraryFilesCondition(requireCaller(ctx));
  const rows = await ctx.em.execute<{ name: string; book_count: number }[]>(
    `select g.name, count(*)::int as book_count
     from audio_files join book_details bd on bd.file_id = audio_files.id cross join unnest(bd.genres) as g(name)
     where ${visible.sql} group by g.name order by lower(g.name), g.name`,
    visible.params,
  );
  return rows.map((r) => ({ name: r.name, bookCount: r.book_count }));
}

/** The caller's visible files matching `where`, A to Z by title. */
function visibleFiles(ctx: Ctx, where: SqlCondition): Promise<FileSummary[]> {
  const caller = requireCaller(ctx);
  const query = fileList(allOf([libraryFilesCondition(caller), where]), libraryOrder(caller, LibrarySort.TITLE));
  return findRows<FileRow>(ctx.em, query).then((rows) => rows.map(toFileSummary));
}

const creditedWith = (personId: string, role: CreditRole): SqlCondition => ({
  sql: 'audio_files.id in (select bc.file_id from book_credits bc where bc.person_id = ? and bc.role = ?)',
  params: [personId, role],
});

export interface PersonBooks {
  person: NamedRecord;
  authored: FileSummary[];
  narrated: FileSummary[];
}

/**
 * A person with the books the caller may see that they wrote and that they read. Someone none of
 * whose books the caller may see is NOT_FOUND, as an unknown id.
 */
export async function getPersonBooks(ctx: Ctx, personId: string): Promise<PersonBooks> {
  requireCaller(ctx);
  const id = parseId(personId, 'id');
  const [person, authored, narrated] = await Promise.all([
    ctx.em.findOne(Person, { id }),
    visibleFiles(ctx, creditedWith(id, CreditRole.author)),
    visibleFiles(ctx, creditedWith(id, CreditRole.narrator)),
  ]);
  if (!person || authored.length + narrated.length === 0) throw new AppError('NOT_FOUND', 'Author not found');
  return { person: { id: person.id, name: person.name }, authored, narrated };
}

export interface SeriesBook {
  position: string | null;
  file: FileSummary;
}

export interface SeriesBooks {
  series: NamedRecord;
  books: SeriesBook[];
}

/** Numbers in order ("2" before "10", "2.5" between), then written positions, then none; titles last. */
const SERIES_ORDER: Ordering = {
  name: 'series',
  keys: [
    {
      sql: `case when bd.series_position ~ '^[0-9]{1,9}([.][0-9]{1,6}){0,1}$' then bd.series_position::float8 end`,
      type: 'float8',
      direction: 'asc',
      nullable: true,
    },
    { sql: 'bd.series_position', type: 'text', direction: 'asc', nullable: true },
    { sql: 'lower(audio_files.title)', type: 'text', direction: 'asc' },
    { sql: 'audio_files.id', type: 'uuid', direction: 'asc' },
  ],
};

/** A series with the books the caller may see in it, in series order; NOT_FOUND when they see none. */
export async function getSeriesBooks(ctx: Ctx, seriesId: string): Promise<SeriesBooks> {
  const caller = requireCaller(ctx);
  const id = parseId(seriesId, 'id');
  const [series, rows] = await Promise.all([
    ctx.em.findOne(Series, { id }),
    findRows<FileRow & { series_position: string | null }>(ctx.em, {
      from: 'audio_files join book_details bd on bd.file_id = audio_files.id',
      columns: `${FILE_COLUMNS}, bd.series_position`,
      where: allOf([libraryFilesCondition(caller), { sql: 'bd.series_id = ?', params: [id] }]),
      ordering: SERIES_ORDER,
    }),
  ]);
  if (!series || rows.length === 0) throw new AppError('NOT_FOUND', 'Series not found');
  return {
    series: { id: series.id, name: series.name },
    books: rows.map((row) => ({ position: row.series_position, file: toFileSummary(row) })),
  };
}

/** A file's book details as stored, through the loaders (a single file: two statements). */
export async function bookValuesOf(ctx: Pick<Ctx, 'em'>, fileId: string): Promise<BookValues> {
  const loaders = createCatalogLoaders(ctx.em);
  const [book, credits] = await Promise.all([loaders.bookByFile.load(fileId), loaders.creditsByFile.load(fileId)]);
  return {
    subtitle: book.subtitle,
    authors: credits.authors.map((p) => p.name),
    narrators: credits.narrators.map((p) => p.name),
    series: book.series?.series.name ?? null,
    seriesPosition: book.series?.position ?? null,
    year: book.year,
    publisher: book.publisher,
    genres: book.genres,
    language: book.language,
  };
}

/**
 * Administrators: change a file's book details. Absent fields stay; blank ones and empty lists
 * clear. Names become records (one per name, however cased), so a renamed author is a new record.
 */
export async function updateBook(ctx: Ctx, fileId: string, rawInput: unknown): Promise<AudioFile> {
  requireAdmin(ctx);
  const edit = parseInput(bookDetailsSchema, rawInput ?? {});
  const file = await ctx.em.findOne(AudioFile, { id: parseId(fileId, 'fileId') });
  if (!file) throw new AppError('NOT_FOUND', 'Audio file not found');
  const before = await bookValuesOf(ctx, file.id);
  const after = editedOver(before, edit);
  await ctx.em.transactional(async (tx) => {
    // Deleted first, not beside the new rows: the flush inserts before it deletes.
    await tx.nativeDelete(BookCredit, { file: file.id });
    const stored = await tx.findOne(BookDetails, { file: file.id });
    await putBook(tx, tx.getReference(AudioFile, file.id), after, stored);
    recordAudit(ctx, { action: 'file.updated', details: { fileId: file.id, book: { before, after } } }, tx);
  });
  return file;
}
