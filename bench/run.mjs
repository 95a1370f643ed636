// `npm run bench`: every benchmark, one report (bench/REPORT.md), each figure beside a baseline
// measured in the same run. Usage and details: bench/README.md.
//
// Contract for the other benchmark scripts (bench:<name> in the root package.json, e.g.
// bench:upload, bench:stream): after its own stages this runner starts each one in turn, as
// `node bench/<x>.mjs --json <file>` when the npm script ends in that command (the API is built
// already), else as `npm run bench:<name> -- --json <file>`, with BENCH_TIME_LIMIT_SECONDS in its
// environment: its share of the 14-minute budget, 4 to 6 minutes; it is stopped after that.
// The script writes
//   { "title": "...", "figures": [{ "label", "value", "unit", "baseline"?, "baselineLabel"?,
//     "better"?: "higher"|"lower", "aim"?, "met"? }], "notes"?: ["..."] }
// and exits 0. A script that writes no file still runs; its printed output goes into the report.
// `--skip-others` leaves these scripts out (for working on this runner); `--only <stages>` runs only
// the stages named (comma-separated, see STAGES), no other scripts, and writes bench/out/REPORT.md
// (with `--into-report`, their sections also replace theirs in bench/REPORT.md).
// `--merge <scripts>` runs only the scripts named (e.g. bench:backup,bench:cluster) and merges their
// sections into bench/REPORT.md (bench/lib/merge-report.mjs), leaving the rest of it as it was.
//
// Stages of this runner, all on loopback, bounded in count and time, the API as a child process:
//   start-up and idle memory (empty DATA_DIR, then a restart) -> seed + SQL capture (in-process
//   app) -> API: GraphQL, login, live events -> baseline server: the same SQL, argon2 alone, plain
//   WebSockets, plain range reads -> fresh API: mixed load -> fresh API: Lighthouse on /login, /
//   and /player/{id} -> the other benchmark scripts -> REPORT.md.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { childBenches, runChildBench } from './lib/child-benches.mjs';
import { openBenchDatabase } from './lib/database.mjs';
import { repoRoot } from './lib/paths.mjs';
import { renderReport } from './lib/report.mjs';

const argv = process.argv.slice(2);
const args = new Set(argv);
const quick = args.has('--quick');
const STAGES = ['startup', 'graphql', 'login', 'events', 'mixed', 'lighthouse'];
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 ? (argv[onlyAt + 1] ?? '').split(',').filter(Boolean) : null;
const unknown = only?.filter((name) => !STAGES.includes(name)) ?? [];
if (only && (only.length === 0 || unknown.length > 0)) {
  console.error(`--only takes stage names separated by commas, of: ${STAGES.join(', ')}`);
  process.exit(2);
}
/** Whether a stage is part of this run (all are, without --only). */
const wanted = (name) => !only || only.includes(name);
const plan = quick
  ? {
      graphqlSeconds: 2,
      loginSeconds: 4,
      subscribers: 100,
      listeners: 40,
      browsers: 5,
      mixedSeconds: 15,
      baselineStreamSeconds: 8,
      lighthouseRuns: 1,
      events: { connectMs: 60_000, triggerMs: 60_000 },
    }
  : {
      graphqlSeconds: 8,
      loginSeconds: 15,
      subscribers: 1000,
      listeners: 200,
      browsers: 20,
      mixedSeconds: 60,
      baselineStreamSeconds: 20,
      lighthouseRuns: 5,
      events: { connectMs: 150_000, triggerMs: 120_000 },
    };
const counts = {
  browsers: plan.browsers,
  loginClients: 16,
  subscribers: plan.subscribers,
  listeners: plan.listeners,
  files: 200,
  grantsPerUser: 30,
};

const BUDGET_MS = 14 * 60_000;
// A script's first start of the API alone (initdb) can take two minutes on a busy machine: a
// script given less, once the runner's own stages overran, could only fail.
const MIN_CHILD_MS = 4 * 60_000;
const MAX_CHILD_MS = 6 * 60_000;
const t0 = performance.now();
const log = (message) => console.log(`[bench ${Math.round((performance.now() - t0) / 1000)} s] ${message}`);
const loadAvg = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
const startedAt = new Date();
const machine = {
  cores: os.cpus().length,
  model: os.cpus()[0]?.model ?? 'unknown CPU',
  memoryGiB: (os.totalmem() / 1024 ** 3).toFixed(1),
  freeGiB: (os.freemem() / 1024 ** 3).toFixed(1),
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  node: process.version,
  loadStart: loadAvg(),
};

/** Newest modification time under `dir` of files whose name matches `pattern`. */
function newestMtime(dir, pattern) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && pattern.test(entry.name))
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

// Each workspace is rebuilt when its sources are newer than its output (--no-build: never).
const builds = [
  { name: 'api', output: 'api/dist/main.js', sources: 'api/src', pattern: /\.ts$/ },
  { name: 'web', output: 'web/dist/index.html', sources: 'web/src', pattern: /\.(tsx?|css|graphql)$/ },
];
for (const b of builds) {
  const output = path.join(repoRoot, b.output);
  const fresh =
    existsSync(output) && statSync(output).mtimeMs >= newestMtime(path.join(repoRoot, b.sources), b.pattern);
  if (args.has('--no-build') || fresh) {
    log(
      fresh ? `${b.output} is newer than ${b.sources}: not rebuilding` : `using the existing ${b.output} (--no-build)`,
    );
    continue;
  }
  log(`building ${b.name} (npm run build -w ${b.name})`);
  const build = spawnSync('npm', ['run', 'build', '-w', b.name], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error(`${b.name} does not build; fix that first (or pass --no-build to use what is built).`);
    process.exit(1);
  }
}

// `--merge bench:a,bench:b`: only those scripts, their sections merged into bench/REPORT.md.
const mergeAt = argv.indexOf('--merge');
if (mergeAt >= 0) {
  const names = (argv[mergeAt + 1] ?? '').split(',').filter(Boolean);
  const known = childBenches();
  const chosen = known.filter((b) => names.includes(b.name));
  if (names.length === 0 || chosen.length !== names.length) {
    console.error(`--merge takes script names separated by commas, of: ${known.map((b) => b.name).join(', ')}`);
    process.exit(2);
  }
  const { mergeIntoReport } = await import('./lib/merge-report.mjs');
  const outDir = path.join(repoRoot, 'bench/out');
  mkdirSync(outDir, { recursive: true });
  const merged = [];
  for (const bench of chosen) {
    const loadStart = loadAvg();
    log(`other benchmark: npm run ${bench.name} (limit ${MAX_CHILD_MS / 1000} s)`);
    const section = await runChildBench(bench, outDir, log, MAX_CHILD_MS);
    merged.push(section);
    const reportFile = path.join(repoRoot, 'bench/REPORT.md');
    const command = `npm run bench -- --merge ${bench.name}`;
    const text = readFileSync(reportFile, 'utf8');
    writeFileSync(
      reportFile,
      mergeIntoReport(text, [section], { ranAt: new Date(), loadStart, loadEnd: loadAvg(), command }),
    );
    log(`merged "${section.title}" into bench/REPORT.md${section.error ? ` (failed: ${section.error})` : ''}`);
  }
  process.exit(merged.some((s) => s.error) ? 1 : 0);
}

// Loaded after the build: these import api/dist.
const { seed } = await import('./lib/seed.mjs');
const { captureSql } = await import('./lib/sql-capture.mjs');
const { startServer } = await import('./lib/server.mjs');
const graphql = await import('./lib/stage-graphql.mjs');
const login = await import('./lib/stage-login.mjs');
const events = await import('./lib/stage-events.mjs');
const mixed = await import('./lib/stage-mixed.mjs');
const startup = await import('./lib/stage-startup.mjs');
const pages = await import('./lib/stage-lighthouse.mjs');

const outDir = path.join(repoRoot, 'bench/out');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const work = mkdtempSync(path.join(os.tmpdir(), 'pal-bench-'));
const dataDir = path.join(work, 'data');
const db = await openBenchDatabase(process.env.BENCH_DATABASE_URL);
const env = {
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
  LOG_LEVEL: 'warn',
  // The per-address login limit (30/min) would refuse the login stage, which comes from one address.
  LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
  ADMIN_EMAIL: 'bench-admin@bench.example',
  ...(db.url ? { DATABASE_URL: db.url } : {}),
};
const apiMain = path.join(repoRoot, 'api/dist/main.js');
const results = {};
const sections = [];
const failures = [];
/** Stages left out because a tool is missing, said in the report's notes. */
const skipped = [];

/**
 * Runs one part of stage `key` (see STAGES; undefined when --only leaves it out); a failure is
 * reported in its section instead of ending the whole run.
 */
async function stage(key, name, fn) {
  if (!wanted(key)) return undefined;
  log(name);
  try {
    return await fn();
  } catch (err) {
    log(`  FAILED: ${err.stack ?? err}`);
    failures.push({ name, error: err.message ?? String(err) });
    return null;
  }
}

let serverCount = 0;
async function withServer(keys, script, serverEnv, name, fn) {
  if (!keys.some(wanted)) return;
  const logFile = path.join(outDir, `${++serverCount}-${name.split(' ')[0].toLowerCase()}.log`);
  const server = await startServer(script, serverEnv, name, logFile);
  log(`  ${name} at ${server.url}, output in ${path.relative(repoRoot, logFile)}`);
  try {
    return await fn(server);
  } finally {
    const code = await server.stop();
    if (code !== 0 && code !== null) log(`  ${name} exited with ${code}: ${server.stderrTail()}`);
  }
}

try {
  // First, on a machine not yet warmed by the other stages' servers.
  results.startup = await stage('startup', 'start-up and idle memory (embedded database)', () =>
    startup.measureStartup({ apiMain, outDir, log }),
  );

  log(`seeding ${JSON.stringify(counts)} in ${dataDir} on ${db.label}`);
  const seeded = await seed(env, counts);
  const operations = graphql.graphqlOperations(seeded);
  let captured = {};
  try {
    if (wanted('graphql')) captured = await captureSql(seeded.app, operations);
  } finally {
    await seeded.app.close();
  }
  const bytesFile = seeded.bytesFile;
  const size = statSync(bytesFile).size;
  const baselineInput = path.join(work, 'baseline-input.json');
  writeFileSync(
    baselineInput,
    JSON.stringify({ queries: captured, passwordHash: seeded.passwordHash, password: seeded.password, bytesFile }),
  );
  writeFileSync(path.join(outDir, 'captured-sql.json'), JSON.stringify(captured, null, 2));

  await withServer(['graphql', 'login', 'events'], apiMain, env, 'API', async (api) => {
    results.graphql = await stage('graphql', 'GraphQL load against the API', () =>
      graphql.loadGraphql(api.url, operations, plan.graphqlSeconds, log),
    );
    results.login = await stage('login', 'login load against the API', () =>
      login.loadLogin(api, seeded.loginUsers, plan.loginSeconds),
    );
    results.events = await stage('events', `live events: ${seeded.subscribers.length} subscribers`, () =>
      events.loadEvents(api, seeded.subscribers, seeded.admin[0], plan.events),
    );
  });

  const baselineEnv = {
    DATA_DIR: dataDir,
    BENCH_BASELINE_INPUT: baselineInput,
    ...(db.url ? { BENCH_DB_URL: db.url } : {}),
  };
  const baselineServer = path.join(repoRoot, 'bench/lib/baseline-server.mjs');
  await withServer(['graphql', 'login', 'events', 'mixed'], baselineServer, baselineEnv, 'baseline', async (base) => {
    results.sql = await stage('graphql', 'baseline: the same SQL', () =>
      graphql.loadSql(base.url, operations, plan.graphqlSeconds, log),
    );
    results.argon2 = await stage('login', 'baseline: argon2id alone', () => login.loadArgon2(base, plan.loginSeconds));
    results.plainEvents = await stage('events', 'baseline: plain WebSocket pushes', () =>
      events.loadPlainEvents(base, seeded.subscribers.length, plan.events),
    );
    results.plainStreams = await stage('mixed', 'baseline: plain range reads', () =>
      mixed.loadPlainStreams({
        url: base.url,
        listeners: seeded.listeners.length,
        size,
        seconds: plan.baselineStreamSeconds,
      }),
    );
  });

  await withServer(['mixed'], apiMain, env, 'API (fresh, for the mixed load)', async (api) => {
    results.mixed = await stage('mixed', `mixed load for ${plan.mixedSeconds} s`, async () => {
      const streamUrls = await mixed.openStreams(api.url, seeded.listeners, seeded.publicFileIds);
      return mixed.loadMixed({
        server: api,
        streamUrls,
        size,
        browsers: seeded.browsers,
        uploaders: seeded.admin.slice(1),
        seconds: plan.mixedSeconds,
      });
    });
  });

  const noChromium = wanted('lighthouse') ? pages.chromiumMissing() : null;
  if (noChromium) {
    skipped.push(`Lighthouse: ${noChromium}; its scores were skipped.`);
  } else {
    await withServer(['lighthouse'], apiMain, env, 'API (fresh, for Lighthouse)', async (api) => {
      results.lighthouse = await stage('lighthouse', 'Lighthouse (mobile): /login, /, /player/{id}', () =>
        pages.measurePages({ base: api.url, user: seeded.pageUser, runs: plan.lighthouseRuns, log, outDir }),
      );
    });
  }

  const section = (key, title, fn, ...parts) => {
    if (!wanted(key)) return [];
    return [parts.every(Boolean) ? fn(...parts) : { title, error: 'see the failures below' }];
  };
  sections.push(
    ...section(
      'graphql',
      'GraphQL: library query and admin user list',
      (a, b) => graphql.graphqlSection(operations, a, b, captured, results.lighthouse?.sent),
      results.graphql,
      results.sql,
    ),
    ...section('login', 'Login', login.loginSection, results.login, results.argon2),
    ...section('events', 'Live events', events.eventsSection, results.events, results.plainEvents),
    ...section('mixed', 'Mixed load', mixed.mixedSection, results.mixed, results.plainStreams),
    ...section('startup', 'Start-up and idle memory', startup.startupSection, results.startup),
    ...(noChromium ? [] : section('lighthouse', 'Lighthouse', pages.lighthouseSection, results.lighthouse)),
  );
} catch (err) {
  log(`run aborted: ${err.stack ?? err}`);
  failures.push({ name: 'run', error: err.message ?? String(err) });
} finally {
  rmSync(work, { recursive: true, force: true });
  await db.drop();
}

const others = args.has('--skip-others') || only ? [] : childBenches();
for (const [i, bench] of others.entries()) {
  // The whole run must end within BUDGET_MS: the scripts share what is left, 6 minutes at most each.
  const share = (BUDGET_MS - (performance.now() - t0)) / (others.length - i);
  const limitMs = Math.max(MIN_CHILD_MS, Math.min(MAX_CHILD_MS, share));
  log(`other benchmark: npm run ${bench.name} (limit ${Math.round(limitMs / 1000)} s)`);
  sections.push(await runChildBench(bench, outDir, log, limitMs));
}

machine.loadEnd = loadAvg();
for (const f of failures) sections.push({ title: `Stage failed: ${f.name}`, error: f.error });
const notes = [
  'The machine is shared with other engineers running builds and tests, so absolute figures are noisy; the load averages above show how busy it was. Each baseline ran in the same run on the same machine, so ratios are steadier than absolute numbers.',
  'Server, baseline server and load generator are separate processes on the same cores: the load generator competes with the server it measures.',
  `Counts: ${JSON.stringify(counts)}. The login stage raises LOGIN_RATE_LIMIT_PER_MINUTE (default 30 per address) since all logins come from 127.0.0.1.`,
  ...skipped,
  ...(quick ? ['QUICK run (`--quick`): shortened stages and fewer clients; not the figures the aims refer to.'] : []),
  ...(only ? [`PARTIAL run (\`--only ${only.join(',')}\`): the other stages and scripts were left out.`] : []),
];
const report = renderReport({
  machine,
  database: db.label,
  mode: `${quick ? 'quick' : 'full'}${only ? `, only ${only.join(', ')}` : ''}`,
  startedAt,
  seconds: (performance.now() - t0) / 1000,
  sections,
  notes,
});
// A partial run leaves the committed report alone.
const reportFile = only ? 'bench/out/REPORT.md' : 'bench/REPORT.md';
writeFileSync(path.join(repoRoot, reportFile), report);
// `--only <stages> --into-report`: the stages' sections also replace theirs in bench/REPORT.md.
if (only && args.has('--into-report')) {
  const { mergeIntoReport } = await import('./lib/merge-report.mjs');
  const committed = path.join(repoRoot, 'bench/REPORT.md');
  const stamp = {
    ranAt: new Date(),
    loadStart: machine.loadStart,
    loadEnd: machine.loadEnd,
    command: `npm run bench -- --only ${only.join(',')} --into-report`,
  };
  const own = sections.filter((s) => !s.title.startsWith('Stage failed'));
  writeFileSync(committed, mergeIntoReport(readFileSync(committed, 'utf8'), own, stamp));
  log(`merged ${own.map((s) => `"${s.title}"`).join(', ')} into bench/REPORT.md`);
}
writeFileSync(path.join(outDir, 'results.json'), JSON.stringify({ machine, plan, results, failures }, null, 2));
log(`wrote ${reportFile} (${failures.length} failed stage(s))`);
process.exit(failures.length > 0 ? 1 : 0);
