import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { HashLost, HashThread } from './hash-thread.js';

const sha256 = (...parts: Buffer[]) => parts.reduce((h, p) => h.update(p), createHash('sha256')).digest('hex');
const dir = mkdtempSync(path.join(tmpdir(), 'pal-hash-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes bytes to a feed in socket-sized pieces, waiting whenever it asks to. */
async function feed(target: ReturnType<HashThread['fork']>, bytes: Buffer): Promise<void> {
  for (let at = 0; at < bytes.length; at += 64 * 1024) {
    if (!target.write(bytes.subarray(at, at + 64 * 1024))) await target.drained();
  }
  target.end();
}

describe('the hash thread', () => {
  it('hashes fed bytes, forks carry what was fed before them, and a digest adds a file range', async () => {
    const thread = new HashThread();
    const first = randomBytes(3 * 1024 * 1024 + 17);
    const second = randomBytes(2 * 1024 * 1024);
    const file = path.join(dir, 'rest.bin');
    const rest = randomBytes(1024 * 1024 + 5);
    writeFileSync(file, Buffer.concat([Buffer.alloc(100), rest]));

    const a = thread.fork(null);
    await feed(a, first);
    const b = thread.fork(a.id);
    await feed(b, second);
    expect(await thread.digest(a.id, '', 0, 0)).toBe(sha256(first));
    expect(await thread.digest(b.id, '', 0, 0)).toBe(sha256(first, second));
    expect(await thread.digest(b.id, file, 100, 100 + rest.length)).toBe(sha256(first, second, rest));
    expect(await thread.digest(null, file, 100, 100 + rest.length)).toBe(sha256(rest));
  });

  it('asks the writer to wait while 4 MiB are on their way, and lets it go once hashed', async () => {
    const thread = new HashThread();
    const target = thread.fork(null);
    const piece = Buffer.alloc(1024 * 1024, 1);
    const answers = [1, 2, 3, 4].map(() => target.write(piece));
    expect(answers).toEqual([true, true, true, false]);
    await target.drained();
    expect(await thread.digest(target.id, '', 0, 0)).toBe(sha256(piece, piece, piece, piece));
  });

  it('fails a digest from a state it does not hold, and after a restart digests again', async () => {
    const thread = new HashThread();
    const target = thread.fork(null);
    await feed(target, Buffer.from('before'));
    await expect(thread.digest(target.id + 1000, '', 0, 0)).rejects.toBeInstanceOf(HashLost);

    const pending = thread.digest(target.id, path.join(dir, 'missing'), 0, 10);
    await expect(pending).rejects.toThrow(/ENOENT/);
    await (thread as unknown as { worker: Worker }).worker.terminate();
    await expect(thread.digest(target.id, '', 0, 0)).rejects.toBeInstanceOf(HashLost);
    expect(await thread.digest(null, '', 0, 0)).toBe(sha256());
  });
});
