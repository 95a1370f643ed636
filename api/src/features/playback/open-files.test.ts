import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OpenFiles } from './open-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pal-open-files-'));
const fileOf = (name: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, name);
  return file;
};
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('open files', () => {
  it('reads a file through one descriptor while in use, and closes it once idle', async () => {
    const files = new OpenFiles(50, 8);
    const a = fileOf('a');
    const fds = await Promise.all([1, 2, 3].map(() => files.with(a, async (f) => f.fd)));
    expect(new Set(fds).size).toBe(1);
    expect(files.size).toBe(1);
    await new Promise((r) => setTimeout(r, 120));
    expect(files.size).toBe(0);
    expect(await files.with(a, async (f) => (await f.readFile('utf8')) as string)).toBe('a');
  });

  it('keeps a file open while a slow reader holds it, past the idle time', async () => {
    const files = new OpenFiles(20, 8);
    const b = fileOf('b');
    let release = () => {};
    const slow = files.with(b, () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 60));
    expect(files.size).toBe(1);
    release();
    await slow;
  });

  it('opens and closes its own descriptor past the limit, and keeps nothing it could not open', async () => {
    const files = new OpenFiles(1_000, 1);
    await files.with(fileOf('c'), async () => undefined);
    expect(await files.with(fileOf('d'), async (f) => (await f.readFile('utf8')) as string)).toBe('d');
    expect(files.size).toBe(1);
    const missing = new OpenFiles(1_000, 8);
    await expect(missing.with(path.join(dir, 'none'), async () => undefined)).rejects.toMatchObject({ code: 'ENOENT' });
    await new Promise((r) => setTimeout(r, 10));
    expect(missing.size).toBe(0);
  });
});
