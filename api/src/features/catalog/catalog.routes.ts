import { z } from 'zod';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { component, dataBody, idParam } from '../../http/contract.js';
import { listQuerySchema, readListQuery } from '../../http/list-query.js';
import { sendData } from '../../http/respond.js';
import { routes, type ExpressRoute } from '../../http/route.js';
import { requireAdmin } from '../../caller-policy.js';
import { getFile } from '../files/files.service.js';
import {
  bookViewSchema,
  catalogFileViewSchema,
  personViewSchema,
  presentBook,
  presentCatalogFiles,
  seriesViewSchema,
} from './book-view.js';
import { createCatalogLoaders } from './catalog-loaders.js';
import { bookDetailsSchema } from './catalog.schemas.js';
import * as catalog from './catalog.service.js';
import { CreditRole } from './person.entity.js';

const countedSchema = (what: string) =>
  z.object({
    id: z.guid(),
    name: z.string(),
    bookCount: z
      .int()
      .min(1)
      .meta({ description: `Books you may see ${what}.` }),
  });
const personPage = component(
  'PersonPage',
  dataBody(z.array(countedSchema('that credit them in this role')), { total: z.int().min(0) }),
);
const seriesPage = component(
  'SeriesPage',
  dataBody(z.array(countedSchema('in the series')), { total: z.int().min(0) }),
);
const bookBody = component('BookAnswer', dataBody(bookViewSchema));
const nameSearch = listQuerySchema('Case-insensitive substring of the name.');
const id = (what: string) => z.object({ id: idParam(what) });

function peopleRoute(role: CreditRole, path: string, summary: string, operationId: string): ExpressRoute {
  return {
    operationId,
    method: 'get',
    path,
    tag: 'catalog',
    summary,
    description: 'Only people credited on a book you may see, each with how many such books.',
    caller: 'signedIn',
    query: nameSearch,
    answers: { 200: { description: 'One page, A to Z, and how many match in all.', json: personPage } },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, req, res }) {
      const { search, offset, limit } = readListQuery(req);
      const page = await catalog.listPeople(ctx, role, { search, offset, limit });
      sendData(res, page.items, { total: page.total });
    },
  };
}

/** REST /api/v1: authors, narrators, series and genres of the books you may see; a file's book details. */
export const catalogRoutes = routes([
  peopleRoute(CreditRole.author, '/authors', 'Authors of the books you may see', 'listAuthors'),
  peopleRoute(CreditRole.narrator, '/narrators', 'Narrators of the books you may see', 'listNarrators'),
  {
    operationId: 'getAuthor',
    method: 'get',
    path: '/authors/:id',
    tag: 'catalog',
    summary: 'An author or narrator with their books you may see',
    description: 'Not found when you may see none of their books.',
    caller: 'signedIn',
    params: id('The person id.'),
    answers: {
      200: {
        description: 'The person, the books they wrote and the books they read, each A to Z.',
        json: dataBody(
          z.object({
            person: personViewSchema,
            authored: z.array(catalogFileViewSchema),
            narrated: z.array(catalogFileViewSchema),
          }),
        ),
      },
    },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, params, res }) {
      const found = await catalog.getPersonBooks(ctx, params.id);
      const loaders = createCatalogLoaders(ctx.em);
      const [authored, narrated] = await Promise.all([
        presentCatalogFiles(ctx.em, found.authored, loaders),
        presentCatalogFiles(ctx.em, found.narrated, loaders),
      ]);
      sendData(res, { person: found.person, authored, narrated });
    },
  },
  {
    operationId: 'listSeries',
    method: 'get',
    path: '/series',
    tag: 'catalog',
    summary: 'Series of the books you may see',
    description: 'Only series holding a book you may see, each with how many such books.',
    caller: 'signedIn',
    query: nameSearch,
    answers: { 200: { description: 'One page, A to Z, and how many match in all.', json: seriesPage } },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, req, res }) {
      const { search, offset, limit } = readListQuery(req);
      const page = await catalog.listSeries(ctx, { search, offset, limit });
      sendData(res, page.items, { total: page.total });
    },
  },
  {
    operationId: 'getSeries',
    method: 'get',
    path: '/series/:id',
    tag: 'catalog',
    summary: 'A series with its books you may see, in order',
    description:
      'Numbered positions in order ("2" before "10"), then the rest by title. Not found when you may see none.',
    caller: 'signedIn',
    params: id('The series id.'),
    answers: {
      200: {
        description: 'The series and its books.',
        json: dataBody(
          z.object({
            series: seriesViewSchema,
            books: z.array(z.object({ position: z.string().nullable(), file: catalogFileViewSchema })),
          }),
        ),
      },
    },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, params, res }) {
      const found = await catalog.getSeriesBooks(ctx, params.id);
      const files = await presentCatalogFiles(
        ctx.em,
        found.books.map((b) => b.file),
        createCatalogLoaders(ctx.em),
      );
      sendData(res, {
        series: found.series,
        books: found.books.map((b, i) => ({ position: b.position, file: files[i] })),
      });
    },
  },
  {
    operationId: 'listGenres',
    method: 'get',
    path: '/genres',
    tag: 'catalog',
    summary: 'Genres of the books you may see',
    caller: 'signedIn',
    answers: {
      200: {
        description: 'A to Z, with how many of those books have each.',
        json: dataBody(z.array(z.object({ name: z.string(), bookCount: z.int().min(1) }))),
      },
    },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, res }) {
      sendData(res, await catalog.listGenres(ctx));
    },
  },
  {
    operationId: 'getBook',
    method: 'get',
    path: '/files/:id/book',
    tag: 'catalog',
    summary: "A file's book details: subtitle, authors, narrators, series, year, publisher, genres, language",
    caller: 'signedIn',
    params: id('The file id.'),
    answers: { 200: { description: 'Empty fields where nothing is known.', json: bookBody } },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, params, res }) {
      const file = await getFile(ctx, params.id);
      sendData(res, await presentBook(file.id, createCatalogLoaders(ctx.em)));
    },
  },
  {
    operationId: 'updateBook',
    method: 'put',
    path: '/admin/files/:id/book',
    tag: 'catalog',
    summary: "Change a file's book details",
    description: 'Absent fields stay as they are; blank ones and empty lists clear.',
    caller: 'admin',
    params: id('The file id.'),
    body: { required: true, json: bookDetailsSchema },
    answers: { 200: { description: 'The book details as stored.', json: bookBody } },
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, body, res }) {
      requireAdmin(ctx);
      const file = await catalog.updateBook(ctx, params.id, body);
      sendData(res, await presentBook(file.id, createCatalogLoaders(ctx.em)), { message: 'Book updated' });
    },
  },
]);
