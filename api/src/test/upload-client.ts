import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import path from 'node:path';
import { expect } from 'vitest';
import { generateTestAudio } from './audio-fixtures.js';
import type { Session } from './factories.js';
import type { RestResponse, TestApp } from './harness.js';

/** Where an upload's parts are kept until it is finalized or cancelled. */
export const uploadDir = (app: Pick<TestApp, 'config'>, id: string) => path.join(app.config.dataDir, 'uploads', id);

export const CLIENT_CHUNK_SIZE = 5 * 1024 * 1024;

/** About 11.5 MB of real WAV named `name`: three chunks of the client's size, the last one short. */
export async function threeChunkWav(name: string): Promise<Buffer> {
  const wav = readFileSync(await generateTestAudio('wav', 130, name));
  expect(Math.ceil(wav.length / CLIENT_CHUNK_SIZE)).toBe(3);
  return wav;
}

export interface PartialPart {
  /** The route under /api/v1, e.g. /audio/upload/chunk. */
  route: string;
  session: Session;
  headers?: Record<string, string>;
  field: string;
  fileName: string;
  bytes: Uint8Array;
  /** Bytes of the file part written; the rest never is. */
  sent: number;
}

const PARTIAL_BOUNDARY = 'partial-boundary';
/** What ends a body begun with startPartialPart, for a caller that sends the rest its own way. */
export const PARTIAL_TAIL = Buffer.from(`\r\n--${PARTIAL_BOUNDARY}--\r\n`);

/**
 * A multipart POST whose Content-Length announces the whole file part, of which only `sent` bytes
 * are written: the caller then cuts it (destroys the request, or kills the server), as a closed
 * browser tab or a crash would. Attach listeners to the request before awaiting anything.
 */
export function startPartialPart(baseUrl: string, part: PartialPart): ClientRequest {
  const boundary = PARTIAL_BOUNDARY;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.fileName}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = PARTIAL_TAIL;
  const req = request(`${baseUrl}/api/v1${part.route}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${part.session.token}`,
      'x-device-id': part.session.deviceId,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + part.bytes.length + tail.length),
      ...part.headers,
    },
  });
  req.write(head);
  req.write(part.bytes.subarray(0, part.sent));
  return req;
}

/** Sends the rest of a part begun with startPartialPart and ends the request. */
export function finishPartialPart(req: ClientRequest, part: PartialPart): void {
  req.write(part.bytes.subarray(part.sent));
  req.end(PARTIAL_TAIL);
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A multipart form as the web client builds it. */
export function uploadForm(
  fields: Record<string, string>,
  files: Record<string, { bytes: Uint8Array; name: string; type?: string }> = {},
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(files)) {
    form.append(
      name,
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  }
  return form;
}

export function audioPart(filePath: string, type = 'audio/mpeg') {
  return { bytes: readFileSync(filePath), name: path.basename(filePath), type };
}

/** The chunked client's calls, one helper each. */
export function chunkedClient(t: Pick<TestApp, 'rest'>, session: Session) {
  return {
    init(bytes: Uint8Array, fileName: string, overrides: Record<string, unknown> = {}) {
      return t.rest<{ success: boolean; uploadId: string; message?: string; error?: { code: string } }>(
        'POST',
        '/audio/upload/init',
        {
          fileName,
          fileSize: bytes.length,
          totalChunks: Math.ceil(bytes.length / CLIENT_CHUNK_SIZE),
          fileHash: sha256(bytes),
          mimeType: 'audio/wav',
          metadata: { source: 'test' },
          ...overrides,
        },
        session,
      );
    },
    chunk(
      uploadId: string,
      bytes: Uint8Array,
      fileName: string,
      index: number,
      part?: Uint8Array,
    ): Promise<RestResponse> {
      const start = index * CLIENT_CHUNK_SIZE;
      const data = part ?? bytes.subarray(start, Math.min(start + CLIENT_CHUNK_SIZE, bytes.length));
      return t.rest('POST', '/audio/upload/chunk', uploadForm({}, { chunk: { bytes: data, name: 'blob' } }), {
        ...session,
        headers: {
          'x-upload-id': uploadId,
          'x-chunk-index': String(index),
          'x-total-chunks': String(Math.ceil(bytes.length / CLIENT_CHUNK_SIZE)),
          'x-file-name': encodeURIComponent(fileName),
          'x-file-size': String(bytes.length),
        },
      });
    },
    status(uploadId: string) {
      return t.rest<{ uploadedChunks: number[]; data: { status: string } }>(
        'GET',
        `/audio/upload/status/${uploadId}`,
        undefined,
        session,
      );
    },
    finalize(uploadId: string, fields: Record<string, string> = {}, files: Parameters<typeof uploadForm>[1] = {}) {
      return t.rest<{ success: boolean; message: string; data: Record<string, unknown>; error?: { code: string } }>(
        'POST',
        `/audio/upload/finalize/${uploadId}`,
        uploadForm(fields, files),
        session,
      );
    },
    cancel(uploadId: string) {
      return t.rest('DELETE', `/audio/upload/cancel/${uploadId}`, undefined, session);
    },
  };
}

/** The response's status, or 'cut' when the server closed the connection without one. */
export function outcome(req: ClientRequest): Promise<number | 'cut'> {
  return new Promise((resolve) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve('cut'));
  });
}

/** Sends `bytes` in `pieces` a little under a second apart, then `tail` to end the body. */
export async function trickle(req: ClientRequest, bytes: Buffer, pieces: number, tail?: Buffer): Promise<void> {
  const step = Math.ceil(bytes.length / pieces);
  for (let i = 0; i < pieces && !req.destroyed; i++) {
    req.write(bytes.subarray(i * step, (i + 1) * step));
    await new Promise((r) => setTimeout(r, 700));
  }
  if (!req.destroyed) req.end(tail);
}
