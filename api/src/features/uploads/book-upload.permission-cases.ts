import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Case, MatrixWorld } from '../access/permission-matrix.rules.js';
import { generateTestAudio } from '../../test/audio-fixtures.js';
import type { Session } from '../../test/factories.js';
import { sha256, uploadForm } from '../../test/upload-client.js';

const CHUNK = 5 * 1024 * 1024;
let tone: Promise<Buffer> | null = null;

/**
 * Two complete chunked uploads of the caller's, ready to join. A caller who may not upload gets
 * ids of no upload: the join must refuse them before it looks for any.
 */
async function twoParts(w: MatrixWorld, s: Session | null): Promise<string[]> {
  tone ??= generateTestAudio('mp3', 1, 'part.mp3').then((file) => readFileSync(file));
  const bytes = await tone;
  const ids: string[] = [];
  for (const name of ['Part 1.mp3', 'Part 2.mp3']) {
    const init = await w.rest(
      'POST',
      '/audio/upload/init',
      { fileName: name, fileSize: bytes.length, totalChunks: Math.ceil(bytes.length / CHUNK), fileHash: sha256(bytes) },
      s,
    );
    if (init.code !== 'ok') return [randomUUID(), randomUUID()];
    const uploadId = (JSON.parse(init.text) as { uploadId: string }).uploadId;
    const headers = {
      'x-upload-id': uploadId,
      'x-chunk-index': '0',
      'x-total-chunks': '1',
      'x-file-size': String(bytes.length),
    };
    // The matrix passes the session on as the call's options, headers included.
    await w.rest('POST', '/audio/upload/chunk', uploadForm({}, { chunk: { bytes, name: 'blob' } }), {
      ...s!,
      ...{ headers },
    });
    ids.push(uploadId);
  }
  return ids;
}

/** The permission matrix's cases for joining a book's parts (features/access/permission-matrix.test.ts). */
export const permissionCases = (w: MatrixWorld): Record<string, Case> => ({
  'POST /audio/upload/book': {
    rule: 'admin',
    run: async (s) => w.rest('POST', '/audio/upload/book', { uploadIds: await twoParts(w, s) }, s),
  },
  'mutation joinBookUpload': {
    rule: 'admin',
    run: async (s) =>
      w.gql(
        'mutation($ids: [ID!]!) { joinBookUpload(input: { uploadIds: $ids }) { id } }',
        { ids: await twoParts(w, s) },
        s,
      ),
  },
});
