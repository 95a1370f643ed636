import { Router } from 'express';
import { AppError } from '../../errors.js';
import { readListQuery } from '../../http/list-query.js';
import { sendData } from '../../http/respond.js';
import { parseInput } from '../../validation.js';
import { requireAdmin } from '../auth/auth.policy.js';
import * as admin from './file-admin.service.js';
import { createFileLoaders } from './file-loaders.js';
import { readFileUpdateForm, type FileUpdateForm } from './file-update-form.js';
import { presentFile, presentFiles } from './file-view.js';
import { coverSizeSchema } from './files.schemas.js';
import * as files from './files.service.js';

/** REST /api/v1/files (library) and /api/v1/admin/files: thin adapters over the file services. */
export function filesRoutes(): Router {
  const router = Router();

  router.get('/files', async (req, res) => {
    const ctx = res.locals.ctx;
    const { search, offset, limit, sort } = readListQuery(req);
    const page = await files.listLibrary(ctx, { search, offset, limit, sort });
    sendData(res, await presentFiles(page.items, createFileLoaders(ctx.em)), { total: page.total });
  });

  router.get('/files/cover/:id', async (req, res, next) => {
    const cover = await files.getCoverImage(res.locals.ctx, req.params.id, parseInput(coverSizeSchema, req.query.size));
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
  });

  router.get('/files/:id', async (req, res) => {
    const ctx = res.locals.ctx;
    const file = await files.getFile(ctx, req.params.id);
    sendData(res, await presentFile(file, createFileLoaders(ctx.em), { chapters: true }));
  });

  router.get('/admin/files', async (req, res) => {
    const ctx = res.locals.ctx;
    const { search, offset, limit, status } = readListQuery(req);
    const page = await admin.listAdminFiles(ctx, {
      search,
      offset,
      limit,
      status: status as admin.FileStatus | undefined,
    });
    sendData(res, await presentFiles(page.items, createFileLoaders(ctx.em)), { total: page.total });
  });

  router.get('/admin/files/:id', async (req, res) => {
    const ctx = res.locals.ctx;
    const file = await admin.getAdminFile(ctx, req.params.id);
    sendData(res, await presentFile(file, createFileLoaders(ctx.em), { chapters: true }));
  });

  router.put('/admin/files/:id', async (req, res) => {
    const ctx = res.locals.ctx;
    // Refuse strangers before reading a multipart body of up to 5 MB.
    requireAdmin(ctx);
    const form: FileUpdateForm = req.is('multipart/form-data')
      ? await readFileUpdateForm(req)
      : { fields: req.body ?? {}, cover: null };
    const file = await admin.updateFile(ctx, req.params.id, form.fields, form.cover);
    sendData(res, await presentFile(file, createFileLoaders(ctx.em)), { message: 'File updated successfully!' });
  });

  router.delete('/admin/files/:id', async (req, res) => {
    await admin.deleteFile(res.locals.ctx, req.params.id);
    sendData(res, null, { message: 'File deleted successfully' });
  });

  return router;
}
