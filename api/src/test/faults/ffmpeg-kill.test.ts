import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChapterKey } from '../../features/chapters/chapter-key.entity.js';
import { ChapterSegment } from '../../features/chapters/chapter-segment.entity.js';
import { ffmpegPath } from '../../features/media/ffmpeg.js';
import { createAdminSession, type Session } from '../factories.js';
import { startTestApp, type TestApp } from '../harness.js';
import { createStoredAudioFile, removeTones } from '../stream-fixtures.js';
import { waitForChaptersReady, withSession } from '../chapter-client.js';

/**
 * ffmpeg is killed (SIGKILL) in the middle of encoding one chapter of a finalize. FFMPEG_PATH
 * points at a wrapper that runs the real ffmpeg, and for the chapter starting at 10 s slows it to
 * real time and kills it half a second in, at every attempt of its job.
 */

let wrapperDir: string;
let t: TestApp;
let admin: Session;

beforeAll(async () => {
  wrapperDir = mkdtempSync(path.join(tmpdir(), 'pal-ffmpeg-wrapper-'));
  const wrapper = path.join(wrapperDir, 'ffmpeg');
  writeFileSync(
    wrapper,
    `#!/bin/sh
case " $* " in
  *" -ss 10.000 "*) (sleep 0.5; kill -9 $$) & exec "${ffmpegPath({})}" -re "$@" ;;
esac
exec "${ffmpegPath({})}" "$@"
`,
  );
  chmodSync(wrapper, 0o755);
  t = await startTestApp({ env: { FFMPEG_PATH: wrapper } });
  admin = await createAdminSession(t);
});
afterAll(async () => {
  await t?.close();
  await removeTones();
  rmSync(wrapperDir, { recursive: true, force: true });
});

/** Processes whose command line mentions `needle` (ffmpeg runs with the source path in its arguments). */
function processesMentioning(needle: string): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .flatMap((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        return cmdline.includes(needle) ? [`${pid}: ${cmdline}`] : [];
      } catch {
        return [];
      }
    });
}

describe('ffmpeg killed during finalize', () => {
  it('fails that chapter cleanly, finishes the others and leaves no process or temporary file', async () => {
    const file = await createStoredAudioFile(t, { seconds: 20 });
    const created = await t.rest<{ data: { id: string; label: string }[] }>(
      'POST',
      `/files/${file.id}/chapters`,
      {
        chapters: [
          { label: 'One', startTime: 0, endTime: 5 },
          { label: 'Two', startTime: 5, endTime: 10 },
          { label: 'Killed', startTime: 10, endTime: 20 },
        ],
      },
      admin,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const killed = created.body.data.find((c) => c.label === 'Killed')!;

    const res = await t.rest<{ data: { summary: { finalized: number; failed: number }; queuedChapters: number } }>(
      'POST',
      `/files/${file.id}/chapters/finalize`,
      { storageType: 'filesystem' },
      admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ summary: { finalized: 0, failed: 0 }, queuedChapters: 3 });

    // What the admin screen shows once the jobs are done: two ready, one failed (after its two
    // retries, killed each time) with its reason.
    const list = await waitForChaptersReady(t, file.id, admin);
    expect(Object.fromEntries(list.map((c) => [c.id, c.status]))).toEqual(
      Object.fromEntries(created.body.data.map((c) => [c.id, c.id === killed.id ? 'failed' : 'ready'])),
    );
    expect(list.find((c) => c.id === killed.id)!.error).toMatch(/ffmpeg failed \(signal SIGKILL\)/);

    // The finished chapters play: a signed playlist with encrypted segments.
    for (const chapter of created.body.data.filter((c) => c.id !== killed.id)) {
      const url = await t.rest<{ data: { streamUrl: string } }>(
        'POST',
        `/files/${file.id}/chapters/${chapter.id}/stream-url`,
        {},
        admin,
      );
      expect(url.status, JSON.stringify(url.body)).toBe(200);
      const playlist = await fetch(`${t.url}${url.body.data.streamUrl}`, { headers: withSession(admin) });
      expect(playlist.status).toBe(200);
      expect(await playlist.text()).toMatch(/#EXT-X-KEY:METHOD=AES-128[\s\S]*\.ts/);
    }

    // Nothing of the killed chapter is kept, and nothing is left running or lying around.
    const em = t.app.orm.em.fork();
    expect(await em.count(ChapterKey, { chapter: killed.id })).toBe(0);
    expect(await em.count(ChapterSegment, { chapter: killed.id })).toBe(0);
    expect(existsSync(path.join(t.config.dataDir, 'chapters', killed.id))).toBe(false);
    expect(readdirSync(path.join(t.config.dataDir, 'tmp'))).toEqual([]);
    expect(processesMentioning(file.storagePath)).toEqual([]);
    expect(processesMentioning(wrapperDir)).toEqual([]);
  });
});
