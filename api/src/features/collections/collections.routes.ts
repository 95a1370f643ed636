import { z } from 'zod';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { requireCaller } from '../../caller-policy.js';
import type { Ctx } from '../../context.js';
import { component, dataBody, doneBody, idParam, timestamp } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { createFileLoaders } from '../files/file-loaders.js';
import { fileViewSchema, presentFiles } from '../files/file-view.js';
import type { FileSummary } from '../files/files.service.js';
import { readCollectionFiles } from './collection-files.js';
import {
  collectionFileSchema,
  createCollectionSchema,
  reorderCollectionSchema,
  updateCollectionSchema,
  wantToListenLimitSchema,
} from './collections.schemas.js';
import * as collections from './collections.service.js';
import * as wantToListen from './want-to-listen.service.js';

const collectionViewSchema = component(
  'Collection',
  z
    .object({
      id: z.guid(),
      name: z.string(),
      description: z.string().nullable(),
      fileCount: z.number().int().meta({ description: 'How many of its files you may see.' }),
      createdAt: timestamp,
      updatedAt: timestamp,
    })
    .meta({ description: 'A collection curated by administrators, as you see it.' }),
);

const collectionWithFilesSchema = component(
  'CollectionWithFiles',
  collectionViewSchema
    .extend({ files: z.array(fileViewSchema).meta({ description: 'Its files you may see, in order.' }) })
    .meta({ description: 'A collection and its files you may see, in order.' }),
);

const id = z.object({ id: idParam('The collection id.') });
const idAndFile = z.object({ id: idParam('The collection id.'), fileId: idParam('The file id.') });
const fileId = z.object({ fileId: idParam('The file id.') });

/** A collection with its files the caller may see, as REST answers it after a read or a change. */
async function withFiles(ctx: Ctx, collection: collections.CollectionSummary) {
  const files = await readCollectionFiles(ctx.em, requireCaller(ctx), [collection.id]);
  return { ...collection, files: await presentFiles(files.get(collection.id) ?? [], createFileLoaders(ctx.em)) };
}

const present = (ctx: Ctx, files: FileSummary[]) => presentFiles(files, createFileLoaders(ctx.em));

/** REST /api/v1/collections, /admin/collections and /want-to-listen. */
export const collectionsRoutes = routes([
  {
    operationId: 'listCollections',
    method: 'get',
    path: '/collections',
    tag: 'collections',
    summary: 'Collections you may see',
    description:
      'Collections holding at least one file you may see, by name; each counts only those files. Administrators see every collection.',
    caller: 'signedIn',
    answers: { 200: { description: 'The collections.', json: dataBody(z.array(collectionViewSchema)) } },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, res }) {
      sendData(res, await collections.listCollections(ctx));
    },
  },
  {
    operationId: 'getCollection',
    method: 'get',
    path: '/collections/:id',
    tag: 'collections',
    summary: 'A collection and its files you may see',
    description: '404 when it holds no file you may see, as for an unknown id.',
    caller: 'signedIn',
    params: id,
    answers: { 200: { description: 'The collection.', json: dataBody(collectionWithFilesSchema) } },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, params, res }) {
      sendData(res, await withFiles(ctx, await collections.getCollection(ctx, params.id)));
    },
  },
  {
    operationId: 'createCollection',
    method: 'post',
    path: '/admin/collections',
    tag: 'collections',
    summary: 'Make an empty collection',
    caller: 'admin',
    body: { required: true, json: createCollectionSchema },
    answers: { 201: { description: 'The collection.', json: dataBody(collectionWithFilesSchema) } },
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, body, res }) {
      sendData(res, await withFiles(ctx, await collections.createCollection(ctx, body ?? {})), {}, 201);
    },
  },
  {
    operationId: 'updateCollection',
    method: 'patch',
    path: '/admin/collections/:id',
    tag: 'collections',
    summary: 'Rename a collection or change its description',
    caller: 'admin',
    params: id,
    body: { required: true, json: updateCollectionSchema },
    answers: { 200: { description: 'The collection.', json: dataBody(collectionWithFilesSchema) } },
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, body, res }) {
      sendData(res, await withFiles(ctx, await collections.updateCollection(ctx, params.id, body ?? {})));
    },
  },
  {
    operationId: 'deleteCollection',
    method: 'delete',
    path: '/admin/collections/:id',
    tag: 'collections',
    summary: 'Delete a collection',
    description: 'Its files stay in the library.',
    caller: 'admin',
    params: id,
    answers: { 200: { description: 'Deleted.', json: doneBody } },
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, res }) {
      await collections.deleteCollection(ctx, params.id);
      sendData(res, null, { message: 'Collection deleted' });
    },
  },
  {
    operationId: 'addToCollection',
    method: 'post',
    path: '/admin/collections/:id/files',
    tag: 'collections',
    summary: 'Put a file at the end of a collection',
    description: 'A file already in it stays where it is.',
    caller: 'admin',
    params: id,
    body: { required: true, json: collectionFileSchema },
    answers: { 200: { description: 'The collection.', json: dataBody(collectionWithFilesSchema) } },
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, body, res }) {
      sendData(res, await withFiles(ctx, await collections.addToCollection(ctx, params.id, body ?? {})));
    },
  },
  {
    operationId: 'removeFromCollection',
    method: 'delete',
    path: '/admin/collections/:id/files/:fileId',
    tag: 'collections',
    summary: 'Take a file out of a collection',
    caller: 'admin',
    params: idAndFile,
    answers: { 200: { description: 'The collection.', json: dataBody(collectionWithFilesSchema) } },
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, res }) {
      sendData(res, await withFiles(ctx, await collections.removeFromCollection(ctx, params.id, params.fileId)));
    },
  },
  {
    operationId: 'reorderCollection',
    method: 'put',
    path: '/admin/collections/:id/order',
    tag: 'collections',
    summary: 'Order a collection',
    description: 'fileIds names every file of the collection once; 409 when it does not (the list changed meanwhile).',
    caller: 'admin',
    params: id,
    body: { required: true, json: reorderCollectionSchema },
    answers: { 200: { description: 'The collection.', json: dataBody(collectionWithFilesSchema) } },
    errors: ['CONFLICT'],
    scopes: [ApiKeyScope.FILES_WRITE],
    async handle({ ctx, params, body, res }) {
      sendData(res, await withFiles(ctx, await collections.reorderCollection(ctx, params.id, body ?? {})));
    },
  },
  {
    operationId: 'listWantToListen',
    method: 'get',
    path: '/want-to-listen',
    tag: 'collections',
    summary: 'Your own "Want to listen" list',
    description: 'Most recently added first; files you may no longer see drop out. Nobody else sees it.',
    caller: 'signedIn',
    query: z.object({ limit: wantToListenLimitSchema }),
    answers: { 200: { description: 'The files.', json: dataBody(z.array(fileViewSchema)) } },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, req, res }) {
      const limit = typeof req.query.limit === 'string' ? Number(req.query.limit) : undefined;
      sendData(res, await present(ctx, await wantToListen.listWantToListen(ctx, limit)));
    },
  },
  {
    operationId: 'addToWantToListen',
    method: 'put',
    path: '/want-to-listen/:fileId',
    tag: 'collections',
    summary: 'Put a file you may see on your "Want to listen" list',
    caller: 'signedIn',
    params: fileId,
    answers: { 200: { description: 'The file.', json: dataBody(fileViewSchema) } },
    scopes: 'deviceOnly',
    async handle({ ctx, params, res }) {
      const [file] = await present(ctx, [await wantToListen.addToWantToListen(ctx, params.fileId)]);
      sendData(res, file);
    },
  },
  {
    operationId: 'removeFromWantToListen',
    method: 'delete',
    path: '/want-to-listen/:fileId',
    tag: 'collections',
    summary: 'Take a file off your "Want to listen" list',
    caller: 'signedIn',
    params: fileId,
    answers: { 200: { description: 'The file.', json: dataBody(fileViewSchema) } },
    scopes: 'deviceOnly',
    async handle({ ctx, params, res }) {
      const [file] = await present(ctx, [await wantToListen.removeFromWantToListen(ctx, params.fileId)]);
      sendData(res, file);
    },
  },
]);
