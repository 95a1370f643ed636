import busboy from 'busboy';
import type { Request } from 'express';
import { AppError } from '../../errors.js';
import { receiveCover, type ReceivedCover } from './cover-storage.js';

export interface FileUpdateForm {
  fields: Record<string, string>;
  cover: ReceivedCover | null;
}

const FIELD_LIMIT_BYTES = 100_000;

/**
 * Reads the multipart form of PUT /admin/files/{id}: text fields and an optional `cover` part,
 * which is checked by its magic bytes and refused above 5 MB while it streams in.
 */
export function readFileUpdateForm(req: Request): Promise<FileUpdateForm> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 20, fieldSize: FIELD_LIMIT_BYTES } });
    } catch {
      reject(new AppError('BAD_USER_INPUT', 'Malformed multipart body'));
      return;
    }
    const fields: Record<string, string> = {};
    let coverPromise: Promise<ReceivedCover | null> = Promise.resolve(null);
    let failure: AppError | null = null;
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) failure ??= new AppError('PAYLOAD_TOO_LARGE', `${name} is too long`);
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'cover') {
        // A body cut short also fails this ignored part; the parser's own error reports it, and an
        // 'error' with no listener would crash the process.
        stream.on('error', () => undefined).resume();
        failure ??= new AppError('BAD_USER_INPUT', `Unexpected file field ${name}`);
        return;
      }
      if (!info.mimeType.startsWith('image/') && info.filename) {
        failure ??= new AppError('UNSUPPORTED_MEDIA_TYPE', 'Please select an image file (JPG, PNG, etc.)');
      }
      coverPromise = receiveCover(stream);
      // Settled below; without this a rejection before 'close' would be reported as unhandled.
      coverPromise.catch(() => undefined);
    });
    parser.on('filesLimit', () => {
      failure ??= new AppError('BAD_USER_INPUT', 'Only one cover image may be sent');
    });
    parser.on('error', () => reject(new AppError('BAD_USER_INPUT', 'Malformed multipart body')));
    parser.on('close', () => {
      coverPromise.then(
        (cover) => (failure ? reject(failure) : resolve({ fields, cover })),
        (err: unknown) => reject(failure ?? err),
      );
    });
    req.pipe(parser);
  });
}
