import { open, type FileHandle } from 'node:fs/promises';

interface Held {
  handle: Promise<FileHandle>;
  users: number;
  idle?: NodeJS.Timeout;
}

/**
 * Stored files kept open between byte requests. A player reads one file in many ranges, and
 * opening and closing it for each cost more than the read itself (about a tenth of a 64 KiB range
 * in a profile). Stored files never change, and who may read them is checked before a request gets
 * here; a file no request has used for `idleMs` is closed. Past `max` files held, a request opens
 * and closes its own, so a walk over a whole library cannot pile up descriptors.
 */
export class OpenFiles {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly idleMs: number,
    private readonly max: number,
  ) {}

  /** Runs `use` with the file open; rejects as open() does when the file cannot be opened. */
  async with<T>(path: string, use: (file: FileHandle) => Promise<T>): Promise<T> {
    const entry = this.held.get(path) ?? this.hold(path);
    if (!entry) {
      const file = await open(path);
      try {
        return await use(file);
      } finally {
        await file.close();
      }
    }
    entry.users++;
    clearTimeout(entry.idle);
    try {
      return await use(await entry.handle);
    } finally {
      entry.users--;
      if (entry.users === 0) entry.idle = setTimeout(() => this.release(path, entry), this.idleMs).unref();
    }
  }

  /** How many files are held open now. */
  get size(): number {
    return this.held.size;
  }

  private hold(path: string): Held | null {
    if (this.held.size >= this.max) return null;
    const entry: Held = { handle: open(path), users: 0 };
    this.held.set(path, entry);
    // A file that cannot be opened is not kept: the next request tries again.
    entry.handle.catch(() => this.held.get(path) === entry && this.held.delete(path));
    return entry;
  }

  private release(path: string, entry: Held): void {
    if (entry.users > 0) return;
    if (this.held.get(path) === entry) this.held.delete(path);
    entry.handle.then((file) => file.close()).catch(() => undefined);
  }
}
