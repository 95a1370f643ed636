// npm run bench:cluster: protected 64 KiB ranges through nginx (the deployment's deploy/nginx.conf)
// over one replica of the built server, and over two, in the same run: what the cluster test tier
// starts (api/src/cluster/global-setup.ts): replicas of `node api/dist/main.js` sharing one
// DATA_DIR, one PostgreSQL database and the machine's Redis. wrk drives random 64 KiB ranges of one
// signed stream session (bearer token and device id on every request, each re-checked) at 16
// connections, alternating rounds between an nginx whose upstream holds replica A alone and one
// holding A and B; means reported.
//
// Contract (bench/README.md): `--json <file>` writes the figures. Needs wrk, nginx, PostgreSQL
// (BENCH_DATABASE_URL or DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/postgres) and
// Redis (REDIS_TEST_URL, else redis://127.0.0.1:6379). Knobs: BENCH_LOAD_SECONDS (per side and
// round, default 5), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (default 16).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, openAsBlob, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { RANGE_SPAN } from './lib/byte-stage.mjs';
import { startDeployNginx } from './lib/cluster-nginx.mjs';
import { openBenchDatabase } from './lib/database.mjs';
import { findNginx } from './lib/nginx.mjs';
import { dist, repoRoot } from './lib/paths.mjs';
import { startServer } from './lib/server.mjs';
import { findWrk, wrkLoad } from './lib/wrk.mjs';

const { ffmpegPath } = await import(dist('features/media/ffmpeg.js'));

const run = promisify(execFile);
const args = process.argv.slice(2);
const jsonFile = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** Two replicas on the same two cores add no CPU: the aim is that balancing over them costs little. */
const AIM = 0.9;
const TITLE = 'Protected ranges over one and two replicas';
const postgresUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

const wrk = findWrk();
const nginxBin = findNginx();
if (!wrk || !nginxBin) {
  const missing = [wrk ? null : 'wrk', nginxBin ? null : 'nginx'].filter(Boolean).join(' and ');
  const note = `${missing} not installed (apt-get install wrk nginx-light): the figures were skipped.`;
  console.log(note);
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ title: TITLE, figures: [], notes: [note] }, null, 2));
  process.exit(0);
}
const work = mkdtempSync(path.join(tmpdir(), 'pal-bench-cluster-'));
const outDir = path.join(repoRoot, 'bench/out');
mkdirSync(outDir, { recursive: true });
const admin = { email: 'cluster-bench@example.com', password: randomBytes(12).toString('hex') };

/** Ten minutes of a 128 kbit/s MP3 tone (one minute encoded, then its frames looped). */
async function makeSource(file) {
  const ffmpeg = ffmpegPath({ ffmpegPath: process.env.FFMPEG_PATH });
  const minute = path.join(work, 'minute.mp3');
  const quiet = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'];
  await run(ffmpeg, [...quiet, '-f', 'lavfi', '-i', 'sine=frequency=440:duration=60', '-b:a', '128k', minute]);
  await run(ffmpeg, [...quiet, '-stream_loop', '-1', '-i', minute, '-t', '600', '-c', 'copy', file]);
  rmSync(minute);
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

const loadAtStart = load();
const db = await openBenchDatabase(postgresUrl);
const env = {
  HOST: '127.0.0.1',
  PORT: '0',
  DATA_DIR: path.join(work, 'data'),
  DATABASE_URL: db.url,
  REDIS_URL: redisUrl,
  REDIS_KEY_PREFIX: `pal-bench-${randomBytes(4).toString('hex')}`,
  SECRET: randomBytes(32).toString('hex'),
  ADMIN_EMAIL: admin.email,
  ADMIN_PASSWORD: admin.password,
  TRUST_PROXY: 'loopback',
  LOG_LEVEL: 'warn',
};
const replicas = [];
const proxies = [];
const figures = [];
const notes = [];
try {
  const source = path.join(work, 'bench.mp3');
  await makeSource(source);
  const size = statSync(source).size;
  // A first, which migrates the new database and makes the administrator; then B on what A made.
  for (const name of ['a', 'b']) {
    replicas.push(
      await startServer(
        path.join(repoRoot, 'api/dist/main.js'),
        env,
        `replica ${name}`,
        path.join(outDir, `cluster-${name}.log`),
      ),
    );
  }
  const one = await startDeployNginx(nginxBin, [replicas[0].url]);
  proxies.push(one);
  const two = await startDeployNginx(
    nginxBin,
    replicas.map((r) => r.url),
  );
  proxies.push(two);

  // Everything through nginx, as a listener's player would reach the cluster.
  const deviceData = { deviceId: `cluster-bench-${randomBytes(4).toString('hex')}`, deviceName: 'bench' };
  const login = await rest(two.url, 'POST', '/auth/login', {
    json: { email: admin.email, password: admin.password, deviceData, deviceApproved: true },
  });
  const headers = { authorization: `Bearer ${login.token}`, 'x-device-id': deviceData.deviceId };
  const form = new FormData();
  form.set('audio', await openAsBlob(source, { type: 'audio/mpeg' }), 'bench.mp3');
  form.set('title', 'Cluster bench');
  const file = (await rest(two.url, 'POST', '/files', { form, headers })).data;
  const session = await rest(two.url, 'POST', `/drm/session/${file.id}`, { headers });
  const streamPath = session.data.streamUrl;

  // Round-robin reaches both replicas through the second nginx, and only A through the first.
  const upstreams = async (proxy) => {
    const seen = new Set();
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${proxy.url}${streamPath}`, { headers: { ...headers, range: 'bytes=0-65535' } });
      await res.arrayBuffer();
      if (res.status !== 206) throw new Error(`a range through nginx answered ${res.status}`);
      seen.add(res.headers.get('x-upstream'));
    }
    return seen.size;
  };
  const [viaOne, viaTwo] = [await upstreams(one), await upstreams(two)];
  if (viaOne !== 1 || viaTwo !== 2) throw new Error(`upstreams answering: ${viaOne} and ${viaTwo}, not 1 and 2`);

  const sides = { one: { url: `${one.url}${streamPath}` }, two: { url: `${two.url}${streamPath}` } };
  const runs = { one: [], two: [] };
  const target = (side) => ({ url: sides[side].url, headers, size, span: RANGE_SPAN, connections: CONNECTIONS });
  // Warm-up, unmeasured: both replicas' code compiled and caches filled.
  for (const side of ['two', 'one']) await wrkLoad(wrk, { ...target(side), seconds: 2 });
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['one', 'two'] : ['two', 'one'];
    for (const side of order) {
      const r = await wrkLoad(wrk, { ...target(side), seconds: LOAD_SECONDS });
      runs[side].push(r);
      console.log(
        `round ${round + 1}: ${side === 'one' ? 'one replica ' : 'two replicas'} ${r.requestsPerSecond.toFixed(0)} ranges/s, p99 ${r.p99.toFixed(1)} ms, failed ${r.failed}`,
      );
    }
  }
  const rps = (side) => mean(runs[side].map((r) => r.requestsPerSecond));
  const p99 = (side) => mean(runs[side].map((r) => r.p99));
  const failed = (side) => runs[side].reduce((n, r) => n + r.failed, 0);
  const [oneRps, twoRps] = [rps('one'), rps('two')];
  console.log(
    `Two replicas ${twoRps.toFixed(0)} ranges/s against one ${oneRps.toFixed(0)} (ratio ${(twoRps / oneRps).toFixed(2)})`,
  );
  figures.push(
    {
      label: `/drm/stream through nginx, 64 KiB ranges, ${CONNECTIONS} connections, two replicas: ranges per second`,
      value: Math.round(twoRps),
      unit: 'ranges/s',
      baseline: Math.round(oneRps),
      baselineLabel: 'the same through nginx over one replica, same run',
      better: 'higher',
      aim: `ratio >= ${AIM}`,
      met: twoRps / oneRps >= AIM,
    },
    {
      label: `/drm/stream through nginx, 64 KiB ranges, ${CONNECTIONS} connections, two replicas: p99`,
      value: Number(p99('two').toFixed(1)),
      unit: 'ms',
      baseline: Number(p99('one').toFixed(1)),
      baselineLabel: 'one replica',
      better: 'lower',
    },
    {
      label: 'answers not 2xx, or failed, over both sides',
      value: failed('one') + failed('two'),
      unit: 'responses',
      aim: '0',
      met: failed('one') + failed('two') === 0,
    },
  );
  notes.push(
    `Replicas of the built server (\`node api/dist/main.js\`) sharing one DATA_DIR, a temporary database on ${db.label} and Redis at ${redisUrl}, behind nginx (one worker process) running deploy/nginx.conf (its upstream keep-alive pool, unbuffered /api/v1/drm/); one nginx lists replica A alone, the other A and B (round-robin). Both nginx and both replicas run throughout; only the upstream differs (checked before the load: four ranges through each, answered by one replica and by both).`,
    `wrk, one thread, ${CONNECTIONS} keep-alive connections, random ${RANGE_SPAN / 1024} KiB ranges of a ${(size / 1e6).toFixed(1)} MB MP3 from one stream session (bearer token and device id on every request, the full access check on each); ${ROUNDS} rounds of ${LOAD_SECONDS} s per side in alternating order after a warm-up, means reported.`,
    `The machine has ${availableParallelism()} cores for wrk, nginx and the replicas together: a second replica adds no CPU here, so the figure shows what balancing over two costs (or gains from two event loops), not scaling on separate machines.`,
    `Load average at start / end: ${loadAtStart} / ${load()}.`,
  );
} finally {
  for (const proxy of proxies) await proxy.stop();
  for (const replica of replicas) await replica.stop();
  await db.drop();
  rmSync(work, { recursive: true, force: true });
}

if (jsonFile) {
  writeFileSync(jsonFile, JSON.stringify({ title: TITLE, figures, notes }, null, 2));
}
