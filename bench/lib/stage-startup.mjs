// Start-up and idle memory: the API started on an empty DATA_DIR (embedded database: initdb,
// migrations, the administrator's argon2 hash), then again on the same data, each time from spawn
// to listening and its resident memory once idle. Baseline: a bare node:http server started and
// measured the same way (what any Node server costs here).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { round } from './load.mjs';
import { repoRoot } from './paths.mjs';
import { rssOf, startServer } from './server.mjs';

const START_AIM_S = 2.5;
/** Issue 29's aim for `npm start` on a built, unchanged tree: the build check plus the server. */
const NPM_START_AIM_S = 5;
const RSS_AIM_MIB = 250;
const IDLE_MS = 10_000;
const MiB = 1024 * 1024;

/** User + system CPU seconds a process has used so far, from /proc (Linux; 100 ticks a second). */
function cpuSecondsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Starts `script`, times it to listening, waits IDLE_MS and reads its resident memory. */
async function startAndIdle(script, env, name, logFile) {
  const started = performance.now();
  const server = await startServer(script, env, name, logFile);
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSecondsOf(server.pid);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const rss = rssOf(server.pid);
  await server.stop();
  return { seconds, cpu, rssMiB: rss / MiB };
}

/**
 * `npm start` (scripts/start.mjs) on a built tree, as an operator restarts it: from spawn to the
 * "running at" line, the build's up-to-date check included. Run with this Node, as npm would.
 */
function timeNpmStart(env, logFile) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/start.mjs')], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let seconds = null;
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (seconds !== null || !/running at http/.test(output)) return;
      seconds = (performance.now() - started) / 1000;
      child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      writeFileSync(logFile, output);
      if (seconds !== null) resolve(seconds);
      else reject(new Error(`npm start exited (${code}) before listening; see ${logFile}`));
    });
  });
}

export async function measureStartup({ apiMain, outDir, log }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pal-bench-startup-'));
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SECRET: 'bench-startup-secret-bench-startup-secret-0123',
    ADMIN_EMAIL: 'startup-admin@bench.example',
    ADMIN_PASSWORD: 'startup-admin-password-1A',
    // Always the embedded database: the aim is about a first start with nothing installed beside.
    DATABASE_URL: '',
  };
  try {
    const bare = await startAndIdle(
      path.join(repoRoot, 'bench/lib/static-server.mjs'),
      { BENCH_STATIC_FILE: path.join(repoRoot, 'package.json') },
      'bare Node server',
      path.join(outDir, 'startup-bare.log'),
    );
    log(`  bare Node server: ${bare.seconds.toFixed(2)} s, ${bare.rssMiB.toFixed(0)} MiB`);
    const first = await startAndIdle(apiMain, env, 'API (first start)', path.join(outDir, 'startup-first.log'));
    log(
      `  first start: ${first.seconds.toFixed(2)} s (${first.cpu.toFixed(2)} s CPU), ${first.rssMiB.toFixed(0)} MiB idle`,
    );
    const again = await startAndIdle(apiMain, env, 'API (restart)', path.join(outDir, 'startup-restart.log'));
    log(
      `  restart: ${again.seconds.toFixed(2)} s (${again.cpu.toFixed(2)} s CPU), ${again.rssMiB.toFixed(0)} MiB idle`,
    );
    const npmStart = await timeNpmStart(env, path.join(outDir, 'startup-npm-start.log'));
    log(`  npm start on the built tree: ${npmStart.toFixed(2)} s to its "running at" line`);
    return { bare, first, again, npmStart };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function startupSection({ bare, first, again, npmStart }) {
  const figure = (label, value, unit, baseline, extra = {}) => ({
    label,
    value: round(value, 2),
    unit,
    baseline: round(baseline, 2),
    baselineLabel: 'bare Node server',
    better: 'lower',
    ...extra,
  });
  const startAim = (s) => ({ aim: `< ${START_AIM_S} s`, met: s < START_AIM_S });
  const rssAim = (m) => ({ aim: `< ${RSS_AIM_MIB} MiB`, met: m < RSS_AIM_MIB });
  return {
    title: 'Start-up and idle memory (embedded database)',
    baselineLabel: 'a bare node:http server started and measured the same way',
    figures: [
      figure(
        'first start on an empty DATA_DIR: spawn to listening',
        first.seconds,
        's',
        bare.seconds,
        startAim(first.seconds),
      ),
      figure('first start: CPU time (user + system) to listening', first.cpu, 's', bare.cpu),
      figure(
        `first start: resident memory ${IDLE_MS / 1000} s after listening`,
        first.rssMiB,
        'MiB',
        bare.rssMiB,
        rssAim(first.rssMiB),
      ),
      figure('restart on the same data: spawn to listening', again.seconds, 's', bare.seconds, startAim(again.seconds)),
      figure('restart: CPU time (user + system) to listening', again.cpu, 's', bare.cpu),
      figure(
        `restart: resident memory ${IDLE_MS / 1000} s after listening`,
        again.rssMiB,
        'MiB',
        bare.rssMiB,
        rssAim(again.rssMiB),
      ),
      figure('`npm start` on a built, unchanged tree: spawn to its "running at" line', npmStart, 's', bare.seconds, {
        aim: `< ${NPM_START_AIM_S} s`,
        met: npmStart < NPM_START_AIM_S,
      }),
    ],
    notes: [
      'First start: initdb of the embedded PostgreSQL (PGlite, in a worker thread), migrations, the schema, the administrator created from ADMIN_EMAIL/ADMIN_PASSWORD (argon2id). Restart: the same DATA_DIR again.',
      'Wall time includes waiting for a core on a shared machine; CPU time is what the process itself spent, steadier under load. Both processes carry the bench probe (lib/probe.mjs).',
      'Where the time and memory go, step by step, and what would cut them: bench/PROFILE-startup.md.',
    ],
  };
}
