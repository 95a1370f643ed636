// npm run bench:stream — /drm/stream against a bare static server, and finalize against bare ffmpeg.
// Prints figures side by side, measured in the same run on the same file.
import { execFile } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const api = (p) => import(new URL(`../api/dist/${p}`, import.meta.url).href);
const { createApp } = await api('app.js');
const { loadConfig } = await api('config.js');
const { createLogger } = await api('logger.js');
const { ffmpegPath } = await api('features/media/ffmpeg.js');
const { hlsEncodeArgs } = await api('features/chapters/hls-encode.js');
const { sampleChapterPlan } = await api('features/chapters/chapter-timeline.js');
const { hashPassword } = await api('features/auth/auth.service.js');
const { User, UserRole } = await api('features/users/user.entity.js');
const { AudioFile } = await api('features/files/audio-file.entity.js');

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3600);
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 4000);
// Player-like open ranges (a random start to the end, as a media element asks after a seek) by
// default; BENCH_RANGE_BYTES=1048576 measures small fixed ranges, where per-request cost dominates.
const RANGE_BYTES = Number(process.env.BENCH_RANGE_BYTES ?? 0);
const CONCURRENCY = [1, 16, 64];

const dataDir = mkdtempSync(path.join(tmpdir(), 'pal-bench-stream-'));
const ffmpeg = ffmpegPath({ ffmpegPath: process.env.FFMPEG_PATH });

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
}

/** Clients loop over random ranges for LOAD_MS; returns MB/s and median time to first byte. */
async function load(url, concurrency) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const size = Number((await fetch(url, { method: 'HEAD' })).headers.get('content-length'));
  let bytes = 0;
  const ttfb = [];
  const until = performance.now() + LOAD_MS;
  const started = performance.now();
  const client = async () => {
    while (performance.now() < until) {
      const start = Math.floor(Math.random() * (size - (RANGE_BYTES || size / 2)));
      const range = RANGE_BYTES ? `bytes=${start}-${start + RANGE_BYTES - 1}` : `bytes=${start}-`;
      await new Promise((resolve, reject) => {
        const t0 = performance.now();
        const req = http.get(url, { agent, headers: { range } }, (res) => {
          if (res.statusCode !== 206) reject(new Error(`status ${res.statusCode}`));
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

/** The baseline: Node's fs.createReadStream piped to the response, single ranges only. */
function baselineServer(file) {
  const size = statSync(file).size;
  const server = http.createServer((req, res) => {
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    const end = m && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
    res.writeHead(m ? 206 : 200, {
      'Content-Type': 'audio/mpeg',
      'Accept-Ranges': 'bytes',
      'Content-Length': end - start + 1,
      ...(m ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file, { start, end }).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The same ffmpeg commands finalize runs, with the same concurrency, and nothing else. */
async function bareFfmpeg(source, chapters) {
  const work = mkdtempSync(path.join(tmpdir(), 'pal-bench-ffmpeg-'));
  const queue = chapters.map((c, i) => ({ ...c, dir: path.join(work, String(i)) }));
  const started = performance.now();
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      mkdirSync(c.dir);
      writeFileSync(path.join(c.dir, 'k.key'), randomBytes(16));
      writeFileSync(
        path.join(c.dir, 'k.info'),
        `key\n${path.join(c.dir, 'k.key')}\n${randomBytes(16).toString('hex')}\n`,
      );
      const args = hlsEncodeArgs(
        { source, startTime: c.start, duration: c.end - c.start, workDir: c.dir },
        path.join(c.dir, 'k.info'),
        path.join(c.dir, 'index.m3u8'),
      );
      await run(ffmpeg, args);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(availableParallelism(), 4)) }, worker));
  const ms = performance.now() - started;
  rmSync(work, { recursive: true, force: true });
  return ms;
}

async function main() {
  console.log(`Generating a ${SECONDS} s MP3 with ${ffmpeg} ...`);
  mkdirSync(path.join(dataDir, 'audio'));
  const relative = path.join('audio', 'bench.mp3');
  const source = path.join(dataDir, relative);
  await run(ffmpeg, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${SECONDS}`,
    '-ac',
    '2',
    '-b:a',
    '128k',
    source,
  ]);
  const size = statSync(source).size;

  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SECRET: randomBytes(32).toString('hex'),
    ADMIN_PASSWORD: randomBytes(12).toString('hex'),
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const app = await createApp(config, { logger: createLogger('silent') });
  const base = await app.listen();
  const baseline = await baselineServer(source);
  try {
    const em = app.orm.em.fork();
    const password = 'bench-password-123';
    const email = `bench-${randomUUID()}@example.com`;
    em.create(User, { name: 'Bench', email, role: UserRole.admin, passwordHash: await hashPassword(password) });
    const file = em.create(AudioFile, {
      title: 'Bench',
      filename: 'bench.mp3',
      storagePath: relative,
      size,
      duration: SECONDS,
      mimeType: 'audio/mpeg',
    });
    await em.flush();
    const deviceData = { deviceId: `bench-${randomUUID()}`, deviceName: 'bench' };
    const rest = async (method, route, body, headers = {}) => {
      const res = await fetch(`${base}/api/v1${route}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: body && JSON.stringify(body),
      });
      return res.json();
    };
    const login = await rest('POST', '/auth/login', { email, password, deviceData, deviceApproved: true });
    const auth = { authorization: `Bearer ${login.token}`, 'x-device-id': deviceData.deviceId };
    const session = await rest('POST', `/drm/session/${file.id}`, undefined, auth);
    const streamUrl = `${base}${session.data.streamUrl}`;
    const baselineUrl = `http://127.0.0.1:${baseline.address().port}/bench.mp3`;

    console.log(
      `\nRange requests (${RANGE_BYTES ? `${RANGE_BYTES} bytes` : 'open-ended, random start'}) over ${LOAD_MS / 1000} s each, file ${(size / 1e6).toFixed(1)} MB, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}`,
    );
    console.log('clients | /drm/stream MB/s | baseline MB/s | ratio | /drm/stream TTFB ms | baseline TTFB ms');
    for (const c of CONCURRENCY) {
      const ours = await load(streamUrl, c);
      const bare = await load(baselineUrl, c);
      console.log(
        `${String(c).padStart(7)} | ${ours.mbps.toFixed(0).padStart(16)} | ${bare.mbps.toFixed(0).padStart(13)} | ${((ours.mbps / bare.mbps) * 100).toFixed(0).padStart(4)}% | ${ours.ttfb.toFixed(2).padStart(19)} | ${bare.ttfb.toFixed(2).padStart(16)}`,
      );
    }

    const plan = sampleChapterPlan(SECONDS);
    await rest(
      'POST',
      `/files/${file.id}/chapters`,
      { chapters: plan.map(({ label, startTime, order }) => ({ label, startTime, endTime: null, order })) },
      auth,
    );
    const ranges = plan.map((c, i) => ({
      start: c.startTime,
      end: i + 1 < plan.length ? plan[i + 1].startTime : SECONDS,
    }));
    console.log(`\nFinalize ${plan.length} chapters of a ${SECONDS} s file (filesystem storage) ...`);
    const bareMs = await bareFfmpeg(source, ranges);
    const t0 = performance.now();
    const result = await rest('POST', `/files/${file.id}/chapters/finalize`, { storageType: 'filesystem' }, auth);
    const finalizeMs = performance.now() - t0;
    if (result.summary?.finalized !== plan.length)
      throw new Error(`finalize failed: ${JSON.stringify(result).slice(0, 500)}`);
    console.log(
      `finalize ${(finalizeMs / 1000).toFixed(1)} s | bare ffmpeg ${(bareMs / 1000).toFixed(1)} s | overhead ${((finalizeMs / bareMs - 1) * 100).toFixed(1)}%`,
    );
  } finally {
    baseline.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
