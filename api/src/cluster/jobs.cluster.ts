import { randomUUID } from 'node:crypto';
import { createDecipheriv } from 'node:crypto';
import { copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageDirs } from '../features/files/storage-paths.js';
import { generateTestAudio } from '../test/audio-fixtures.js';
import { ClusterClient, type Session } from './cluster-client.js';
import {
  clusterOf,
  halfWritten,
  killReplica,
  processesMentioning,
  replicaOfPid,
  signInAdmin,
  waitForAllReplicas,
  withDatabase,
} from './cluster-fixtures.js';

/**
 * Background jobs across two replicas on one PostgreSQL: a finalize whose replica is killed
 * mid-encode is finished by a replica still alive, and jobs sent through both run once each.
 * The global setup sets JOB_HEARTBEAT_SECONDS=10 and JOB_SUPERVISE_SECONDS=2.
 */

const cluster = clusterOf();
const { proxy } = cluster;
let admin: Session;
const tones: string[] = [];
beforeAll(async () => {
  admin = await signInAdmin(proxy);
});
afterAll(async () => {
  await waitForAllReplicas();
  proxy.close();
  for (const tone of tones) await rm(path.dirname(tone), { recursive: true, force: true });
});

interface ChapterEvent {
  chapterId: string | null;
  status: string | null;
  progress: number | null;
}

/** A file row with `seconds` of real MP3 under the shared DATA_DIR; returns its id and stored path. */
async function toneFile(seconds: number): Promise<{ id: string; storagePath: string }> {
  const tone = await generateTestAudio('mp3', seconds);
  tones.push(tone);
  const id = randomUUID();
  const storagePath = path.join(storageDirs.audio, `${id}.mp3`);
  await mkdir(path.join(cluster.dataDir, storageDirs.audio), { recursive: true });
  await copyFile(tone, path.join(cluster.dataDir, storagePath));
  const { size } = await stat(tone);
  await withDatabase((db) =>
    db.query(
      `insert into audio_files (id, title, filename, storage_path, size, duration, mime_type, is_public, created_at, updated_at)
       values ($1, 'Tone', 'tone.mp3', $2, $3, $4, 'audio/mpeg', false, now(), now())`,
      [id, storagePath, size, seconds],
    ),
  );
  return { id, storagePath };
}

async function addChapters(fileId: string, chapters: { label: string; startTime: number; endTime?: number }[]) {
  const res = await proxy.rest<{ data: { id: string }[] }>('POST', `/files/${fileId}/chapters`, { chapters }, admin);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.map((c) => c.id);
}

async function chapterStatuses(fileId: string): Promise<{ id: string; status: string; error: string | null }[]> {
  const res = await proxy.rest<{ data: { id: string; status: string; error: string | null }[] }>(
    'GET',
    `/files/${fileId}/chapters`,
    undefined,
    admin,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null> | T | null): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The pg-boss rows of the finalize jobs of these chapters. */
function finalizeJobs(chapterIds: string[]) {
  return withDatabase(async (db) => {
    const rows = await db.query<{ chapter: string; state: string; retry_count: number }>(
      `select data->>'chapterId' as chapter, state, retry_count from pgboss.job
        where name = 'chapter-finalize' and data->>'chapterId' = any($1)`,
      [chapterIds],
    );
    return rows.rows;
  });
}

function looksLikeTransportStream(bytes: Buffer): boolean {
  return bytes.length >= 188 * 2 && bytes[0] === 0x47 && bytes[188] === 0x47;
}

describe('a finalize whose replica is killed mid-encode', () => {
  it('is taken up by a live replica and ends ready, playable, with nothing half-written', async () => {
    // Ten minutes of audio: about ten seconds of encoding, so the kill lands in the middle.
    const file = await toneFile(600);
    const [chapterId] = await addChapters(file.id, [{ label: 'Whole', startTime: 0 }]);
    // Followed on each replica: the one holding a socket may be the one killed.
    const watchers = await Promise.all(
      cluster.replicaUrls.map((url) =>
        new ClusterClient(url).subscribe<{ chapterEvents: ChapterEvent }>(
          admin,
          'subscription($id: ID!) { chapterEvents(fileId: $id) { chapterId status progress } }',
          { id: file.id },
        ),
      ),
    );
    const events = () =>
      watchers.flatMap((w) => w.events.map((e) => e.chapterEvents)).filter((e) => e.chapterId === chapterId);
    try {
      const asked = performance.now();
      const res = await proxy.rest<{ data: { queuedChapters: number } }>(
        'POST',
        `/files/${file.id}/chapters/finalize`,
        { storageType: 'filesystem' },
        admin,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(performance.now() - asked).toBeLessThan(2000);
      expect(res.body.data.queuedChapters).toBe(1);

      // Encoding has begun: ffmpeg reported progress, through Redis to both sockets.
      await until('a first progress event', 60_000, () => events().some((e) => (e.progress ?? 0) > 0));
      const [encoder] = processesMentioning(file.storagePath).filter((p) => p.cmdline.includes('-hls_time'));
      expect(encoder, 'the ffmpeg encoding the chapter').toBeDefined();
      const victim = replicaOfPid(encoder.parent);
      expect(victim, 'the replica running the job').not.toBeNull();
      killReplica(victim!);
      const killedAt = performance.now();
      const progressAtKill = Math.max(...events().map((e) => e.progress ?? 0));
      expect(progressAtKill).toBeLessThan(100);

      // Retaken once its heartbeat is missed (10 s), encoded again from the start: ready.
      const ended = await until('the chapter ready or failed', 120_000, async () => {
        const [row] = await chapterStatuses(file.id);
        return row.status === 'ready' || row.status === 'failed' ? row : null;
      });
      const readyAfterMs = performance.now() - killedAt;
      expect(ended, JSON.stringify(ended)).toMatchObject({ status: 'ready', error: null });
      expect(readyAfterMs).toBeLessThan(90_000);
      const [job] = await finalizeJobs([chapterId]);
      expect(job).toMatchObject({ state: 'completed' });
      expect(job.retry_count).toBeGreaterThanOrEqual(1);
      await until('the ready event', 10_000, () => events().some((e) => e.status === 'ready' && e.progress === 100));

      // It plays: the playlist, its key and every segment, through nginx.
      const url = await proxy.rest<{ data: { streamUrl: string } }>(
        'POST',
        `/files/${file.id}/chapters/${chapterId}/stream-url`,
        {},
        admin,
      );
      expect(url.status, JSON.stringify(url.body)).toBe(200);
      const playlist = await proxy.request<string>('GET', url.body.data.streamUrl, { session: admin });
      expect(playlist.status).toBe(200);
      const text = String(playlist.body);
      const keyLine = /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)",IV=0x([0-9a-f]{32})/i.exec(text);
      expect(keyLine, text.slice(0, 300)).not.toBeNull();
      const base = new URL(url.body.data.streamUrl, cluster.proxyUrl);
      const keyUrl = new URL(keyLine![1], base);
      const key = await fetch(new URL(keyUrl.pathname + keyUrl.search, cluster.proxyUrl), {
        headers: { authorization: `Bearer ${admin.token}`, 'x-device-id': admin.deviceId },
      });
      expect(key.status).toBe(200);
      const keyBytes = Buffer.from(await key.arrayBuffer());
      expect(keyBytes.length).toBe(16);
      const segments = text.split('\n').filter((line) => line && !line.startsWith('#'));
      expect(segments.length).toBeGreaterThanOrEqual(100); // 600 s in segments of about 6 s
      for (const [index, segment] of segments.entries()) {
        const res = await fetch(new URL(segment, base));
        expect(res.status, segment).toBe(200);
        if (index === 0) {
          const decipher = createDecipheriv('aes-128-cbc', keyBytes, Buffer.from(keyLine![2], 'hex'));
          const bytes = Buffer.from(await res.arrayBuffer());
          expect(looksLikeTransportStream(Buffer.concat([decipher.update(bytes), decipher.final()]))).toBe(true);
        } else await res.arrayBuffer();
      }

      // Nothing half-written: no work folder, exactly the stored segments, no encoder left running.
      const tmp = await readdir(path.join(cluster.dataDir, storageDirs.tmp)).catch(() => [] as string[]);
      expect(tmp.filter((name) => name.startsWith(`finalize-${chapterId}`))).toEqual([]);
      const stored = await readdir(path.join(cluster.dataDir, storageDirs.chapters, chapterId));
      expect(stored.length).toBe(segments.length);
      await until('no ffmpeg left on the file', 15_000, () => processesMentioning(file.storagePath).length === 0);
      expect(await halfWritten()).toEqual({ strayAudio: [], strayUploadDirs: [] });
      console.info(
        `killed at ${progressAtKill}%; ready ${Math.round(readyAfterMs)} ms after the kill (retries: ${job.retry_count})`,
      );
    } finally {
      await Promise.all(watchers.map((w) => w.close().catch(() => undefined)));
    }
  });
});

describe('jobs sent through both replicas', () => {
  it('run once each, between the two', async () => {
    await waitForAllReplicas();
    const files = await Promise.all([0, 1, 2, 3].map(() => toneFile(30)));
    const chapterIds: string[] = [];
    for (const file of files) {
      chapterIds.push(
        ...(await addChapters(
          file.id,
          [0, 6, 12, 18, 24].map((start, i) => ({ label: `Part ${i + 1}`, startTime: start, endTime: start + 6 })),
        )),
      );
    }
    // Which replica's ffmpeg encodes, sampled while the jobs run.
    const seen = new Set<string>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const file of files) {
          for (const p of processesMentioning(file.storagePath)) {
            const replica = replicaOfPid(p.parent);
            if (replica) seen.add(replica);
          }
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    try {
      // Two files through each replica directly.
      const answers = await Promise.all(
        files.map((file, i) =>
          new ClusterClient(cluster.replicaUrls[i % 2]).rest<{ data: { queuedChapters: number } }>(
            'POST',
            `/files/${file.id}/chapters/finalize`,
            { storageType: i < 2 ? 'filesystem' : 'database' },
            admin,
          ),
        ),
      );
      for (const answer of answers) expect(answer.body.data?.queuedChapters, JSON.stringify(answer.body)).toBe(5);
      await until('every chapter ready', 120_000, async () => {
        const rows = (await Promise.all(files.map((f) => chapterStatuses(f.id)))).flat();
        return rows.every((r) => r.status === 'ready') ? rows : null;
      });
    } finally {
      sampling = false;
      await sampler;
    }
    const jobs = await finalizeJobs(chapterIds);
    expect(jobs).toHaveLength(20);
    expect(new Set(jobs.map((j) => j.chapter)).size).toBe(20);
    expect(
      jobs.every((j) => j.state === 'completed' && j.retry_count === 0),
      JSON.stringify(jobs),
    ).toBe(true);
    expect(seen, 'replicas seen running ffmpeg').toEqual(new Set(cluster.replicaUrls.map((url) => new URL(url).host)));
  });
});
