// npm run bench:stream: 64 KiB ranges and whole-file reads of a 48 MB MP3 (50 minutes at 128 kbit/s)
// through /drm/stream against a bare Node static server and nginx (wrk drives all three) serving the
// same file, and the finalize of a one-hour file's chapters against the bare ffmpeg commands alone,
// side by side in one run. The API, the static servers and the load generator are separate processes.
//
// Contract (bench/README.md): `--json <file>` writes the figures; BENCH_TIME_LIMIT_SECONDS sizes
// the run. Knobs: BENCH_SECONDS (finalize's file length, default 3600), BENCH_LOAD_SECONDS (per side and
// case, default 5), BENCH_DATABASE_URL (a temporary database on that PostgreSQL server instead of
// embedded PGlite). Without wrk (or nginx) on PATH the byte figures (or nginx's) are skipped.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, openAsBlob, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { measureBytes, RANGE_SPAN } from './lib/byte-stage.mjs';
import { openBenchDatabase } from './lib/database.mjs';
import { findNginx, startNginx } from './lib/nginx.mjs';
import { dist, repoRoot } from './lib/paths.mjs';
import { startServer } from './lib/server.mjs';
import { findWrk } from './lib/wrk.mjs';

const { ffmpegPath } = await import(dist('features/media/ffmpeg.js'));
const { hlsEncodeArgs } = await import(dist('features/chapters/hls-encode.js'));

const run = promisify(execFile);
const args = process.argv.slice(2);
const jsonFile = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const limitSeconds = Number(process.env.BENCH_TIME_LIMIT_SECONDS) || null;
// Under a tight limit (the runner's share of its budget) the file gets shorter, and the report says so.
const tight = limitSeconds !== null && limitSeconds < 300;
const SECONDS = Number(process.env.BENCH_SECONDS ?? (tight ? 900 : 3600));
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? (tight ? 3 : 5));
const ROUNDS = 2;
/** The byte figures' file: 48 MB at 128 kbit/s (issue 29 item 4), whatever the finalize file's length. */
const BYTES_SECONDS = 3000;
const FINALIZE_AIM = 1.15;

const work = mkdtempSync(path.join(tmpdir(), 'pal-bench-stream-'));
// nginx's worker runs as an unprivileged user and serves the source from here.
chmodSync(work, 0o755);
const wrk = findWrk();
const nginxBin = findNginx();
const outDir = path.join(repoRoot, 'bench/out');
mkdirSync(outDir, { recursive: true });
const ffmpeg = ffmpegPath({ ffmpegPath: process.env.FFMPEG_PATH });
const admin = { email: 'stream-bench@example.com', password: randomBytes(12).toString('hex') };

/**
 * One minute of a 128 kbit/s tone, then looped to each length by copying MP3 frames: the same kind
 * of file as encoding the whole length, in about a second instead of minutes with the bundled ffmpeg.
 */
async function makeSources(files) {
  const minute = path.join(work, 'minute.mp3');
  const quiet = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'];
  await run(ffmpeg, [
    ...quiet,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=60',
    '-ac',
    '2',
    '-b:a',
    '128k',
    minute,
  ]);
  for (const [file, seconds] of files) {
    await run(ffmpeg, [...quiet, '-stream_loop', '-1', '-i', minute, '-t', String(seconds), '-c', 'copy', file]);
  }
  rmSync(minute);
}

/** The same ffmpeg commands finalize runs, as many at a time, and nothing else. */
async function bareFfmpeg(source, chapters, parallel) {
  const dir = mkdtempSync(path.join(work, 'ffmpeg-'));
  const queue = chapters.map((c, i) => ({ ...c, dir: path.join(dir, String(i)) }));
  const started = performance.now();
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      mkdirSync(c.dir);
      writeFileSync(path.join(c.dir, 'k.key'), randomBytes(16));
      writeFileSync(
        path.join(c.dir, 'k.info'),
        `key\n${path.join(c.dir, 'k.key')}\n${randomBytes(16).toString('hex')}\n`,
      );
      const encodeArgs = hlsEncodeArgs(
        { source, startTime: c.start, duration: c.end - c.start, workDir: c.dir },
        path.join(c.dir, 'k.info'),
        path.join(c.dir, 'index.m3u8'),
      );
      await run(ffmpeg, encodeArgs);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  const ms = performance.now() - started;
  rmSync(dir, { recursive: true, force: true });
  return ms;
}

async function rest(base, method, route, { json, form, headers = {} } = {}) {
  const res = await fetch(`${base}/api/v1${route}`, {
    method,
    headers: json ? { 'content-type': 'application/json', ...headers } : headers,
    body: json ? JSON.stringify(json) : form,
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${body.message ?? JSON.stringify(body)}`);
  return body;
}

async function main() {
  const t0 = performance.now();
  const source = path.join(work, 'bench.mp3');
  const byteSource = SECONDS === BYTES_SECONDS ? source : path.join(work, 'bytes.mp3');
  await makeSources(
    SECONDS === BYTES_SECONDS
      ? [[source, SECONDS]]
      : [
          [source, SECONDS],
          [byteSource, BYTES_SECONDS],
        ],
  );
  const size = statSync(byteSource).size;
  console.log(
    `Sources: ${BYTES_SECONDS} s MP3 of ${(size / 1e6).toFixed(1)} MB for the bytes, ${SECONDS} s (${(statSync(source).size / 1e6).toFixed(1)} MB) for finalize`,
  );

  const db = await openBenchDatabase(process.env.BENCH_DATABASE_URL);
  const api = await startServer(
    path.join(repoRoot, 'api/dist/main.js'),
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, 'data'),
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      ...(db.url ? { DATABASE_URL: db.url } : {}),
    },
    'API',
    path.join(outDir, 'stream-api.log'),
  );
  const bare = await startServer(
    path.join(repoRoot, 'bench/lib/static-server.mjs'),
    { BENCH_STATIC_FILE: byteSource },
    'static server',
    path.join(outDir, 'stream-static.log'),
  );
  const figures = [];
  const notes = [];
  try {
    const deviceData = { deviceId: `stream-bench-${randomBytes(4).toString('hex')}`, deviceName: 'bench' };
    const login = await rest(api.url, 'POST', '/auth/login', {
      json: { email: admin.email, password: admin.password, deviceData, deviceApproved: true },
    });
    const auth = { authorization: `Bearer ${login.token}`, 'x-device-id': deviceData.deviceId };
    const upload = async (from, title) => {
      const form = new FormData();
      form.set('audio', await openAsBlob(from, { type: 'audio/mpeg' }), path.basename(from));
      form.set('title', title);
      return (await rest(api.url, 'POST', '/files', { form, headers: auth })).data;
    };
    const file = await upload(source, 'Stream bench');
    const byteFile = byteSource === source ? file : await upload(byteSource, 'Stream bench bytes');
    const session = await rest(api.url, 'POST', `/drm/session/${byteFile.id}`, { headers: auth });
    const streamUrl = `${api.url}${session.data.streamUrl}`;

    if (wrk) {
      console.log(`\nByte requests with wrk, ${ROUNDS} alternating rounds of ${LOAD_SECONDS} s per side and case`);
      const nginx = nginxBin ? await startNginx(nginxBin, work) : null;
      try {
        const bytes = await measureBytes({
          wrk,
          size,
          targets: {
            api: { url: streamUrl, headers: auth },
            node: { url: `${bare.url}/${path.basename(byteSource)}` },
            nginx: nginx && { url: `${nginx.url}/${path.basename(byteSource)}` },
          },
          seconds: LOAD_SECONDS,
          rounds: ROUNDS,
          log: console.log,
        });
        figures.push(...bytes.figures);
        const line = (t) =>
          `${t.case}: API ${t.api.rps.toFixed(0)} req/s (${t.api.mbps.toFixed(0)} MB/s), bare Node ${t.node.rps.toFixed(0)} req/s (${t.node.mbps.toFixed(0)} MB/s)` +
          (t.nginx ? `, nginx ${t.nginx.rps.toFixed(0)} req/s (${t.nginx.mbps.toFixed(0)} MB/s)` : '');
        notes.push(
          `Byte requests: wrk (one thread; the servers get the other core) for ${LOAD_SECONDS} s per side and case, ${ROUNDS} alternating rounds, means reported; random ${RANGE_SPAN / 1024} KiB ranges or the whole ${(size / 1e6).toFixed(1)} MB MP3 uploaded through POST /files. Every /drm/stream request carries the bearer token and device id, as the player sends them, and is re-checked (stream session, device session, account, live grant).`,
          'Baselines: a bare node:http server piping fs.createReadStream of the same file (its own process)' +
            (nginx ? '; nginx with sendfile and one worker process, as the API is one Node process.' : '.'),
          ...bytes.table.map(line),
        );
      } finally {
        await nginx?.stop();
      }
      if (!nginxBin)
        notes.push('nginx is not installed (apt-get install nginx-light): its anchor figures were skipped.');
    } else {
      notes.push(
        'wrk is not installed (apt-get install wrk): the byte figures were skipped, since a Node load generator tops out below what the servers deliver.',
      );
    }

    // Finalize runs ffmpeg twice over the file (alone, then through the API): on a machine too busy
    // for that within the limit, the byte figures are kept and finalize is left out, said so.
    const elapsed = (performance.now() - t0) / 1000;
    if (limitSeconds !== null && elapsed > limitSeconds * 0.55) {
      notes.push(
        `Finalize skipped: ${Math.round(elapsed)} s of the ${limitSeconds} s limit were gone after the byte figures (a busy machine), too little for ffmpeg twice over the file.`,
        `Database: ${db.label}.`,
      );
    } else {
      const sample = await rest(api.url, 'POST', `/files/${file.id}/chapters/sample`, { headers: auth });
      const chapters = sample.data ?? sample.chapters ?? [];
      if (chapters.length === 0) throw new Error(`sample chapters: ${JSON.stringify(sample).slice(0, 300)}`);
      const ranges = chapters
        .map((c) => ({ start: c.startTime, end: c.endTime }))
        .sort((a, b) => a.start - b.start)
        .map((c, i, all) => ({ start: c.start, end: c.end ?? all[i + 1]?.start ?? SECONDS }));
      // As many at a time as finalize runs (chapter-finalize.ts: one per core, at most 4).
      const parallel = Math.max(1, Math.min(availableParallelism(), 4));
      console.log(
        `\nFinalize ${ranges.length} chapters of the ${SECONDS} s file (filesystem storage, ${parallel} ffmpeg at a time)`,
      );
      const bareMs = await bareFfmpeg(source, ranges, parallel);
      const started = performance.now();
      const result = await rest(api.url, 'POST', `/files/${file.id}/chapters/finalize`, {
        json: { storageType: 'filesystem' },
        headers: auth,
      });
      const finalizeMs = performance.now() - started;
      if (result.summary?.finalized !== ranges.length)
        throw new Error(`finalize: ${JSON.stringify(result.summary ?? result).slice(0, 300)}`);
      console.log(
        `finalize ${(finalizeMs / 1000).toFixed(1)} s | bare ffmpeg ${(bareMs / 1000).toFixed(1)} s | overhead ${((finalizeMs / bareMs - 1) * 100).toFixed(1)}%`,
      );
      figures.push({
        label: `finalize ${ranges.length} chapters of a ${SECONDS / 60}-minute file`,
        value: Math.round(finalizeMs / 100) / 10,
        unit: 's',
        baseline: Math.round(bareMs / 100) / 10,
        baselineLabel: 'the same ffmpeg commands alone',
        better: 'lower',
        aim: `ratio <= ${FINALIZE_AIM}`,
        met: finalizeMs / bareMs <= FINALIZE_AIM,
      });
      notes.push(
        `Finalize: the API's POST /files/:id/chapters/finalize (cut, AAC-LC, AES-128 HLS segments, keys and rows stored) against the same ffmpeg commands run ${parallel} at a time by this script. ffmpeg: ${ffmpeg}.`,
        `Database: ${db.label}. Took ${Math.round((performance.now() - t0) / 1000)} s.`,
      );
    }
    if (tight)
      notes.push(
        `The time limit (${limitSeconds} s) was too short to finalize a one-hour file: finalize used ${SECONDS} s (the byte figures' file is ${BYTES_SECONDS} s either way).`,
      );
  } finally {
    await bare.stop();
    await api.stop();
    await db.drop();
    rmSync(work, { recursive: true, force: true });
  }
  if (jsonFile) {
    writeFileSync(
      jsonFile,
      JSON.stringify({ title: 'Protected streaming and chapter finalize', figures, notes }, null, 2),
    );
  }
}

await main();
