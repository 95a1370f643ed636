import { z } from 'zod';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { AppError } from '../../errors.js';
import { component, dataBody, doneBody, filePart, idParam, type HeaderDoc } from '../../http/contract.js';
import { listQuerySchema, readListQuery } from '../../http/list-query.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { parseInput } from '../../validation.js';
import { requireAdmin } from '../../caller-policy.js';
import { COVER_MAX_BYTES } from './cover-storage.js';
import * as admin from './file-admin.service.js';
import { createFileLoaders } from './file-loaders.js';
import { readFileUpdateForm, type FileUpdateForm } from './file-update-form.js';
import { fileViewSchema, presentFile, presentFiles } from './file-view.js';
import {
  coverSizeSchema,
  fileStatusSchema,
  libraryFilterQuerySchema,
  librarySortSchema,
  updateFileSchema,
} from './files.schemas.js';
import * as files from './files.service.js';

const fileId = z.object({ id: idParam('The file id.') });
const fileBody = component('FileAnswer', dataBody(fileViewSchema));
const filePage = component('FilePage', dataBody(z.array(fileViewSchema), { total: z.int().min(0) }));
const anyCase = 'Any case.';

const coverHeaders: Record<string, HeaderDoc> = {
  ETag: { description: 'Send it back as If-None-Match to get a 304 while unchanged.', schema: z.string() },
  'Last-Modified': { description: 'When the cover last changed.', schema: z.string() },
  'Cache-Control': { description: 'private, no-cache: asked for again each time.', schema: z.string() },
};

/** REST /api/v1/files (library) and /api/v1/admin/files. */
export const filesRoutes = routes([
  {
    operationId: 'listLibrary',
    method: 'get',
    path: '/files',
    tag: 'library',
    summary: 'The files you may see',
    description: 'Public files, files granted to you (live grants) and, for administrators, every file.',
    caller: 'signedIn',
    query: listQuerySchema('Case-insensitive substring of the title or description.').extend({
      sort: librarySortSchema.default(librarySortSchema.enum.RECENTLY_ADDED).meta({ description: anyCase }),
      ...libraryFilterQuerySchema.shape,
    }),
    answers: { 200: { description: 'One page of files and how many match in all.', json: filePage } },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, req, res }) {
      const { search, offset, limit, sort } = readListQuery(req);
      const filters = Object.fromEntries(
        Object.keys(libraryFilterQuerySchema.shape).map((name) => [name, req.query[name]]),
      ) as files.LibraryArgs;
      const page = await files.listLibrary(ctx, { ...filters, search, offset, limit, sort });
      sendData(res, await presentFiles(page.items, createFileLoaders(ctx.em)), { total: page.total });
    },
  },
  {
    operationId: 'getCover',
    method: 'get',
    path: '/files/cover/:id',
    tag: 'library',
    summary: 'The cover image of a file you may see',
    caller: 'signedIn',
    params: fileId,
    query: z.object({ size: coverSizeSchema }),
    headers: z.object({
      'If-None-Match': z.string().optional().meta({ description: 'The ETag of the copy you hold.' }),
    }),
    answers: {
      200: { description: 'The image (JPEG, PNG, GIF or WebP).', bytes: 'image/*', headers: coverHeaders },
      304: { description: 'Unchanged since the ETag you sent.', headers: coverHeaders },
    },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, params, req, res, next }) {
      const cover = await files.getCoverImage(ctx, params.id, parseInput(coverSizeSchema, req.query.size));
      // Private, and asked for again each time (a 304 when unchanged): a revoked grant, unpublished
      // file or ended session must stop showing it at once, not after a cached hour.
      res.setHeader('Cache-Control', 'private, no-cache');
      res.setHeader('ETag', cover.etag);
      res.setHeader('Last-Modified', cover.updatedAt.toUTCString());
      if (req.headers['if-none-match'] === cover.etag) {
        res.status(304).end();
        return;
      }
      res.type(cover.mimeType);
      if (cover.source.kind === 'inline') {
        res.send(cover.source.bytes);
        return;
      }
      res.sendFile(
        cover.source.fullPath,
        { cacheControl: false, lastModified: false, etag: false, dotfiles: 'allow' },
        (err) => {
          if (err && !res.headersSent) next(new AppError('NOT_FOUND', 'Cover not found'));
        },
      );
    },
  },
  {
    operationId: 'getFile',
    method: 'get',
    path: '/files/:id',
    tag: 'library',
    summary: 'One file you may see, with its chapters',
    caller: 'signedIn',
    params: fileId,
    answers: { 200: { description: 'The file; an inline cover as a data: URL.', json: fileBody } },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, params, res }) {
      const file = await files.getFile(ctx, params.id);
      sendData(res, await presentFile(file, createFileLoaders(ctx.em), { chapters: true }));
    },
  },
  {
    operationId: 'listAdminFiles',
    method: 'get',
    path: '/admin/files',
    tag: 'admin-files',
    summary: 'Every file',
    caller: 'admin',
    query: listQuerySchema('Case-insensitive substring of the title, filename or description.').extend({
      status: fileStatusSchema.default(fileStatusSchema.enum.ALL).meta({ description: anyCase }),
    }),
    answers: { 200: { description: 'One page of files, newest first, and how many match in all.', json: filePage } },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, req, res }) {
      const { search, offset, limit, status } = readListQuery(req);
      const page = await admin.listAdminFiles(ctx, {
        search,
        offset,
        limit,
        status: status as admin.FileStatus | undefined,
      });
      sendData(res, await presentFiles(page.items, createFileLoaders(ctx.em)), { total: page.total });
    },
  },
  {
    operationId: 'getAdminFile',
    method: 'get',
    path: '/admin/files/:id',
    tag: 'admin-files',
    summary: 'One file, with its chapters',
    caller: 'admin',
    params: fileId,
    answers: { 200: { description: 'The file.', json: fileBody } },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, params, res }) {
      const file = await admin.getAdminFile(ctx, params.id);
      sendData(res, await presentFile(file, createFileLoaders(ctx.em), { chapters: true }));
    },
  },
  {
    operationId: 'updateFile',
    method: 'put',
    path: '/admin/files/:id',
    tag: 'admin-files',
    summary: "Change a file's title, description, public flag and cover",
    description:
      'JSON, or multipart/form-data to send a cover too. Absent fields stay as they are. Making a file private stops the playback of listeners without a grant.',
    caller: 'admin',
    params: fileId,
    body: {
      required: false,
      json: updateFileSchema,
      multipart: updateFileSchema.extend({
        cover: filePart(
          'image/*',
          `At most ${COVER_MAX_BYTES} bytes; JPEG, PNG, GIF or WebP, checked by content.`,
        ).optional(),
      }),
    },
    answers: { 200: { description: 'The changed file.', json: fileBody } },
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, body, req, res }) {
      // Refuse strangers before reading a multipart body of up to 5 MB.
      requireAdmin(ctx);
      const form: FileUpdateForm = req.is('multipart/form-data')
        ? await readFileUpdateForm(req)
        : { fields: body ?? {}, cover: null };
      const file = await admin.updateFile(ctx, params.id, form.fields, form.cover);
      sendData(res, await presentFile(file, createFileLoaders(ctx.em)), { message: 'File updated successfully!' });
    },
  },
  {
    operationId: 'deleteFile',
    method: 'delete',
    path: '/admin/files/:id',
    tag: 'admin-files',
    summary: 'Delete a file',
    description: 'With its audio, cover, chapters, segments, grants and checkpoints; its listeners are stopped.',
    caller: 'admin',
    params: fileId,
    answers: { 200: { description: 'Deleted.', json: doneBody } },
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, res }) {
      await admin.deleteFile(ctx, params.id);
      sendData(res, null, { message: 'File deleted successfully' });
    },
  },
]);
