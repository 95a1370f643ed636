import { z } from 'zod';
import { component, dataBody, doneBody, filePart, idParam, routes, timestamp } from '../../http/contract.js';
import { COVER_MAX_BYTES } from '../files/cover-storage.js';
import { fileViewSchema } from '../files/file-view.js';
import { UploadStatus } from './upload-session.entity.js';
import {
  CHUNK_SIZE,
  MAX_FILE_SIZE,
  chunkHeaderNames,
  chunkHeadersSchema,
  fileDetailsSchema,
  initUploadSchema,
} from './uploads.schemas.js';

const uploadId = z.object({ uploadId: idParam('The upload id init answered.') });
const chunkList = z.array(z.int().min(0)).meta({ description: 'Indexes of the chunks the server holds, ascending.' });
const cover = filePart('image/*', `At most ${COVER_MAX_BYTES} bytes; JPEG, PNG, GIF or WebP, checked by content.`);
const detailsForm = fileDetailsSchema.extend({ cover: cover.optional() });
const created = {
  description: 'The new file of the library.',
  json: component('UploadedFile', dataBody(fileViewSchema, { message: z.string() })),
};

/** REST POST /api/v1/files and /api/v1/audio/upload/* (uploads.routes.ts). */
export const uploadsContract = routes([
  {
    operationId: 'uploadFile',
    method: 'post',
    path: '/files',
    tag: 'uploads',
    summary: 'Upload an audio file in one request',
    description: `Checked by content (ffmpeg probe), not by the declared type; at most ${MAX_FILE_SIZE} bytes. An empty title becomes the file name without its extension.`,
    caller: 'admin',
    body: {
      required: true,
      description: 'multipart/form-data only; the audio part streams to disk as it arrives.',
      multipart: detailsForm.extend({ audio: filePart('audio/*', 'The audio file.') }),
    },
    answers: { 201: created },
    errors: ['INSUFFICIENT_STORAGE'],
  },
  {
    operationId: 'initUpload',
    method: 'post',
    path: '/audio/upload/init',
    tag: 'uploads',
    summary: 'Start a resumable chunked upload',
    description: `Chunks are ${CHUNK_SIZE} bytes (the last one shorter); the upload expires if left unfinished.`,
    caller: 'admin',
    body: { required: true, json: initUploadSchema },
    answers: {
      200: {
        description: 'The upload, its id in data and beside it.',
        json: dataBody(z.object({ uploadId: z.guid(), chunkSize: z.int(), expiresAt: timestamp }), {
          uploadId: z.guid(),
        }),
      },
    },
  },
  {
    operationId: 'uploadChunk',
    method: 'post',
    path: '/audio/upload/chunk',
    tag: 'uploads',
    summary: 'Send one chunk',
    description:
      'The headers name the upload and the chunk; the body is a form with one `chunk` part, written at its offset. Chunks may come in any order and again after a failure.',
    caller: 'admin',
    headers: z.object({
      [chunkHeaderNames.uploadId]: chunkHeadersSchema.shape.uploadId,
      [chunkHeaderNames.chunkIndex]: chunkHeadersSchema.shape.chunkIndex,
      [chunkHeaderNames.totalChunks]: chunkHeadersSchema.shape.totalChunks,
      [chunkHeaderNames.fileSize]: chunkHeadersSchema.shape.fileSize,
      [chunkHeaderNames.fileName]: chunkHeadersSchema.shape.fileName,
    }),
    body: {
      required: true,
      description: 'multipart/form-data only.',
      multipart: z.object({ chunk: filePart('application/octet-stream', `The chunk's bytes, at most ${CHUNK_SIZE}.`) }),
    },
    answers: {
      200: {
        description: 'The chunks held so far, in data and beside it.',
        json: dataBody(z.object({ uploadId: z.guid(), chunkIndex: z.int(), uploadedChunks: chunkList }), {
          uploadedChunks: chunkList,
        }),
      },
    },
    errors: ['CONFLICT', 'INSUFFICIENT_STORAGE'],
  },
  {
    operationId: 'uploadStatus',
    method: 'get',
    path: '/audio/upload/status/:uploadId',
    tag: 'uploads',
    summary: 'Which chunks have arrived',
    description: 'What a client resuming an upload reads first.',
    caller: 'admin',
    params: uploadId,
    answers: {
      200: {
        description: 'The upload and the chunks held, in data and beside it.',
        json: dataBody(
          z.object({
            uploadId: z.guid(),
            status: z.enum(UploadStatus),
            totalChunks: z.int(),
            chunkSize: z.int(),
            fileSize: z.number(),
            uploadedChunks: chunkList,
          }),
          { uploadedChunks: chunkList },
        ),
      },
    },
  },
  {
    operationId: 'finalizeUpload',
    method: 'post',
    path: '/audio/upload/finalize/:uploadId',
    tag: 'uploads',
    summary: 'Assemble the chunks and create the file',
    description:
      'Verifies the SHA-256 given to init and probes the content. JSON, or multipart/form-data to send a cover too.',
    caller: 'admin',
    params: uploadId,
    body: { required: false, json: fileDetailsSchema, multipart: detailsForm },
    answers: { 201: created },
    errors: ['CONFLICT', 'INSUFFICIENT_STORAGE'],
  },
  {
    operationId: 'cancelUpload',
    method: 'delete',
    path: '/audio/upload/cancel/:uploadId',
    tag: 'uploads',
    summary: 'Cancel an upload and remove its chunks',
    caller: 'admin',
    params: uploadId,
    answers: { 200: { description: 'Cancelled.', json: doneBody } },
    errors: ['CONFLICT'],
  },
]);
