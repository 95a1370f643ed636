import { createHash } from 'node:crypto';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import type { ManifestEntry } from './backup-format.js';

/**
 * A tar archive written entry by entry into `out`, each entry streamed through SHA-256 on its
 * way in, so neither an entry nor the archive is ever held whole. `bytes` is what reached `out`.
 */
export class ArchiveWriter {
  readonly entries: ManifestEntry[] = [];
  private readonly pack = tar.pack();
  private readonly done: Promise<void>;
  private written = 0;

  constructor(out: Writable) {
    const count = new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        this.written += chunk.length;
        callback(null, chunk);
      },
    });
    this.done = pipeline(this.pack, count, out);
    // Awaited in finish(); a failure of `out` also fails the entry being written.
    this.done.catch(() => undefined);
  }

  get bytes(): number {
    return this.written;
  }

  /** Adds an entry of `size` bytes read from `source`; resolves once it is in the archive. */
  async add(name: string, size: number, source: Readable, mtime = new Date()): Promise<void> {
    const hash = createHash('sha256');
    let seen = 0;
    await new Promise<void>((resolve, reject) => {
      const entry = this.pack.entry({ name, size, mode: 0o600, mtime }, (err) => (err ? reject(err) : resolve()));
      source.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        hash.update(chunk);
      });
      source.once('error', (err) => {
        entry.destroy(err);
        reject(err);
      });
      this.done.catch(reject);
      source.pipe(entry);
    });
    // tar-stream checks the size too; this names the entry.
    if (seen !== size) throw new Error(`${name} changed size while it was archived (${size} to ${seen} bytes)`);
    this.entries.push({ path: name, size, sha256: hash.digest('hex') });
  }

  /** Adds a small entry held in memory (the header, the manifest). */
  addBuffer(name: string, bytes: Buffer, mtime = new Date()): Promise<void> {
    return this.add(name, bytes.length, Readable.from([bytes]), mtime);
  }

  /** Ends the archive and waits until `out` has taken all of it. */
  async finish(): Promise<void> {
    this.pack.finalize();
    await this.done;
  }

  /** Stops writing; `out` is destroyed with the error. */
  abort(err: Error): void {
    this.pack.destroy(err);
  }
}
