import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../media/ffmpeg.js';
import { runFfmpeg } from './ffmpeg-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pal-ffmpeg-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function processesMatching(pattern: string): string {
  try {
    return execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

describe('runFfmpeg', () => {
  it('kills a process that hangs past its time limit and says so', async () => {
    const marker = `${Date.now() % 100000}.4242`;
    const fake = path.join(dir, 'hanging-ffmpeg.sh');
    writeFileSync(fake, `#!/bin/sh\nexec sleep ${marker}\n`);
    chmodSync(fake, 0o755);
    const started = Date.now();
    await expect(runFfmpeg(fake, [], 300)).rejects.toThrow('ffmpeg did not finish within 0 s and was stopped');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(processesMatching(`sleep ${marker}`)).toBe('');
  });

  it("reports ffmpeg's own error when it fails", async () => {
    await expect(
      runFfmpeg(ffmpegPath({}), ['-i', path.join(dir, 'missing.mp3'), '-f', 'null', '-'], 10_000),
    ).rejects.toThrow(/ffmpeg failed \(exit code 1\): .*missing\.mp3/);
  });

  it('reports a binary that cannot be started', async () => {
    await expect(runFfmpeg(path.join(dir, 'no-such-ffmpeg'), [], 1000)).rejects.toThrow('ffmpeg could not be started');
  });
});
