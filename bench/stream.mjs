// npm run bench:stream: range requests through /drm/stream against a bare static server, and the
// finalize of a one-hour file's chapters against the bare ffmpeg commands alone, side by side in
// one run on the same file. The API, the static server and this load generator are three processes.
//
// Contract (bench/README.md): `--json <file>` writes the figures; BENCH_TIME_LIMIT_SECONDS sizes
// the run. Knobs: BENCH_SECONDS (file length, default 3600), BENCH_LOAD_MS (per measurement,
// default 6000), BENCH_RANGE_BYTES (default 0: open ranges from a random start, as a media element
// asks after a seek; 1048576 measures small fixed ranges, where per-request cost dominates),
// BENCH_DATABASE_URL (a temporary database on that PostgreSQL server instead of embedded PGlite).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, openAsBlob, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { openBenchDatabase } from './lib/database.mjs';
import { dist, repoRoot } from './lib/paths.mjs';
import { startServer } from './lib/server.mjs';

const { ffmpegPath } = await import(dist('features/media/ffmpeg.js'));
const { hlsEncodeArgs } = await import(dist('features/chapters/hls-encode.js'));

const run = promisify(execFile);
const args = process.argv.slice(2);
const jsonFile = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const limitSeconds = Number(process.env.BENCH_TIME_LIMIT_SECONDS) || null;
// Under a tight limit (the runner's share of its budget) the file gets shorter, and the report says so.
const tight = limitSeconds !== null && limitSeconds < 200;
const SECONDS = Number(process.env.BENCH_SECONDS ?? (tight ? 900 : 3600));
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? (tight ? 3000 : 6000));
const RANGE_BYTES = Number(process.env.BENCH_RANGE_BYTES ?? 0);
const CONCURRENCY = [1, 16, 64];
const ROUNDS = 2;
const STREAM_AIM = 0.8;
const FINALIZE_AIM = 1.15;

const work = mkdtempSync(path.join(tmpdir(), 'pal-bench-stream-'));
const outDir = path.join(repoRoot, 'bench/out');
mkdirSync(outDir, { recursive: true });
const ffmpeg = ffmpegPath({ ffmpegPath: process.env.FFMPEG_PATH });
const admin = { email: 'stream-bench@example.com', password: randomBytes(12).toString('hex') };

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * One minute of a 128 kbit/s tone, then looped to SECONDS by copying MP3 frames: the same kind of
 * file as encoding the whole length, in about a second instead of minutes with the bundled ffmpeg.
 */
async function makeSource(file) {
  const minute = path.join(work, 'minute.mp3');
  const quiet = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'];
  await run(ffmpeg, [...quiet, '-f', 'lavfi', '-i', 'sine=frequency=440:duration=60', '-ac', '2', '-b:a', '128k', minute]);
  await run(ffmpeg, [...quiet, '-stream_loop', '-1', '-i', minute, '-t', String(SECONDS), '-c', 'copy', file]);
  rmSync(minute);
}

/** Clients loop over ranges for LOAD_MS; returns MB/s and the median time to first byte. */
async function load(url, concurrency, headers = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const size = Number((await fetch(url, { method: 'HEAD', headers })).headers.get('content-length'));
  let bytes = 0;
  const ttfb = [];
  const started = performance.now();
  const until = started + LOAD_MS;
  const client = async () => {
    while (performance.now() < until) {
      const start = Math.floor(Math.random() * (size - (RANGE_BYTES || size / 2)));
      const range = RANGE_BYTES ? `bytes=${start}-${start + RANGE_BYTES - 1}` : `bytes=${start}-`;
      await new Promise((resolve, reject) => {
        const t0 = performance.now();
        const req = http.get(url, { agent, headers: { ...headers, range } }, (res) => {
          if (res.statusCode !== 206) reject(new Error(`${url}: status ${res.statusCode}`));
          let first = true;
          res.on('data', (chunk) => {
            if (first) ttfb.push(performance.now() - t0);
            first = false;
            bytes += chunk.length;
          });
          res.on('end', resolve);
          res.on('error', reject);
        });
        req.on('error', reject);
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { mbps: bytes / 1e6 / seconds, ttfb: median(ttfb) };
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
      writeFileSync(path.join(c.dir, 'k.info'), `key\n${path.join(c.dir, 'k.key')}\n${randomBytes(16).toString('hex')}\n`);
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
  await makeSource(source);
  const size = statSync(source).size;
  console.log(`Source: ${SECONDS} s MP3, ${(size / 1e6).toFixed(1)} MB`);

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
    { BENCH_STATIC_FILE: source },
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
    const form = new FormData();
    form.set('audio', await openAsBlob(source, { type: 'audio/mpeg' }), 'bench.mp3');
    form.set('title', 'Stream bench');
    const file = (await rest(api.url, 'POST', '/files', { form, headers: auth })).data;
    const session = await rest(api.url, 'POST', `/drm/session/${file.id}`, { headers: auth });
    const streamUrl = `${api.url}${session.data.streamUrl}`;

    const rangeLabel = RANGE_BYTES ? `${RANGE_BYTES}-byte ranges` : 'open ranges from a random start';
    console.log(`\nRange requests (${rangeLabel}), ${ROUNDS} x ${LOAD_MS / 1000} s per side and concurrency`);
    console.log('clients | /drm/stream MB/s | baseline MB/s | ratio | /drm/stream TTFB ms | baseline TTFB ms');
    for (const clients of CONCURRENCY) {
      const ours = [];
      const theirs = [];
      // Alternating rounds, so drift in what else the machine does falls on both sides alike.
      for (let round = 0; round < ROUNDS; round++) {
        ours.push(await load(streamUrl, clients, auth));
        theirs.push(await load(`${bare.url}/bench.mp3`, clients));
      }
      const mbps = mean(ours.map((r) => r.mbps));
      const baseMbps = mean(theirs.map((r) => r.mbps));
      const ttfb = mean(ours.map((r) => r.ttfb));
      const baseTtfb = mean(theirs.map((r) => r.ttfb));
      console.log(
        `${String(clients).padStart(7)} | ${mbps.toFixed(0).padStart(16)} | ${baseMbps.toFixed(0).padStart(13)} | ${((mbps / baseMbps) * 100).toFixed(0).padStart(4)}% | ${ttfb.toFixed(2).padStart(19)} | ${baseTtfb.toFixed(2).padStart(16)}`,
      );
      const round1 = (n) => Math.round(n * 10) / 10;
      figures.push(
        {
          label: `/drm/stream, ${clients} client(s): throughput`,
          value: round1(mbps),
          unit: 'MB/s',
          baseline: round1(baseMbps),
          better: 'higher',
          aim: `ratio >= ${STREAM_AIM}`,
          met: mbps / baseMbps >= STREAM_AIM,
        },
        {
          label: `/drm/stream, ${clients} client(s): time to first byte, median`,
          value: Math.round(ttfb * 100) / 100,
          unit: 'ms',
          baseline: Math.round(baseTtfb * 100) / 100,
          better: 'lower',
        },
      );
    }

    const sample = await rest(api.url, 'POST', `/files/${file.id}/chapters/sample`, { headers: auth });
    const chapters = sample.data ?? sample.chapters ?? [];
    if (chapters.length === 0) throw new Error(`sample chapters: ${JSON.stringify(sample).slice(0, 300)}`);
    const ranges = chapters
      .map((c) => ({ start: c.startTime, end: c.endTime }))
      .sort((a, b) => a.start - b.start)
      .map((c, i, all) => ({ start: c.start, end: c.end ?? all[i + 1]?.start ?? SECONDS }));
    // As many at a time as finalize runs (chapter-finalize.ts: one per core, at most 4).
    const parallel = Math.max(1, Math.min(availableParallelism(), 4));
    console.log(`\nFinalize ${ranges.length} chapters of the ${SECONDS} s file (filesystem storage, ${parallel} ffmpeg at a time)`);
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
      `Range requests: ${rangeLabel} of a ${(size / 1e6).toFixed(1)} MB MP3 uploaded through POST /files; each figure is the mean of ${ROUNDS} alternating rounds of ${LOAD_MS / 1000} s per side. Every /drm/stream request carries the bearer token and device id, as the player sends them, and is re-checked (stream session, device session, account, live grant).`,
      'Baseline: a bare node:http server piping fs.createReadStream of the same file to the response, in its own process.',
      `Finalize: the API's POST /files/:id/chapters/finalize (cut, AAC-LC, AES-128 HLS segments, keys and rows stored) against the same ffmpeg commands run ${parallel} at a time by this script. ffmpeg: ${ffmpeg}.`,
      `Database: ${db.label}. Took ${Math.round((performance.now() - t0) / 1000)} s.`,
    );
    if (tight) notes.push(`The time limit (${limitSeconds} s) was too short for a one-hour file: this run used ${SECONDS} s.`);
  } finally {
    await bare.stop();
    await api.stop();
    await db.drop();
    rmSync(work, { recursive: true, force: true });
  }
  if (jsonFile) {
    writeFileSync(jsonFile, JSON.stringify({ title: 'Protected streaming and chapter finalize', figures, notes }, null, 2));
  }
}

await main();
