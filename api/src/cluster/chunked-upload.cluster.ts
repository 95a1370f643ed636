import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCaller } from '../test/harness.js';
import { chunkedClient, sha256, threeChunkWav } from '../test/upload-client.js';
import type { Session } from './cluster-client.js';
import { clusterOf, countByReplica, halfWritten, signInAdmin, withDatabase } from './cluster-fixtures.js';
import { UPSTREAM_HEADER } from './nginx.js';

const cluster = clusterOf();
const { proxy } = cluster;
let admin: Session;
beforeAll(async () => {
  admin = await signInAdmin(proxy);
});
afterAll(() => proxy.close());

describe('a chunked upload across replicas', () => {
  it('completes with the right hash when its chunks alternate between the replicas', async () => {
    const name = 'Alternating chunks.wav';
    const wav = await threeChunkWav(name);
    // Through nginx, round-robin: one request after another lands on one replica, then the other.
    const upload = chunkedClient({ rest: restCaller(cluster.proxyUrl) }, admin);
    const init = await upload.init(wav, name);
    expect(init.status).toBe(200);
    const id = init.body.uploadId;

    const chunks = [];
    for (const index of [0, 1, 2]) {
      const res = await upload.chunk(id, wav, name, index);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      chunks.push({ upstream: res.headers.get(UPSTREAM_HEADER) });
    }
    // Each chunk on the other replica than the one before: neither holds a running hash of all.
    expect(chunks[0].upstream).not.toBe(chunks[1].upstream);
    expect(chunks[1].upstream).not.toBe(chunks[2].upstream);
    expect(Object.keys(countByReplica(chunks)).sort()).toEqual(['replica a', 'replica b']);
    expect((await upload.status(id)).body.uploadedChunks).toEqual([0, 1, 2]);

    const done = await upload.finalize(id, { title: 'Alternating' });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.data).toMatchObject({ size: wav.length, filename: name });

    const { storagePath, status } = await withDatabase(async (db) => {
      const file = await db.query<{ storage_path: string }>('select storage_path from audio_files where id = $1', [
        done.body.data.id,
      ]);
      const session = await db.query<{ status: string }>('select status from upload_sessions where id = $1', [id]);
      return { storagePath: file.rows[0].storage_path, status: session.rows[0].status };
    });
    const stored = readFileSync(path.join(cluster.dataDir, storagePath));
    expect(createHash('sha256').update(stored).digest('hex')).toBe(sha256(wav));
    expect(status).toBe('completed');
    // Nothing half-written: no parts folder left, no audio file without its row.
    expect(await halfWritten()).toEqual({ strayAudio: [], strayUploadDirs: [] });
  });
});
