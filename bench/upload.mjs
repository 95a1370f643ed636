// Chunked upload benchmark: a 1 GiB WAV uploaded through init/chunk/finalize over loopback with
// the client's 5 MiB chunks, beside a baseline measured in the same run (a plain Node stream copy
// of the same file to the same disk). Prints throughput, their ratio, finalize time and the
// server's peak resident memory. A second reference, the floor, sends the same chunks to a bare
// receiver (lib/bare-upload-receiver.mjs: busboy, SHA-256 on the API's hash thread, write;
// nothing else), to show how much of the gap to the copy is the app's and how much any receiver
// on this machine pays.
// Run with `npm run bench:upload` (builds the API first).
// Contract (bench/README.md): `--json <file>` writes the figures. Knobs: BENCH_UPLOAD_BYTES, BENCH_UPLOAD_ROUNDS
// (default 3), BENCH_UPLOAD_CONCURRENCY (default 1), BENCH_DATABASE_URL (a temporary database there).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { openBenchDatabase } from './lib/database.mjs';
import { wavHeader } from './lib/wav.mjs';

const CHUNK = 5 * 1024 * 1024;
const SIZE = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const work = mkdtempSync(path.join(tmpdir(), 'pal-bench-upload-'));
const dataDir = path.join(work, 'data');
const source = path.join(work, 'bench-tone.wav');
// e.g. BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the server.
const serverNodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const mb = (bytes, ms) => bytes / 1024 / 1024 / (ms / 1000);

/** A WAV header and SIZE bytes in total of a 16-bit stereo square-ish tone, written in 8 MiB blocks. */
async function writeSourceWav() {
  const dataBytes = SIZE - 44;
  const header = wavHeader(dataBytes, 2);
  const block = Buffer.alloc(8 * 1024 * 1024);
  for (let i = 0; i < block.length; i += 2) block.writeInt16LE(Math.round(8000 * Math.sin((i / 4) * 0.0627)), i);
  const out = await open(source, 'w');
  await out.write(header);
  for (let left = dataBytes; left > 0; left -= block.length) await out.write(block, 0, Math.min(block.length, left));
  await out.close();
}

function rss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { now: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024 };
}

async function startServer() {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const env = {
    ...inherited,
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-password-1',
    LOG_LEVEL: 'warn',
  };
  const child = spawn(process.execPath, [...serverNodeArgs, path.join(root, 'api/dist/main.js')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /running at (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, url };
}

async function signIn(url) {
  const deviceData = { deviceId: 'bench-device-0001', deviceName: 'bench', browser: 'node', os: 'Linux' };
  const body = { email: 'bench@example.com', password: 'bench-password-1', deviceData, deviceApproved: true };
  const res = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!json.token) throw new Error(`sign-in failed: ${json.message}`);
  return { authorization: `Bearer ${json.token}`, 'x-device-id': deviceData.deviceId };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const BOUNDARY = '----pal-bench-boundary';
const CONCURRENCY = Number(process.env.BENCH_UPLOAD_CONCURRENCY ?? 1);
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3);
const args = process.argv.slice(2);
const jsonFile = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One chunk as multipart over a kept-alive connection (undici's fetch + FormData costs more than the server here). */
function postChunk(url, route, headers, bytes) {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="chunk"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: hostname,
        port,
        method: 'POST',
        path: route,
        agent,
        headers: {
          ...headers,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': head.length + bytes.length + tail.length,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`chunk: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.once('error', reject);
    req.write(head);
    req.write(bytes);
    req.end(tail);
  });
}

/** Starts the floor's bare receiver in its own process; resolves its base URL. */
async function startBareReceiver(target) {
  const child = spawn(process.execPath, [path.join(root, 'bench/lib/bare-upload-receiver.mjs'), target], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(/listening (\d+)/.exec(String(d))?.[1]));
    child.once('exit', (code) => reject(new Error(`bare receiver exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/**
 * Every chunk of the source to `route`, `inFlight` at a time (1 is the web client's behaviour),
 * each sender reading its next chunk from disk while the current one is on the wire, as a
 * browser reads a File lazily.
 */
async function sendChunks(url, route, totalChunks, headersFor, inFlight) {
  const file = await open(source, 'r');
  const read = async (i) => {
    const buffer = Buffer.allocUnsafe(CHUNK);
    const { bytesRead } = await file.read(buffer, 0, CHUNK, i * CHUNK);
    return buffer.subarray(0, bytesRead);
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      let i = next++;
      let bytes = i < totalChunks ? read(i) : null;
      while (bytes) {
        const current = await bytes;
        const following = next++;
        bytes = following < totalChunks ? read(following) : null;
        await postChunk(url, route, headersFor(i), current);
        i = following;
      }
    }),
  );
  await file.close();
}

async function call(url, route, init) {
  const res = await fetch(`${url}/api/v1${route}`, init);
  const json = await res.json();
  if (!json.success) throw new Error(`${route}: ${res.status} ${json.message}`);
  return json;
}

console.log(`Preparing a ${(SIZE / 1024 ** 3).toFixed(2)} GiB WAV in ${work} ...`);
await writeSourceWav();
// The SHA-256 the client sends with init; timed, since the server must compute it once too.
const hashStart = performance.now();
const hash = createHash('sha256');
await pipeline(createReadStream(source, { highWaterMark: 1024 * 1024 }), hash);
const fileHash = hash.digest('hex');
const hashMs = performance.now() - hashStart;

const db = await openBenchDatabase(process.env.BENCH_DATABASE_URL);
const { child, url } = await startServer();
const bareTarget = path.join(dataDir, 'bare-upload.bin');
let bare = null;
try {
  bare = await startBareReceiver(bareTarget);
  const auth = await signIn(url);
  const totalChunks = Math.ceil(SIZE / CHUNK);

  /** A plain Node stream copy of the same bytes to the same disk. */
  async function copyOnce() {
    const target = path.join(dataDir, 'baseline.bin');
    const started = performance.now();
    await pipeline(createReadStream(source, { highWaterMark: 1024 * 1024 }), createWriteStream(target));
    const ms = performance.now() - started;
    rmSync(target);
    return ms;
  }

  /** The same chunks, one at a time, to the bare receiver; its digest must be the file's. */
  async function bareOnce() {
    const started = performance.now();
    await fetch(`${bare.url}/start`, { method: 'POST' });
    // One at a time whatever BENCH_UPLOAD_CONCURRENCY says: the receiver hashes in arrival order.
    await sendChunks(bare.url, '/chunk', totalChunks, (i) => ({ 'x-chunk-index': String(i) }), 1);
    const { digest } = await (await fetch(`${bare.url}/finish`, { method: 'POST' })).json();
    const ms = performance.now() - started;
    if (digest !== fileHash) throw new Error('the bare receiver hashed other bytes than the file');
    rmSync(bareTarget);
    return ms;
  }

  /** init, every chunk, finalize, as the web client does; returns the times and the created file. */
  async function uploadOnce() {
    const started = performance.now();
    const init = await call(url, '/audio/upload/init', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        fileName: 'bench-tone.wav',
        fileSize: SIZE,
        totalChunks,
        fileHash,
        mimeType: 'audio/wav',
      }),
    });
    const headersFor = (i) => ({
      ...auth,
      'x-upload-id': init.uploadId,
      'x-chunk-index': String(i),
      'x-total-chunks': String(totalChunks),
      'x-file-name': encodeURIComponent('bench-tone.wav'),
      'x-file-size': String(SIZE),
    });
    await sendChunks(url, '/api/v1/audio/upload/chunk', totalChunks, headersFor, CONCURRENCY);
    const finalizeStart = performance.now();
    const done = await call(url, `/audio/upload/finalize/${init.uploadId}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Benchmark tone' }),
    });
    const end = performance.now();
    return { uploadMs: end - started, finalizeMs: end - finalizeStart, file: done.data };
  }

  const before = rss(child.pid);
  let sampledPeak = before.now;
  const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, rss(child.pid).now)), 50);
  const copies = [];
  const bares = [];
  const uploads = [];
  // Alternating rounds, each starting with nothing dirty in the page cache, so neither side pays
  // for the other's (or the source file's) write-back, and drift on the machine hits both alike.
  for (let round = 0; round < ROUNDS; round++) {
    spawnSync('sync');
    copies.push(await copyOnce());
    spawnSync('sync');
    bares.push(await bareOnce());
    spawnSync('sync');
    const result = await uploadOnce();
    uploads.push(result);
    await call(url, `/admin/files/${result.file.id}`, { method: 'DELETE', headers: auth });
  }
  clearInterval(sampler);
  const after = rss(child.pid);
  sampledPeak = Math.max(sampledPeak, after.now);

  const baselineMs = median(copies);
  const bareMs = median(bares);
  const uploadMs = median(uploads.map((u) => u.uploadMs));
  const finalizeMs = median(uploads.map((u) => u.finalizeMs));
  const growthMiB = (sampledPeak - before.now) / 1024 ** 2;
  const created = uploads[0].file;
  const rounds = uploads.map(
    (u, i) =>
      `${mb(SIZE, u.uploadMs).toFixed(0)} vs ${mb(SIZE, copies[i]).toFixed(0)} (floor ${mb(SIZE, bares[i]).toFixed(0)})`,
  );
  const rows = [
    ['file size', `${(SIZE / 1024 ** 2).toFixed(0)} MiB in ${totalChunks} chunks of 5 MiB, ${CONCURRENCY} in flight`],
    ['rounds', `${ROUNDS} (baseline, floor, then upload, alternating); medians below`],
    ['baseline stream copy', `${mb(SIZE, baselineMs).toFixed(1)} MiB/s (${(baselineMs / 1000).toFixed(2)} s)`],
    [
      'SHA-256 of the file alone',
      `${mb(SIZE, hashMs).toFixed(1)} MiB/s (${(hashMs / 1000).toFixed(2)} s; the server hashes every byte once)`,
    ],
    [
      'floor: bare receiver',
      `${mb(SIZE, bareMs).toFixed(1)} MiB/s (${(bareMs / 1000).toFixed(2)} s; ratio to the copy ${(baselineMs / bareMs).toFixed(2)})`,
    ],
    ['chunked upload end to end', `${mb(SIZE, uploadMs).toFixed(1)} MiB/s (${(uploadMs / 1000).toFixed(2)} s)`],
    ['each round (MiB/s)', rounds.join(', ')],
    ['ratio upload / baseline', `${(baselineMs / uploadMs).toFixed(2)} (aim >= 0.5)`],
    ['ratio upload / floor', (bareMs / uploadMs).toFixed(2)],
    ['finalize', `${(finalizeMs / 1000).toFixed(2)} s (hash check, probe, move)`],
    ['server RSS before upload', `${(before.now / 1024 ** 2).toFixed(0)} MiB`],
    [
      'server peak RSS during upload',
      `${(sampledPeak / 1024 ** 2).toFixed(0)} MiB (process high-water mark ${(after.peak / 1024 ** 2).toFixed(0)} MiB)`,
    ],
    ['peak growth', `${growthMiB.toFixed(0)} MiB (aim < 100)`],
    ['created file', `duration ${created.duration.toFixed(1)} s, ${created.mimeType}`],
  ];
  for (const [k, v] of rows) console.log(`${k.padEnd(30)} ${v}`);

  if (jsonFile) {
    const round1 = (n) => Math.round(n * 10) / 10;
    const copyLabel = 'plain Node stream copy to the same disk';
    const throughput = (label, ms, baselineMs, baselineLabel) => ({
      label,
      value: round1(mb(SIZE, ms)),
      unit: 'MiB/s',
      baseline: round1(mb(SIZE, baselineMs)),
      baselineLabel,
      better: 'higher',
    });
    const figures = [
      {
        ...throughput(
          `chunked upload of ${(SIZE / 1024 ** 2).toFixed(0)} MiB end to end (init, chunks, finalize)`,
          uploadMs,
          baselineMs,
          copyLabel,
        ),
        aim: 'ratio >= 0.5',
        met: baselineMs / uploadMs >= 0.5,
      },
      throughput(
        'the same chunks to a bare receiver (busboy, SHA-256 on the hash thread, write; no auth, database or checks)',
        bareMs,
        baselineMs,
        copyLabel,
      ),
      throughput('chunked upload end to end, against the bare receiver', uploadMs, bareMs, 'the bare receiver above'),
      {
        label: 'finalize (hash check, probe, register)',
        value: Math.round(finalizeMs) / 1000,
        unit: 's',
        better: 'lower',
      },
      {
        label: 'server memory growth during the uploads (peak RSS less RSS before)',
        value: Math.round(growthMiB),
        unit: 'MiB',
        better: 'lower',
        aim: '< 100 MiB',
        met: growthMiB < 100,
      },
    ];
    const notes = [
      `${ROUNDS} rounds, baseline copy, bare receiver, then upload, alternating, each after a sync; medians. Per round (upload vs copy, MiB/s): ${rounds.join('; ')}.`,
      'The bare receiver is the same client sending the same multipart chunks to a node:http handler in its own process that parses them with busboy, hashes them on the hash thread of the API and writes them at their offset, and nothing else: what any upload server on this machine pays.',
      `5 MiB chunks, ${CONCURRENCY} in flight as the web client sends them, over loopback to the API in its own process; database: ${db.label}.`,
      `SHA-256 of the file alone on this CPU: ${mb(SIZE, hashMs).toFixed(0)} MiB/s; the server hashes each in-order chunk as it arrives, on a worker thread.`,
      `Server RSS ${(before.now / 1024 ** 2).toFixed(0)} MiB before, sampled peak ${(sampledPeak / 1024 ** 2).toFixed(0)} MiB.`,
    ];
    writeFileSync(jsonFile, JSON.stringify({ title: 'Chunked upload', figures, notes }, null, 2));
  }
} finally {
  agent.destroy();
  bare?.child.kill('SIGTERM');
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await db.drop();
  rmSync(work, { recursive: true, force: true });
}
